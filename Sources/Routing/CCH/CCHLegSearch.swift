public import RoadNetwork

/// Reusable memory for CCH queries (one per thread).
public final class CCHScratch: @unchecked Sendable {
    let n: Int
    var forward: UnsafeMutablePointer<UInt32>
    var backward: UnsafeMutablePointer<UInt32>
    /// Forward: the CCH arc and lower node a node was reached by. Backward: the same, or, at a
    /// start node, `noNode` with the entering turn in `backwardTurn`.
    var forwardArc: UnsafeMutablePointer<UInt32>, forwardFrom: UnsafeMutablePointer<UInt32>
    var backwardArc: UnsafeMutablePointer<UInt32>, backwardFrom: UnsafeMutablePointer<UInt32>
    var backwardTurn: UnsafeMutablePointer<UInt32>
    var forwardStamp: UnsafeMutablePointer<UInt32>, backwardStamp: UnsafeMutablePointer<UInt32>
    /// Generation in which a node was put on the current chain list (dedupes chain walks).
    var listed: UnsafeMutablePointer<UInt32>
    var listGeneration: UInt32 = 0
    var forwardGeneration: UInt32 = 0, backwardGeneration: UInt32 = 0
    var forwardNodes: [Int32] = [], backwardNodes: [Int32] = []
    static let noNode = UInt32.max

    public init(nodeCount: Int) {
        n = max(1, nodeCount)
        forward = .allocate(capacity: n); backward = .allocate(capacity: n)
        forwardArc = .allocate(capacity: n); forwardFrom = .allocate(capacity: n)
        backwardArc = .allocate(capacity: n); backwardFrom = .allocate(capacity: n)
        backwardTurn = .allocate(capacity: n)
        forwardStamp = .allocate(capacity: n); backwardStamp = .allocate(capacity: n)
        forwardStamp.initialize(repeating: 0, count: n)
        backwardStamp.initialize(repeating: 0, count: n)
        listed = .allocate(capacity: n)
        listed.initialize(repeating: 0, count: n)
        forwardNodes.reserveCapacity(4096)
        backwardNodes.reserveCapacity(4096)
    }

    deinit {
        forward.deallocate(); backward.deallocate(); forwardArc.deallocate(); forwardFrom.deallocate()
        backwardArc.deallocate(); backwardFrom.deallocate(); backwardTurn.deallocate()
        forwardStamp.deallocate(); backwardStamp.deallocate(); listed.deallocate()
    }

    func nextList() -> UInt32 {
        listGeneration &+= 1
        if listGeneration == 0 { listed.update(repeating: 0, count: n); listGeneration = 1 }
        return listGeneration
    }

    func nextForward() {
        forwardGeneration &+= 1
        if forwardGeneration == 0 { forwardStamp.update(repeating: 0, count: n); forwardGeneration = 1 }
        forwardNodes.removeAll(keepingCapacity: true)
    }

    func nextBackward() {
        backwardGeneration &+= 1
        if backwardGeneration == 0 { backwardStamp.update(repeating: 0, count: n); backwardGeneration = 1 }
        backwardNodes.removeAll(keepingCapacity: true)
    }
}

/// Shortest paths with the customized CCH: an upward search from the sources and one from the
/// targets, each walking only the elimination-tree ancestors of its start nodes (no priority
/// queue), meeting at the best common node; shortcuts are unpacked through their middle nodes.
///
/// Targets are approached like the Dijkstra search does: the backward search starts at the arcs
/// that turn *into* the target arc, so a route that must loop back to the arc it started on
/// comes out right.
public struct CCHLegSearch: LegSearch {
    public let graph: RoadGraph
    public let metric: Metric
    public let cch: CCHMetric
    let scratch: CCHScratch
    /// When false, only costs are computed (paths come back empty): for distance tables and
    /// benchmarks of the search itself.
    public var unpacksPaths = true

    public init(graph: RoadGraph, metric: Metric, cch: CCHMetric, scratch: CCHScratch? = nil) {
        self.graph = graph
        self.metric = metric
        self.cch = cch
        self.scratch = scratch ?? CCHScratch(nodeCount: cch.structure.nodeCount)
    }

    public mutating func solve(_ problem: LegProblem) -> LegSolution {
        var best = problem.sameArcPaths(metric, originals: graph.arcOriginal)
        let s = scratch, st = cch.structure
        let firstOut = st.upFirstOut, head = st.upHead
        let up = cch.up, down = cch.down

        // Forward: sources with their costs, then every ancestor in rank order.
        s.nextForward()
        var sourceOfNode: [Int: Int] = [:]
        for (i, source) in problem.sources.enumerated() {
            let v = Int(st.rank[source.position.arc.index])
            let key = Metric.add(source.cost, metric.remaining(source.position))
            if s.forwardStamp[v] != s.forwardGeneration || key < s.forward[v] {
                s.forwardStamp[v] = s.forwardGeneration
                s.forward[v] = key
                s.forwardFrom[v] = CCHScratch.noNode
                sourceOfNode[v] = i
            }
        }
        let starts = sourceOfNode.keys.sorted()
        collectAncestors(starts, into: &s.forwardNodes, stamp: s.forwardStamp, generation: s.forwardGeneration, values: s.forward)
        for v32 in s.forwardNodes {
            let v = Int(v32)
            let d = s.forward[v]
            if d == CCHMetric.infinity { continue }
            for k in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                let w = up[k]
                if w == CCHMetric.infinity { continue }
                let y = Int(head[k])
                let nd = CCHMetric.sum(d, w)
                if nd < s.forward[y] { s.forward[y] = nd; s.forwardArc[y] = UInt32(k); s.forwardFrom[y] = UInt32(v) }
            }
        }

