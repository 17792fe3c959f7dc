public import RoadNetwork
import Dispatch
import Foundation

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

    let parallelPlan: ParallelPlan?

    /// - Parameter parallelAbove: customize on two threads when the hierarchy has more nodes than
    ///   this (small ones are faster alone); tests pass 0 to exercise the parallel path.
    public init(structure: CCHStructure, turnWeight: [UInt32], parallelAbove: Int = 20_000) {
        self.structure = structure
        parallelPlan = Self.makePlan(structure, minimumNodes: parallelAbove)
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
        let plan = parallelPlan
        guard let plan, plan.threads.count == 2 else {
            Self.relaxTriangles(nodes: 0..<n, structure: s, up: up, down: down, upMiddle: upMiddle, downMiddle: downMiddle,
                                shared: nil)
            return
        }
        // Below the top separator, two groups of independent subtrees run at once; each keeps its
        // own copy of the separator's arcs (the only ones both may improve) and the copies are merged.
        let sharedBegin = plan.sharedArcBegin, sharedCount = s.arcCount - plan.sharedArcBegin
        let copies = (0..<2).map { _ in SharedArcs(up: up, down: down, upMiddle: upMiddle, downMiddle: downMiddle, begin: sharedBegin, count: sharedCount) }
        let structure = s
        nonisolated(unsafe) let (u, d, um, dm) = (up, down, upMiddle, downMiddle)
        DispatchQueue.concurrentPerform(iterations: 2) { t in
            for range in plan.threads[t] {
                Self.relaxTriangles(nodes: range, structure: structure, up: u, down: d, upMiddle: um, downMiddle: dm, shared: copies[t])
            }
        }
        for c in copies {
            for i in 0..<sharedCount {
                let k = sharedBegin + i
                if c.up[i] < up[k] { up[k] = c.up[i]; upMiddle[k] = c.upMiddle[i] }
                if c.down[i] < down[k] { down[k] = c.down[i]; downMiddle[k] = c.downMiddle[i] }
            }
        }
        Self.relaxTriangles(nodes: plan.separatorStart..<n, structure: s, up: up, down: down, upMiddle: upMiddle,
                            downMiddle: downMiddle, shared: nil)
    }

    /// A thread's private copy of the separator arcs during parallel customization.
    final class SharedArcs: @unchecked Sendable {
        let begin: Int
        var up: [UInt32], down: [UInt32], upMiddle: [UInt32], downMiddle: [UInt32]

        init(up: UnsafeMutableBufferPointer<UInt32>, down: UnsafeMutableBufferPointer<UInt32>,
             upMiddle: UnsafeMutableBufferPointer<UInt32>, downMiddle: UnsafeMutableBufferPointer<UInt32>, begin: Int, count: Int) {
            self.begin = begin
            self.up = Array(up[begin..<(begin + count)])
            self.down = Array(down[begin..<(begin + count)])
            self.upMiddle = Array(upMiddle[begin..<(begin + count)])
            self.downMiddle = Array(downMiddle[begin..<(begin + count)])
        }
    }

    /// How customization splits over two threads: node ranges per thread (whole elimination
    /// subtrees below the top separator), and where the separator's nodes and arcs begin.
    struct ParallelPlan: Sendable {
        var threads: [[Range<Int>]]
        var separatorStart: Int
        var sharedArcBegin: Int
    }

    /// Finds the top separator (the chain from the root down to the first node with two or more
    /// children) and balances the subtrees below it over two threads; nil for small hierarchies.
    static func makePlan(_ s: CCHStructure, minimumNodes: Int) -> ParallelPlan? {
        let n = s.nodeCount
        guard n > minimumNodes, ProcessInfo.processInfo.activeProcessorCount >= 2 else { return nil }
        var children = [Int32](repeating: 0, count: n)
        var roots: [Int] = []
        for v in 0..<n {
            if let p = s.parent(v) { children[p] += 1 } else { roots.append(v) }
        }
        // The branching node: the forest's roots themselves if there are several, else walk down.
        var branch = -1
        var tops: [Int] = []
        if roots.count >= 2 {
            tops = roots
            branch = n
        } else if let root = roots.first {
            var childOf = [Int](repeating: -1, count: n)
            for v in 0..<n { if let p = s.parent(v), children[p] == 1 { childOf[p] = v } }
            var v = root
            while children[v] == 1 { v = childOf[v] }
            branch = v
            for c in 0..<n where s.parent(c) == v { tops.append(c) }
        }
        guard tops.count >= 2 else { return nil }
        // Subtree of each top node: ancestors reach it before the branch.
        var group = [Int32](repeating: -1, count: n)
        for (i, t) in tops.enumerated() { group[t] = Int32(i) }
        for v in stride(from: n - 1, through: 0, by: -1) where group[v] < 0 {
            if let p = s.parent(v), p < branch || branch == n, group[p] >= 0 { group[v] = group[p] }
        }
        // Descendants have lower ranks than ancestors, so a second pass downwards settles the rest.
        for v in stride(from: n - 1, through: 0, by: -1) where group[v] < 0 {
            if let p = s.parent(v), group[p] >= 0, p != branch { group[v] = group[p] }
        }
        var sizes = [Int](repeating: 0, count: tops.count)
        for v in 0..<n where group[v] >= 0 { sizes[Int(group[v])] += 1 }
        var load = [0, 0]
        var threadOf = [Int](repeating: 0, count: tops.count)
        for g in sizes.indices.sorted(by: { sizes[$0] > sizes[$1] }) {
            let t = load[0] <= load[1] ? 0 : 1
            threadOf[g] = t
            load[t] += sizes[g]
        }
        let separatorStart = branch == n ? n : branch
        // Every node below the separator must belong to a group, or the plan is not safe.
        var threads: [[Range<Int>]] = [[], []]
        var runStart = 0, runThread = -1
        for v in 0..<separatorStart {
            guard group[v] >= 0 else { return nil }
            let t = threadOf[Int(group[v])]
            if t != runThread {
                if runThread >= 0 { threads[runThread].append(runStart..<v) }
                runStart = v
                runThread = t
            }
        }
        if runThread >= 0 { threads[runThread].append(runStart..<separatorStart) }
        return ParallelPlan(threads: threads, separatorStart: separatorStart,
                            sharedArcBegin: separatorStart < n ? Int(s.upFirstOut[separatorStart]) : s.arcCount)
    }

    /// The lower-triangle relaxation for nodes in `nodes`; with `shared`, updates to arcs at or
    /// beyond `shared.begin` go to the thread's private copy.
    static func relaxTriangles(nodes: Range<Int>, structure s: CCHStructure, up: UnsafeMutableBufferPointer<UInt32>,
                               down: UnsafeMutableBufferPointer<UInt32>, upMiddle: UnsafeMutableBufferPointer<UInt32>,
                               downMiddle: UnsafeMutableBufferPointer<UInt32>, shared: SharedArcs?) {
        let firstOut = s.upFirstOut, head = s.upHead
        let sharedBegin = shared?.begin ?? Int.max
        for v in nodes {
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
                    let viaUp = sum(downVX, up[j])
                    let viaDown = sum(down[j], upVX)
                    if k >= sharedBegin, let shared {
                        let local = k - sharedBegin
                        if viaUp < shared.up[local] { shared.up[local] = viaUp; shared.upMiddle[local] = UInt32(v) }
                        if viaDown < shared.down[local] { shared.down[local] = viaDown; shared.downMiddle[local] = UInt32(v) }
                    } else {
                        if viaUp < up[k] { up[k] = viaUp; upMiddle[k] = UInt32(v) }
                        if viaDown < down[k] { down[k] = viaDown; downMiddle[k] = UInt32(v) }
                    }
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
