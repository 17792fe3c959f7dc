import RoadNetwork
import Routing

/// The static search in use: the hierarchy, or Dijkstra where none was built.
enum StaticSearch: LegSearch {
    case cch(CCHLegSearch)
    case dijkstra(DijkstraLegSearch)

    mutating func solve(_ problem: LegProblem) -> LegSolution {
        switch self {
        case .cch(var s):
            let r = s.solve(problem)
            self = .cch(s)
            return r
        case .dijkstra(var s):
            let r = s.solve(problem)
            self = .dijkstra(s)
            return r
        }
    }
}

extension RoutingEngine {
    /// Runs `body` with the hierarchy's search, or plain Dijkstra for a dataset without one.
    func withStaticSearch(_ prepared: PreparedMetric, _ body: (inout StaticSearch) -> RouteOutcome) -> RouteOutcome {
        guard let cch = prepared.cch else {
            return searchScratch.withScratch { scratch in
                var search = StaticSearch.dijkstra(DijkstraLegSearch(graph: graph, metric: prepared.metric, scratch: scratch))
                return body(&search)
            }
        }
        return cchScratch.withScratch { scratch in
            var search = StaticSearch.cch(CCHLegSearch(graph: graph, metric: prepared.metric, cch: cch, scratch: scratch))
            return body(&search)
        }
    }

    /// The metric's cost of the best path between two positions (CCH, distances only).
    func shortestCost(_ from: ArcPosition, _ to: ArcPosition, prepared: PreparedMetric) -> Double? {
        guard let cch = prepared.cch else { return nil }
        let cost = cchScratch.withScratch { scratch -> UInt32? in
            var search = CCHLegSearch(graph: graph, metric: prepared.metric, cch: cch, scratch: scratch)
            search.unpacksPaths = false
            return search.solve(LegProblem(sources: [.init(position: from, cost: 0)], targets: [to])).paths[0]?.cost
        }
        return cost.map(Double.init)
    }
}

extension Route {
    /// The metric's cost of a route: partial first and last arcs, whole arcs and turns between.
    func metricCost(_ metric: Metric, graph: RoadGraph) -> UInt64 {
        var total: UInt64 = 0
        for leg in legs {
            for (i, piece) in leg.pieces.enumerated() {
                total += metric.cost(of: piece)
                if i > 0 { total += turnExtra(metric, graph: graph, from: leg.pieces[i - 1].arc, to: piece.arc) }
            }
        }
        return total
    }

    /// What the turn between two consecutive arcs costs beyond entering the second (0 without such a turn).
    func turnExtra(_ metric: Metric, graph: RoadGraph, from previous: ArcID, to arc: ArcID) -> UInt64 {
        guard let t = graph.turns(from: previous).first(where: { graph.arcOriginal[graph.turnTarget[$0].index] == arc }) else { return 0 }
        return UInt64(metric.turnWeight[t] &- min(metric.turnWeight[t], metric.arcWeight[arc.index]))
    }
}

extension Metric {
    /// A piece's share of its arc's weight, without the turn into it.
    func cost(of piece: RouteLeg.Piece) -> UInt64 {
        UInt64((Double(arcWeight[piece.arc.index]) * max(0, piece.toFraction - piece.fromFraction)).rounded())
    }
}
