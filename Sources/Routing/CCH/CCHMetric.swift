public import RoadNetwork

/// A CCH customized for one metric: upward and downward weights of every CCH arc, and for
/// shortcuts the middle node they stand for (to unpack paths).
///
/// Customization is the basic lower-triangle relaxation in rank order: for each node v and each
/// pair of its upward neighbours x < y, the arc x–y may be improved by going through v.
/// Re-running it with new turn weights is a full live-traffic update.
public final class CCHMetric: @unchecked Sendable {
    public let structure: CCHStructure
    @usableFromInline let up: UnsafeMutableBufferPointer<UInt32>
    @usableFromInline let down: UnsafeMutableBufferPointer<UInt32>
    let upMiddle: UnsafeMutableBufferPointer<UInt32>
    let downMiddle: UnsafeMutableBufferPointer<UInt32>
    static let noMiddle = UInt32.max
    static let infinity = UInt32.max

    public init(structure: CCHStructure, turnWeight: [UInt32]) {
        self.structure = structure
        let m = max(1, structure.arcCount)
        up = .allocate(capacity: m)
        down = .allocate(capacity: m)
        upMiddle = .allocate(capacity: m)
        downMiddle = .allocate(capacity: m)
        customize(turnWeight: turnWeight)
    }

    deinit {
        up.deallocate(); down.deallocate(); upMiddle.deallocate(); downMiddle.deallocate()
    }

    /// Recomputes every weight from new turn weights.
    /// - Complexity: O(number of lower triangles of the chordal graph).
    public func customize(turnWeight: [UInt32]) {
        let s = structure
        up.update(repeating: Self.infinity)
        down.update(repeating: Self.infinity)
        upMiddle.update(repeating: Self.noMiddle)
        downMiddle.update(repeating: Self.noMiddle)
        for t in 0..<turnWeight.count {
            let code = s.turnArc[t]
            guard code != UInt32.max else { continue }
            let k = Int(code >> 1)
            let w = turnWeight[t]
            if code & 1 == 0 { if w < up[k] { up[k] = w } } else { if w < down[k] { down[k] = w } }
        }
        let n = s.nodeCount
        let firstOut = s.upFirstOut, head = s.upHead
        let up = self.up, down = self.down, upMiddle = self.upMiddle, downMiddle = self.downMiddle
        for v in 0..<n {
            let begin = Int(firstOut[v]), end = Int(firstOut[v + 1])
            guard end - begin >= 2 else { continue }
            for i in begin..<(end - 1) {
                let x = Int(head[i])
                let downVX = down[i], upVX = up[i]
                // The heads after i are a sorted subset of x's upward neighbours (chordality):
                // find each with one forward walk over x's sorted list.
                var k = Int(firstOut[x])
                for j in (i + 1)..<end {
                    let y = head[j]
                    while head[k] < y { k += 1 }
                    assert(head[k] == y, "missing chordal arc")
                    let viaUp = Self.sum(downVX, up[j])
                    if viaUp < up[k] { up[k] = viaUp; upMiddle[k] = UInt32(v) }
                    let viaDown = Self.sum(down[j], upVX)
                    if viaDown < down[k] { down[k] = viaDown; downMiddle[k] = UInt32(v) }
                }
            }
        }
    }

    @inline(__always)
    static func sum(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let (s, o) = a.addingReportingOverflow(b)
        return o ? infinity : s
    }

    @inlinable public func upWeight(_ k: Int) -> UInt32 { up[k] }
    @inlinable public func downWeight(_ k: Int) -> UInt32 { down[k] }

    /// Appends the turn-graph nodes (ranks) of the path an arc stands for, after its start node.
    /// `upward`: travel from the arc's lower end to its higher end.
    func unpack(arc k: Int, lower: Int, higher: Int, upward: Bool, into path: inout [UInt32]) {
        var stack: [(k: Int, lower: Int, higher: Int, upward: Bool)] = [(k, lower, higher, upward)]
        while let (k, lower, higher, upward) = stack.popLast() {
            let middle = upward ? upMiddle[k] : downMiddle[k]
            if middle == Self.noMiddle {
                path.append(UInt32(upward ? higher : lower))
                continue
            }
            let v = Int(middle)
            // upward: lower → v (down arc of v–lower), then v → higher (up arc of v–higher).
            // downward: higher → v (down arc of v–higher), then v → lower (up arc of v–lower).
            let first = upward ? lower : higher, second = upward ? higher : lower
            let a1 = structure.arc(from: v, to: first)!, a2 = structure.arc(from: v, to: second)!
            // Pushed in reverse: the first half is unpacked first.
            stack.append((a2, v, second, true))
            stack.append((a1, v, first, false))
        }
    }
}
