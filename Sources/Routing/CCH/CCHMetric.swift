public import RoadNetwork
import Dispatch
import Foundation
import Parallelism

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
    static let infinity = UInt32.max

    private let parallelAbove: Int
    /// How customization splits over two threads, worked out on the first customization.
    private lazy var parallelPlan: ParallelPlan? = Self.makePlan(structure, minimumNodes: parallelAbove)

    /// - Parameter parallelAbove: customize on two threads when the hierarchy has more nodes than
    ///   this (small ones are faster alone); tests pass 0 to exercise the parallel path.
    public init(structure: CCHStructure, turnWeight: [UInt32], parallelAbove: Int = 20_000) {
        self.structure = structure
        self.parallelAbove = parallelAbove
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

    deinit {
        if ownsWeights { up.deallocate(); down.deallocate() }
    }

    /// Whether this metric reads the weights stored at import (nothing was customized).
    public var usesStoredWeights: Bool { !ownsWeights }

    /// Recomputes every weight from new turn weights.
    /// - Complexity: O(number of lower triangles of the chordal graph).
    public func customize(turnWeight: [UInt32]) {
        if !ownsWeights {
            let m = max(1, structure.arcCount)
            up = .allocate(capacity: m)
            down = .allocate(capacity: m)
            ownsWeights = true
        }
        let s = structure
        up.update(repeating: Self.infinity)
        down.update(repeating: Self.infinity)
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
            Self.relaxTriangles(nodes: 0..<n, structure: s, up: up, down: down, shared: nil)
            return
        }
        // Below the top separator, two groups of independent subtrees run at once; each keeps its
        // own copy of the separator's arcs (the only ones both may improve) and the copies are merged.
        let sharedBegin = plan.sharedArcBegin, sharedCount = s.arcCount - plan.sharedArcBegin
        let copies = (0..<2).map { _ in SharedArcs(up: up, down: down, begin: sharedBegin, count: sharedCount) }
        let structure = s
        nonisolated(unsafe) let (u, d) = (up, down)
        DispatchQueue.concurrentPerform(iterations: 2) { t in
            for range in plan.threads[t] {
                Self.relaxTriangles(nodes: range, structure: structure, up: u, down: d, shared: copies[t])
            }
        }
        for c in copies {
            for i in 0..<sharedCount {
                let k = sharedBegin + i
                up[k] = min(up[k], c.up[i])
                down[k] = min(down[k], c.down[i])
            }
        }
        Self.relaxTriangles(nodes: plan.separatorStart..<n, structure: s, up: up, down: down, shared: nil)
    }

    /// A thread's private copy of the separator arcs during parallel customization.
    final class SharedArcs: @unchecked Sendable {
        let begin: Int
        let up: UnsafeMutableBufferPointer<UInt32>, down: UnsafeMutableBufferPointer<UInt32>

        init(up: UnsafeMutableBufferPointer<UInt32>, down: UnsafeMutableBufferPointer<UInt32>, begin: Int, count: Int) {
            self.begin = begin
            self.up = .allocate(capacity: max(1, count))
            self.down = .allocate(capacity: max(1, count))
            for i in 0..<count { self.up[i] = up[begin + i]; self.down[i] = down[begin + i] }
        }

        deinit { up.deallocate(); down.deallocate() }
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
        guard n > minimumNodes, Parallelism.threads >= 2 else { return nil }
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
    static func relaxTriangles(nodes: Range<Int>, structure s: CCHStructure, up upAll: UnsafeMutableBufferPointer<UInt32>,
                               down downAll: UnsafeMutableBufferPointer<UInt32>, shared: SharedArcs?) {
        let firstOut = s.upFirstOut, head = s.upHead
        let sharedBegin = shared?.begin ?? Int.max
        for v in nodes {
            let begin = Int(firstOut[v]), end = Int(firstOut[v + 1])
            guard end - begin >= 2 else { continue }
            for i in begin..<(end - 1) {
                let x = Int(head[i])
                let downVX = downAll[i], upVX = upAll[i]
                // x's arcs are all private or all shared (the separator's arcs are those of its
                // nodes): pick the arrays once per x.
                var k = Int(firstOut[x])
                let (up, down, offset): (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt32>, Int)
                if k >= sharedBegin, let shared { (up, down, offset) = (shared.up, shared.down, sharedBegin) } else { (up, down, offset) = (upAll, downAll, 0) }
                // The heads after i are a sorted subset of x's upward neighbours (chordality):
                // find each with one forward walk over x's sorted list.
                for j in (i + 1)..<end {
                    let y = head[j]
                    while head[k] < y { k += 1 }
                    assert(head[k] == y, "missing chordal arc")
                    let local = k - offset
                    up[local] = min(up[local], sum(downVX, upAll[j]))
                    down[local] = min(down[local], sum(downAll[j], upVX))
                }
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
        let downward = structure.downward
        let lowerArcs = downward.arcs(into: lower), higherArcs = downward.arcs(into: higher)
        let tails = downward.tail
        var i = lowerArcs.lowerBound, j = higherArcs.lowerBound
        while i < lowerArcs.upperBound && j < higherArcs.upperBound {
            let a = tails[i], b = tails[j]
            if a < b { i += 1; continue }
            if b < a {
                // The higher end's list is often far longer: gallop to the first tail ≥ a.
                var step = 1, hi = j + 1
                while hi < higherArcs.upperBound && tails[hi] < a { j = hi; step <<= 1; hi = j + step }
                hi = min(hi, higherArcs.upperBound)
                var lo = j + 1
                while lo < hi { let mid = (lo + hi) >> 1; if tails[mid] < a { lo = mid + 1 } else { hi = mid } }
                j = lo
                continue
            }
            // Both arcs exist (a is a lower neighbour of both ends), so the searches find them.
            guard let toLower = structure.arc(from: Int(a), to: lower), let toHigher = structure.arc(from: Int(a), to: higher) else {
                i += 1; j += 1
                continue
            }
            // upward: lower → a (down weight of a–lower) → higher (up weight of a–higher);
            // downward: higher → a (down weight of a–higher) → lower (up weight of a–lower).
            let via = upward ? Self.sum(down[toLower], up[toHigher]) : Self.sum(down[toHigher], up[toLower])
            if via == target { return (Int(a), toLower, toHigher) }
            i += 1; j += 1
        }
        return nil
    }
}
