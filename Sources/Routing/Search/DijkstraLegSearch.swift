public import RoadNetwork

/// Plain Dijkstra on the turn-expanded graph: the reference every faster search is checked
/// against, and the fallback for metrics nothing has been prepared for.
public struct DijkstraLegSearch: LegSearch {
    public let graph: RoadGraph
    public let metric: Metric
    let scratch: SearchScratch
    /// Ids settled by the last search (for benchmarks and tests).
    public private(set) var settled = 0

    public init(graph: RoadGraph, metric: Metric, scratch: SearchScratch? = nil) {
        self.graph = graph
        self.metric = metric
        self.scratch = scratch ?? SearchScratch(capacity: graph.arcCount)
    }

    public mutating func solve(_ problem: LegProblem) -> LegSolution {
        var best = problem.sameArcPaths(metric, originals: graph.arcOriginal)
        let s = scratch
        s.reset()
        settled = 0
        // Target test per arc: a target's arc or any restriction copy of it (a short linear scan:
        // a waypoint has at most two arcs).
        let targetArcs = problem.targets.map { graph.arcOriginal[$0.arc.index] }
        let targetExcess = problem.targets.map { metric.remaining($0) }
        var lastTurnFrom = [Int](repeating: -1, count: problem.targets.count)
        var lastArc = [ArcID](repeating: .none, count: problem.targets.count)
        var sourceOf: [Int: Int] = [:]
        for (i, source) in problem.sources.enumerated() {
            let key = Metric.add(source.cost, metric.remaining(source.position))
            if s.relax(source.position.arc.index, key: key, parent: SearchScratch.noParent) {
                sourceOf[source.position.arc.index] = i
            }
        }
        func bound() -> UInt32 {
            var m: UInt32 = 0
            for b in best { guard let b else { return SearchScratch.infinity }; m = max(m, b.cost) }
            return m
        }
        var stopAt = bound()
        let turnFirstOut = graph.turnFirstOut, turnTarget = graph.turnTarget, originals = graph.arcOriginal
        metric.turnWeight.withUnsafeBufferPointer { weight in
            while let (u, du) = s.popMin() {
                if du >= stopAt { break }
                settled += 1
                for t in Int(turnFirstOut[u])..<Int(turnFirstOut[u + 1]) {
                    let v = turnTarget[t].index
                    let w = weight[t]
                    if w == Metric.infinite { continue }
                    let nd = Metric.add(du, w)
                    let original = originals[v]
                    for j in targetArcs.indices where targetArcs[j] == original {
                        let candidate = nd - targetExcess[j]
                        if best[j].map({ candidate < $0.cost }) ?? true {
                            best[j] = .init(cost: candidate, source: -1, arcs: [])
                            lastTurnFrom[j] = u
                            lastArc[j] = ArcID(v)
                            stopAt = bound()
                        }
                    }
                    s.relax(v, key: nd, parent: UInt32(u))
                }
            }
        }
        LegSolution.unpack(&best, lastFrom: lastTurnFrom, lastArc: lastArc, sourceOf: sourceOf, parents: s)
        return LegSolution(paths: best)
    }
}
