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
        let workspace = Workspace(nodeCount: n)
        for range in plan.sequential { workspace.relax(nodes: range, structure: s, up: up, down: down, cursor: cursor) }
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
    /// subtrees), and the nodes above those subtrees (separators), done on one thread after both.
    struct ParallelPlan: Sendable {
        var threads: [[Range<Int>]]
        var sequential: [Range<Int>]
    }

    /// Balances elimination subtrees over two threads by their work (a node's triangles grow with
    /// the square of its upward degree); nil for small hierarchies. It starts from the forest's
    /// roots and, while one subtree holds more than half the work, replaces it by its children
    /// below its first branching node, the chain down to there joining the separators: a map
    /// with one large component and many small ones (islands, closed pockets) would otherwise
    /// leave nearly all the work on one thread. A separator node's ancestors are separator nodes
    /// and its descendants finish before it, so doing the separators last, in rank order, is exact.
    static func makePlan(_ s: CCHStructure, minimumNodes: Int) -> ParallelPlan? {
        let n = s.nodeCount
        guard n > minimumNodes, Parallelism.threads >= 2 else { return nil }
        // Children lists (parents rank above their children) and each subtree's work.
        var firstChild = [Int32](repeating: 0, count: n + 1)
        var roots: [Int] = []
        for v in 0..<n {
            if let p = s.parent(v) { firstChild[p + 1] += 1 } else { roots.append(v) }
        }
        for v in 0..<n { firstChild[v + 1] += firstChild[v] }
        var fill = firstChild
        var child = [Int32](repeating: 0, count: n)
        var work = [Double](repeating: 0, count: n)
        for v in 0..<n {
            let degree = Double(s.upFirstOut[v + 1] - s.upFirstOut[v])
            work[v] += 1 + degree * degree / 2
            if let p = s.parent(v) {
                child[Int(fill[p])] = Int32(v)
                fill[p] += 1
                work[p] += work[v]
            }
        }
        fill = []
        func children(_ v: Int) -> ArraySlice<Int32> { child[Int(firstChild[v])..<Int(firstChild[v + 1])] }
        var tops = roots
        var separator = [Bool](repeating: false, count: n)
        for _ in 0..<64 {
            let total = tops.reduce(0) { $0 + work[$1] }
            guard let i = tops.indices.max(by: { work[tops[$0]] < work[tops[$1]] }), work[tops[i]] > total / 2 else { break }
            var v = tops[i], chain: [Int] = []
            while children(v).count == 1 { chain.append(v); v = Int(children(v).first!) }
            guard children(v).count >= 2 else { break }
            for c in chain { separator[c] = true }
            separator[v] = true
            tops.remove(at: i)
            tops += children(v).map { Int($0) }
        }
        guard tops.count >= 2 else { return nil }
        // Each top's subtree, then the subtrees over the threads, largest first onto the lighter.
        var group = [Int32](repeating: -1, count: n)
        for (i, t) in tops.enumerated() { group[t] = Int32(i) }
        for v in stride(from: n - 1, through: 0, by: -1) where group[v] < 0 && !separator[v] {
            guard let p = s.parent(v), group[p] >= 0 else { return nil }
            group[v] = group[p]
        }
        var load = [0.0, 0.0]
        var threadOf = [Int](repeating: 0, count: tops.count)
        for g in tops.indices.sorted(by: { work[tops[$0]] > work[tops[$1]] }) {
            let t = load[0] <= load[1] ? 0 : 1
            threadOf[g] = t
            load[t] += work[tops[g]]
        }
        // Runs of consecutive ranks per thread, and of the separators (lane 2).
        var lanes: [[Range<Int>]] = [[], [], []]
        var runStart = 0, runLane = -1
        for v in 0..<n {
            let lane = group[v] >= 0 ? threadOf[Int(group[v])] : 2
            if lane != runLane {
                if runLane >= 0 { lanes[runLane].append(runStart..<v) }
                (runStart, runLane) = (v, lane)
            }
        }
        if runLane >= 0 { lanes[runLane].append(runStart..<n) }
        return ParallelPlan(threads: [lanes[0], lanes[1]], sequential: lanes[2])
    }
}
