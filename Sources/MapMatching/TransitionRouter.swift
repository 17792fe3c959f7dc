public import RoadNetwork
public import Routing

/// Network distances between the candidates of consecutive trace points, on the turn-expanded
/// graph (so one-ways, turn restrictions and forbidden U-turns hold), in centimetres.
///
/// Short hops, the usual case between fixes a few seconds apart, are a Dijkstra search bounded
/// by the hop's plausible length that stops once every target is settled; it touches tens of
/// arcs. A hop whose bound is long (sparse sampling, gaps, motorways) asks the customized
/// hierarchy instead, whose cost does not grow with the distance.
public final class TransitionRouter: @unchecked Sendable {
    public let graph: RoadGraph
    /// Length in centimetres per arc and per turn (the entered arc's length); turns cost nothing.
    public let metric: Metric
    let hierarchy: CCHMetric?
    let scratch: SearchScratch
    let cchScratch: CCHScratch?
    /// Bounds (cm) beyond which the hierarchy answers instead of the bounded search.
    public var hierarchyAboveCm: UInt32 = 150_000

    /// Hops settled by each kind of search since creation (for benchmarks and tests).
    public private(set) var boundedSearches = 0, hierarchySearches = 0

    public init(graph: RoadGraph, metric: Metric, hierarchy: CCHMetric?) {
        self.graph = graph
        self.metric = metric
        self.hierarchy = hierarchy
        scratch = SearchScratch(capacity: graph.arcCount)
        cchScratch = hierarchy.map { CCHScratch(nodeCount: $0.structure.nodeCount) }
    }

    /// The length metric of a graph.
    public static func lengthMetric(_ graph: RoadGraph) -> Metric {
        let arc = (0..<graph.arcCount).map { max(1, graph.lengthCm(of: ArcID($0))) }
        return Metric.withTurns(graph, arcWeight: arc) { _, _, _ in 0 }
    }

    /// Centimetres from `source` to each target along the network; nil where no path is within `boundCm`.
    public func distances(from source: ArcPosition, to targets: [ArcPosition], boundCm: UInt32) -> [UInt32?] {
        if boundCm > hierarchyAboveCm, let hierarchy, let cchScratch {
            hierarchySearches += 1
            var search = CCHLegSearch(graph: graph, metric: metric, cch: hierarchy, scratch: cchScratch)
            search.unpacksPaths = false
            let solution = search.solve(LegProblem(sources: [.init(position: source, cost: 0)], targets: targets))
            return solution.paths.map { path in path.flatMap { $0.cost <= boundCm ? $0.cost : nil } }
        }
        boundedSearches += 1
        return bounded(from: source, to: targets, boundCm: boundCm, wantsPath: false).costs
    }

    /// The arcs of the shortest path from `source` to `target` (both arcs included), nil when none
    /// is within `boundCm`.
    public func path(from source: ArcPosition, to target: ArcPosition, boundCm: UInt32) -> [ArcID]? {
        if boundCm > hierarchyAboveCm, let hierarchy, let cchScratch {
            var search = CCHLegSearch(graph: graph, metric: metric, cch: hierarchy, scratch: cchScratch)
            let solution = search.solve(LegProblem(sources: [.init(position: source, cost: 0)], targets: [target]))
            guard let found = solution.paths[0], found.cost <= boundCm else { return nil }
            return found.arcs
        }
        return bounded(from: source, to: [target], boundCm: boundCm, wantsPath: true).path
    }

    /// The bounded one-to-many search. A target is met when a turn enters its arc (the part of
    /// the arc beyond the target taken off); the search stops when the smallest key left cannot
    /// improve any target or exceeds the bound.
    private func bounded(from source: ArcPosition, to targets: [ArcPosition], boundCm: UInt32,
                         wantsPath: Bool) -> (costs: [UInt32?], path: [ArcID]?) {
        let originals = graph.arcOriginal
        var best = [UInt32](repeating: .max, count: targets.count)
        var lastFrom = [Int](repeating: -2, count: targets.count)
        var lastArc = [Int](repeating: -1, count: targets.count)
        let sourceOriginal = originals[source.arc.index]
        for (j, t) in targets.enumerated() where originals[t.arc.index] == sourceOriginal && t.fraction >= source.fraction {
            best[j] = UInt32((Double(metric.arcWeight[t.arc.index]) * (t.fraction - source.fraction)).rounded())
            lastFrom[j] = -1
        }
        let targetArcs = targets.map { originals[$0.arc.index] }
        let excess = targets.map { metric.remaining($0) }
        let s = scratch
        s.reset()
        s.relax(source.arc.index, key: metric.remaining(source), parent: SearchScratch.noParent)
        var stop = min(boundCm &+ 1, best.max() ?? 0)
        let firstOut = graph.turnFirstOut, turnTarget = graph.turnTarget
        metric.turnWeight.withUnsafeBufferPointer { weight in
            while let (u, du) = s.popMin() {
                if du >= stop { break }
                for t in Int(firstOut[u])..<Int(firstOut[u + 1]) {
                    let v = turnTarget[t].index
                    let nd = du &+ weight[t]
                    let original = originals[v]
                    var improved = false
                    for j in targetArcs.indices where targetArcs[j] == original {
                        let cost = nd - excess[j]
                        if cost < best[j] { best[j] = cost; lastFrom[j] = u; lastArc[j] = v; improved = true }
                    }
                    if improved { stop = min(boundCm &+ 1, best.max() ?? 0) }
                    s.relax(v, key: nd, parent: UInt32(u))
                }
            }
        }
        var path: [ArcID]?
        if wantsPath, lastFrom[0] != -2, best[0] <= boundCm {
            var arcs: [ArcID]
            if lastFrom[0] == -1 {
                arcs = [source.arc]
            } else {
                arcs = [ArcID(lastArc[0])]
                var u = lastFrom[0]
                while true {
                    arcs.append(ArcID(u))
                    let p = s.parentOf(u)
                    if p == SearchScratch.noParent { break }
                    u = Int(p)
                }
                arcs.reverse()
            }
            path = arcs
        }
        return (best.map { $0 <= boundCm ? $0 : nil }, path)
    }
}
