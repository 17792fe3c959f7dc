import Dispatch
public import RoadNetwork
import Foundation
import Parallelism

/// Customization: the weights of every CCH arc from the turn weights, by relaxing lower triangles
/// in rank order (Dibbelt, Strasser, Wagner).
///
/// Each node v is processed once: its upward arcs' weights go into a workspace indexed by their
/// heads, every lower neighbour u then offers v → u → y (and back) for each of u's upward arcs
/// above v, and the workspace is written back. v writes only its own arcs and reads only arcs of
/// lower nodes — its descendants in the elimination tree — so whole subtrees run on separate
/// threads without sharing anything (RoutingKit's and rust_road_router's scheme); each triangle
/// is visited exactly once, with no search for the arc it improves.
extension CCHMetric {
    /// Recomputes every weight from new turn weights.
    /// - Complexity: O(number of lower triangles of the chordal graph).
    public func customize(turnWeight: [UInt32]) {
        ownWeights(keeping: false)
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
        guard let plan = parallelPlan, plan.threads.count == 2 else {
            Workspace(nodeCount: n).relax(nodes: 0..<n, structure: s, up: up, down: down)
            return
        }
        let structure = s
        nonisolated(unsafe) let (u, d) = (up, down)
        DispatchQueue.concurrentPerform(iterations: 2) { t in
            let workspace = Workspace(nodeCount: n)
            for range in plan.threads[t] { workspace.relax(nodes: range, structure: structure, up: u, down: d) }
        }
        Workspace(nodeCount: n).relax(nodes: plan.separatorStart..<n, structure: s, up: up, down: down)
    }

    /// Per-thread scratch: the weights of the current node's upward arcs, by head.
    final class Workspace {
        let up: UnsafeMutablePointer<UInt32>, down: UnsafeMutablePointer<UInt32>

        init(nodeCount: Int) {
            up = .allocate(capacity: max(1, nodeCount))
            down = .allocate(capacity: max(1, nodeCount))
        }

        deinit { up.deallocate(); down.deallocate() }

        func relax(nodes: Range<Int>, structure s: CCHStructure, up upWeight: UnsafeMutableBufferPointer<UInt32>,
                   down downWeight: UnsafeMutableBufferPointer<UInt32>) {
            let firstOut = s.upFirstOut, head = s.upHead
            let into = s.downward
            let workUp = up, workDown = down
            for v in nodes {
                let begin = Int(firstOut[v]), end = Int(firstOut[v + 1])
                guard begin < end else { continue }
                for k in begin..<end {
                    let y = Int(head[k])
                    workUp[y] = upWeight[k]
                    workDown[y] = downWeight[k]
                }
                for i in into.arcs(into: v) {
                    // The arc u–v in u's sorted upward list (a binary search, against the linear
                    // walk over u's arcs above v that follows).
                    let u = Int(into.tail[i]), uv = s.arc(from: u, to: v)!
                    let vToU = downWeight[uv], uToV = upWeight[uv]
                    // u's upward arcs above v follow its arc to v (the lists are sorted).
                    let uEnd = Int(firstOut[u + 1])
                    var k = uv + 1
                    // Weights are at most 2³¹ − 1, so the sums cannot overflow, and a sum at or
                    // above infinity never wins against a stored weight (branch-free minimums).
                    while k < uEnd {
                        let y = Int(head[k])
                        workUp[y] = min(workUp[y], vToU &+ upWeight[k])
                        workDown[y] = min(workDown[y], downWeight[k] &+ uToV)
                        k += 1
                    }
                }
                for k in begin..<end {
                    let y = Int(head[k])
                    upWeight[k] = workUp[y]
                    downWeight[k] = workDown[y]
                }
            }
        }
    }

    /// How customization splits over two threads: node ranges per thread (whole elimination
    /// subtrees below the top separator), and where the separator's nodes begin.
    struct ParallelPlan: Sendable {
        var threads: [[Range<Int>]]
        var separatorStart: Int
    }

    /// Finds the top separator (the chain from the root down to the first node with two or more
    /// children) and balances the subtrees below it over two threads by their work (a node's
    /// triangles grow with the square of its upward degree); nil for small hierarchies.
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
        var work = [Double](repeating: 0, count: tops.count)
        for v in 0..<n where group[v] >= 0 {
            let degree = Double(s.upFirstOut[v + 1] - s.upFirstOut[v])
            work[Int(group[v])] += 1 + degree * degree / 2
        }
        var load = [0.0, 0.0]
        var threadOf = [Int](repeating: 0, count: tops.count)
        for g in work.indices.sorted(by: { work[$0] > work[$1] }) {
            let t = load[0] <= load[1] ? 0 : 1
            threadOf[g] = t
            load[t] += work[g]
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
        return ParallelPlan(threads: threads, separatorStart: separatorStart)
    }
}

