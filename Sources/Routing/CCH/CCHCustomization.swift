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
        // Per node, the next of its upward arcs a higher node will ask for (see `relax`).
        nonisolated(unsafe) let cursor = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, n))
        defer { cursor.deallocate() }
        for v in 0..<n { cursor[v] = s.upFirstOut[v] }
        guard let plan = parallelPlan, plan.threads.count == 2 else {
            Workspace(nodeCount: n).relax(nodes: 0..<n, structure: s, up: up, down: down, cursor: cursor)
            return
        }
        let structure = s
        nonisolated(unsafe) let (u, d) = (up, down)
        DispatchQueue.concurrentPerform(iterations: 2) { t in
            let workspace = Workspace(nodeCount: n)
            for range in plan.threads[t] { workspace.relax(nodes: range, structure: structure, up: u, down: d, cursor: cursor) }
        }
        Workspace(nodeCount: n).relax(nodes: plan.separatorStart..<n, structure: s, up: up, down: down, cursor: cursor)
    }

    /// Per-thread scratch: the weights of the current node's upward arcs, by head.
    final class Workspace {
        let up: UnsafeMutablePointer<UInt32>, down: UnsafeMutablePointer<UInt32>

        init(nodeCount: Int) {
            up = .allocate(capacity: max(1, nodeCount))
            down = .allocate(capacity: max(1, nodeCount))
        }

        deinit { up.deallocate(); down.deallocate() }

        /// Nodes go in increasing rank, so each lower neighbour u meets its upward arcs' heads in
        /// the order of its sorted list: `cursor[u]` is u's arc to the current node, found without
        /// a search. A node's upward neighbours are its ancestors in the elimination tree, so u's
        /// cursor moves only on u's own thread and then in the separator, never on two at once.
        func relax(nodes: Range<Int>, structure s: CCHStructure, up upWeight: UnsafeMutableBufferPointer<UInt32>,
                   down downWeight: UnsafeMutableBufferPointer<UInt32>, cursor: UnsafeMutablePointer<UInt32>) {
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
                    let u = Int(into.tail[i]), uv = Int(cursor[u])
                    cursor[u] &+= 1
                    assert(Int(head[uv]) == v, "customization must visit nodes in increasing rank")
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
