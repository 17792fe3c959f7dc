public import RoadNetwork
import Dispatch
import Foundation

/// A CCH customized for one metric: the upward and downward weight of every CCH arc.
///
/// Customization is the basic lower-triangle relaxation in rank order: for each node v and each
/// pair of its upward neighbours x < y, the arc x–y may be improved by going through v.
/// Re-running it with new turn weights is a full live-traffic update.
///
/// No middle node is stored per shortcut (that doubled the memory of every metric and cost a
/// store per improved triangle): unpacking finds a shortcut's middle again among its lower
/// triangles, as RoutingKit does — the lower node whose two arcs add up to the shortcut's weight.
public final class CCHMetric: @unchecked Sendable {
    public let structure: CCHStructure
    @usableFromInline let up: UnsafeMutableBufferPointer<UInt32>
    @usableFromInline let down: UnsafeMutableBufferPointer<UInt32>
    /// No path: 2³¹ − 1, so that two weights always add without overflow (customization adds
    /// without checks; every stored weight is at most this).
    static let infinity: UInt32 = 0x7FFF_FFFF

    let parallelPlan: ParallelPlan?

    /// - Parameter parallelAbove: customize on two threads when the hierarchy has more nodes than
    ///   this (small ones are faster alone); tests pass 0 to exercise the parallel path.
    public init(structure: CCHStructure, turnWeight: [UInt32], parallelAbove: Int = 20_000) {
        self.structure = structure
        parallelPlan = Self.makePlan(structure, minimumNodes: parallelAbove)
        let m = max(1, structure.arcCount)
        up = .allocate(capacity: m)
        down = .allocate(capacity: m)
        customize(turnWeight: turnWeight)
    }

    /// A copy of another metric's weights (to customize partially without disturbing it).
    public init(copying other: CCHMetric) {
        structure = other.structure
        parallelPlan = other.parallelPlan
        let m = max(1, structure.arcCount)
        up = .allocate(capacity: m)
        down = .allocate(capacity: m)
        up.baseAddress!.update(from: other.up.baseAddress!, count: m)
        down.baseAddress!.update(from: other.down.baseAddress!, count: m)
    }

    deinit {
        up.deallocate(); down.deallocate()
    }

    /// Saturating addition (infinity stays infinity), branch-free.
    @inline(__always)
    static func sum(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let s = a &+ b
        return s < a ? infinity : s
    }

    @inlinable public func upWeight(_ k: Int) -> UInt32 { up[k] }
    @inlinable public func downWeight(_ k: Int) -> UInt32 { down[k] }

    /// Appends the turn-graph nodes (ranks) of the path an arc stands for, after its start node.
    /// `upward`: travel from the arc's lower end to its higher end.
    func unpack(arc k: Int, lower: Int, higher: Int, upward: Bool, into path: inout [UInt32]) {
        var stack: [(k: Int, lower: Int, higher: Int, upward: Bool)] = [(k, lower, higher, upward)]
        while let (k, lower, higher, upward) = stack.popLast() {
            guard let (v, toLower, toHigher) = middle(arc: k, lower: lower, higher: higher, upward: upward) else {
                path.append(UInt32(upward ? higher : lower))
                continue
            }
            // upward: lower → v (down arc of v–lower), then v → higher (up arc of v–higher).
            // downward: higher → v (down arc of v–higher), then v → lower (up arc of v–lower).
            // Pushed in reverse: the first half is unpacked first.
            if upward {
                stack.append((toHigher, v, higher, true))
                stack.append((toLower, v, lower, false))
            } else {
                stack.append((toLower, v, lower, true))
                stack.append((toHigher, v, higher, false))
            }
        }
    }

    /// The node a shortcut goes through: a common lower neighbour v of both ends whose two arcs
    /// add up to the shortcut's weight, with the arcs v–lower and v–higher; nil for an arc that
    /// is a turn of the graph itself. Found by merging the two ends' sorted lower-neighbour lists
    /// (galloping through the higher end's longer list; faster than a binary search per
    /// neighbour in their own upward lists, measured).
    func middle(arc k: Int, lower: Int, higher: Int, upward: Bool) -> (Int, Int, Int)? {
        let target = upward ? up[k] : down[k]
        guard target != Self.infinity else { return nil }
        var found: (Int, Int, Int)?
        structure.downward.forEachCommonTail(lower, higher) { v, toLower, toHigher in
            // upward: lower → v (down weight of v–lower) → higher (up weight of v–higher);
            // downward: higher → v (down weight of v–higher) → lower (up weight of v–lower).
            let via = upward ? Self.sum(down[toLower], up[toHigher]) : Self.sum(down[toHigher], up[toLower])
            if via == target { found = (v, toLower, toHigher); return false }
            return true
        }
        return found
    }
}