extension CCHMetric {
    /// Brings the weights up to date after the turns in `changed` took new weights (`turnWeight`
    /// holds every turn's weight, old and new): partial customization. Each CCH arc a change can
    /// reach is recomputed from its input turn and its lower triangles, in increasing rank of its
    /// lower end (so those triangles are final first); an arc whose weights did not move stops
    /// the change there. Returns how many arcs were recomputed.
    ///
    /// Writes in place: the caller makes sure no query reads this metric meanwhile.
    /// - Complexity: O(affected arcs × their lower triangles), against all triangles for a full
    ///   customization; large updates are better served by `customize(turnWeight:)`.
    @discardableResult
    public func customize(changed: some Sequence<Int>, turnWeight: [UInt32], graph: RoadGraph) -> Int {
        ownWeights(keeping: true)
        let s = structure
        var queue = ArcQueue(arcCount: s.arcCount)
        for t in changed {
            let code = s.turnArc[t]
            guard code != UInt32.max else { continue }
            let a = Int(s.rank[graph.turnSource[t].index]), b = Int(s.rank[graph.turnTarget[t].index])
            queue.push(arc: Int(code >> 1), lower: min(a, b))
        }
        let firstOut = s.upFirstOut, head = s.upHead
        var recomputed = 0
        while let (k, x) = queue.pop() {
            recomputed += 1
            let y = Int(head[k])
            // The input: the turns between the two turn-graph nodes, either way.
            let from = s.order[x], to = s.order[y]
            var newUp = Self.infinity, newDown = Self.infinity
            for t in graph.turns(from: from) where graph.turnTarget[t] == to { newUp = min(newUp, turnWeight[t]) }
            for t in graph.turns(from: to) where graph.turnTarget[t] == from { newDown = min(newDown, turnWeight[t]) }
            s.forEachCommonTail(x, y) { _, ux, uy in
                newUp = min(newUp, down[ux] &+ up[uy])
                newDown = min(newDown, down[uy] &+ up[ux])
                return true
            }
            guard newUp != up[k] || newDown != down[k] else { continue }
            up[k] = newUp
            down[k] = newDown
            // Arc x–y is a lower arc of the triangles {x, y, z} for x's other upward neighbours z.
            for k2 in Int(firstOut[x])..<Int(firstOut[x + 1]) where k2 != k {
                let z = Int(head[k2])
                let (lo, hi) = y < z ? (y, z) : (z, y)
                if let arc = s.arc(from: lo, to: hi) { queue.push(arc: arc, lower: lo) }
            }
        }
        return recomputed
    }

    /// CCH arcs waiting to be recomputed, smallest lower end first, each at most once.
    struct ArcQueue {
        var heap: [UInt64] = []
        var queued: [UInt64]

        init(arcCount: Int) { queued = [UInt64](repeating: 0, count: (arcCount + 63) / 64) }

        mutating func push(arc: Int, lower: Int) {
            let bit: UInt64 = 1 << UInt64(arc & 63)
            guard queued[arc >> 6] & bit == 0 else { return }
            queued[arc >> 6] |= bit
            var i = heap.count
            let word = UInt64(lower) << 32 | UInt64(arc)
            heap.append(word)
            while i > 0 {
                let p = (i - 1) >> 1
                if heap[p] <= word { break }
                heap[i] = heap[p]
                i = p
            }
            heap[i] = word
        }

        mutating func pop() -> (arc: Int, lower: Int)? {
            guard let top = heap.first else { return nil }
            let last = heap.removeLast()
            if !heap.isEmpty {
                var i = 0
                let n = heap.count
                while true {
                    let l = 2 * i + 1
                    if l >= n { break }
                    var c = l
                    if l + 1 < n && heap[l + 1] < heap[l] { c = l + 1 }
                    if heap[c] >= last { break }
                    heap[i] = heap[c]
                    i = c
                }
                heap[i] = last
            }
            let arc = Int(UInt32(truncatingIfNeeded: top))
            queued[arc >> 6] &= ~(1 << UInt64(arc & 63))
            return (arc, Int(top >> 32))
        }
    }
}
