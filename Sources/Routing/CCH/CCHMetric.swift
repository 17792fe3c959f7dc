public import RoadNetwork
import Dispatch
import Foundation
import Parallelism
import Synchronization

/// A CCH customized for one metric: the upward and downward weight of every CCH arc.
///
/// Customization is the basic lower-triangle relaxation in rank order: for each node v and each
/// pair of its upward neighbours x < y, the arc x–y may be improved by going through v.
/// Re-running it with new turn weights is a full live-traffic update.
///
/// No middle node is stored per shortcut (that doubled the memory of every metric and cost a
/// store per improved triangle): unpacking finds a shortcut's middle again among its lower
/// triangles, as RoutingKit does — the lower node whose two arcs add up to the shortcut's weight.
///
/// The free-flow fastest weights are customized at import and stored with the hierarchy: a metric
/// whose turn weights are exactly those (checked by checksum) uses the stored, memory-mapped
/// weights and customizes nothing, so a server answers at once and holds only the pages its
/// queries touch.
public final class CCHMetric: @unchecked Sendable {
    public let structure: CCHStructure
    @usableFromInline private(set) var up: UnsafeMutableBufferPointer<UInt32>
    @usableFromInline private(set) var down: UnsafeMutableBufferPointer<UInt32>
    /// False while `up` and `down` are the stored (read-only, mapped) weights.
    private var ownsWeights: Bool
    /// No path: 2³¹ − 1, so that two weights always add without overflow (customization adds
    /// without checks; every stored weight is at most this).
    static let infinity: UInt32 = 0x7FFF_FFFF

    let plan: PlanCache
    /// How customization splits over two threads, worked out on the first customization (a
    /// metric on stored weights never needs it) and shared with the metric's copies.
    var parallelPlan: ParallelPlan? { plan.plan(for: structure) }

    /// - Parameter parallelAbove: customize on two threads when the hierarchy has more nodes than
    ///   this (small ones are faster alone); tests pass 0 to exercise the parallel path.
    public convenience init(structure: CCHStructure, turnWeight: [UInt32], parallelAbove: Int = 20_000) {
        self.init(structure: structure, plan: PlanCache(minimumNodes: parallelAbove), turnWeight: turnWeight)
    }

    /// A metric of `other`'s hierarchy customized fully for `turnWeight`, with `other`'s plans
    /// (so that neither the parallel plan nor the partial tables are made again).
    public convenience init(like other: CCHMetric, turnWeight: [UInt32]) {
        self.init(structure: other.structure, plan: other.plan, turnWeight: turnWeight)
    }

    private init(structure: CCHStructure, plan: PlanCache, turnWeight: [UInt32]) {
        self.structure = structure
        self.plan = plan
        if let stored = structure.storedWeights, stored.matches(turnWeight) {
            up = UnsafeMutableBufferPointer(mutating: stored.up)
            down = UnsafeMutableBufferPointer(mutating: stored.down)
            ownsWeights = false
        } else {
            let m = max(1, structure.arcCount)
            up = .allocate(capacity: m)
            down = .allocate(capacity: m)
            ownsWeights = true
            customize(turnWeight: turnWeight)
        }
    }

    /// A copy of another metric's weights (to customize partially without disturbing it).
    public init(copying other: CCHMetric) {
        structure = other.structure
        plan = other.plan
        let m = max(1, structure.arcCount)
        up = .allocate(capacity: m)
        down = .allocate(capacity: m)
        ownsWeights = true
        up.baseAddress!.update(from: other.up.baseAddress!, count: m)
        down.baseAddress!.update(from: other.down.baseAddress!, count: m)
    }

    deinit {
        if ownsWeights { up.deallocate(); down.deallocate() }
    }

    /// Whether this metric reads the weights stored at import (nothing was customized).
    public var usesStoredWeights: Bool { !ownsWeights }

    /// Makes the weights this metric's own before they are written (the stored ones are
    /// read-only): `keeping` copies the current weights, else they are left to be overwritten.
    func ownWeights(keeping: Bool) {
        guard !ownsWeights else { return }
        let m = max(1, structure.arcCount)
        let (newUp, newDown) = (UnsafeMutableBufferPointer<UInt32>.allocate(capacity: m), UnsafeMutableBufferPointer<UInt32>.allocate(capacity: m))
        if keeping {
            newUp.baseAddress!.update(from: up.baseAddress!, count: m)
            newDown.baseAddress!.update(from: down.baseAddress!, count: m)
        }
        (up, down, ownsWeights) = (newUp, newDown, true)
    }

    /// The parallel plan, and the tables of partial customization, each made once on first use by any
    /// of the metrics sharing them.
    final class PlanCache: Sendable {
        let minimumNodes: Int
        private let made = Mutex<ParallelPlan??>(nil)
        private let madeTables = Mutex<PartialTables?>(nil)

        func partialTables(for structure: CCHStructure) -> PartialTables {
            madeTables.withLock { cached in
                if let cached { return cached }
                let made = PartialTables(structure)
                cached = made
                return made
            }
        }

        init(minimumNodes: Int) { self.minimumNodes = minimumNodes }

        func plan(for structure: CCHStructure) -> ParallelPlan? {
            made.withLock { cached in
                if let cached { return cached }
                let plan = CCHMetric.makePlan(structure, minimumNodes: minimumNodes)
                cached = .some(plan)
                return plan
            }
        }
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
        structure.forEachCommonTail(lower, higher) { v, toLower, toHigher in
            // upward: lower → v (down weight of v–lower) → higher (up weight of v–higher);
            // downward: higher → v (down weight of v–higher) → lower (up weight of v–lower).
            let via = upward ? Self.sum(down[toLower], up[toHigher]) : Self.sum(down[toHigher], up[toLower])
            if via == target { found = (v, toLower, toHigher); return false }
            return true
        }
        return found
    }
}