        // Backward, once per target.
        for (j, target) in problem.targets.enumerated() {
            s.nextBackward()
            let excess = metric.remaining(target)
            let original = graph.arcOriginal[target.arc.index]
            var starts: [Int] = []
            // The target arc and its restriction copies: every turn into them starts the backward search.
            for copy in copies(of: original) {
                for i in graph.turns(into: copy) {
                    let t = Int(graph.turnReverseTurn[i])
                    let w = metric.turnWeight[t]
                    if w == Metric.infinite { continue }
                    let p = Int(st.rank[graph.turnSource[t].index])
                    let key = w - excess
                    if s.backwardStamp[p] != s.backwardGeneration || key < s.backward[p] {
                        if s.backwardStamp[p] != s.backwardGeneration { starts.append(p) }
                        s.backwardStamp[p] = s.backwardGeneration
                        s.backward[p] = key
                        s.backwardFrom[p] = CCHScratch.noNode
                        s.backwardTurn[p] = UInt32(t)
                    }
                }
            }
            starts.sort()
            collectAncestors(starts, into: &s.backwardNodes, stamp: s.backwardStamp, generation: s.backwardGeneration, values: s.backward)
            var bestCost = best[j]?.cost ?? CCHMetric.infinity
            var meeting = -1
            for v32 in s.backwardNodes {
                let v = Int(v32)
                let d = s.backward[v]
                if d == CCHMetric.infinity { continue }
                if s.forwardStamp[v] == s.forwardGeneration {
                    let total = CCHMetric.sum(s.forward[v], d)
                    if total < bestCost { bestCost = total; meeting = v }
                }
                for k in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                    let w = down[k]
                    if w == CCHMetric.infinity { continue }
                    let y = Int(head[k])
                    let nd = CCHMetric.sum(d, w)
                    if nd < s.backward[y] { s.backward[y] = nd; s.backwardArc[y] = UInt32(k); s.backwardFrom[y] = UInt32(v) }
                }
            }
            if meeting >= 0 && !unpacksPaths {
                best[j] = .init(cost: bestCost, source: 0, arcs: [])
            } else if meeting >= 0 {
                let (arcs, start) = unpackPath(meeting: meeting)
                best[j] = .init(cost: bestCost, source: sourceOfNode[start] ?? 0, arcs: arcs)
            }
        }
        return LegSolution(paths: best)
    }

    /// Arcs standing for `arc`: itself and its restriction copies.
    func copies(of arc: ArcID) -> [ArcID] {
        if graph.restrictionCopies.isEmpty { return [arc] }
        guard let extra = graph.restrictionCopies[arc] else { return [arc] }
        return [arc] + extra
    }

    /// All elimination-tree ancestors of `starts` (sorted ranks), in increasing rank, stamping
    /// the ones not seen yet with infinity.
    private func collectAncestors(_ starts: [Int], into list: inout [Int32], stamp: UnsafeMutablePointer<UInt32>,
                                  generation: UInt32, values: UnsafeMutablePointer<UInt32>) {
        let st = cch.structure
        // Walk each chain until it meets a node already listed; merge by sorting at the end
        // (chains are short: the tree depth).
        let mark = scratch.nextList()
        let listed = scratch.listed
        for start in starts {
            var v = start
            while true {
                if listed[v] == mark { break }
                listed[v] = mark
                list.append(Int32(v))
                if stamp[v] != generation { stamp[v] = generation; values[v] = CCHMetric.infinity }
                guard let p = st.parent(v) else { break }
                v = p
            }
        }
        if starts.count > 1 { list.sort() }
    }

    /// The turn-graph arcs from a source through `meeting` to the target arc.
    private func unpackPath(meeting: Int) -> ([ArcID], Int) {
        let s = scratch, st = cch.structure
        // Up from the source to the meeting node, collected top-down then reversed.
        var upChain: [(arc: Int, from: Int, to: Int)] = []
        var v = meeting
        while s.forwardFrom[v] != CCHScratch.noNode {
            let from = Int(s.forwardFrom[v])
            upChain.append((Int(s.forwardArc[v]), from, v))
            v = from
        }
        let source = v
        var ranks: [UInt32] = [UInt32(source)]
        for step in upChain.reversed() { cch.unpack(arc: step.arc, lower: step.from, higher: step.to, upward: true, into: &ranks) }
        // Down from the meeting node to a backward start node, then the turn into the target.
        v = meeting
        while s.backwardFrom[v] != CCHScratch.noNode {
            let lower = Int(s.backwardFrom[v])
            cch.unpack(arc: Int(s.backwardArc[v]), lower: lower, higher: v, upward: false, into: &ranks)
            v = lower
        }
        let finalTurn = Int(s.backwardTurn[v])
        var arcs = ranks.map { st.order[Int($0)] }
        arcs.append(graph.turnTarget[finalTurn])
        return (arcs, source)
    }
}
