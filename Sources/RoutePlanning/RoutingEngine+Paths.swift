import GeoCore
import RoadNetwork
import Routing

extension RoutingEngine {
    /// The route a stored path drives, with free-flow times (time it with `RouteClock`); nil when
    /// the path no longer fits this graph: an arc that does not exist, consecutive arcs with no
    /// turn between them, or another length than it had.
    func route(_ path: RoutePath) -> Route? {
        let graph = self.graph
        guard path.mode == graph.mode, !path.legs.isEmpty else { return nil }
        var legs: [RouteLeg] = []
        for pieces in path.legs {
            guard let first = pieces.first, let last = pieces.last,
                  pieces.allSatisfy({ (0..<graph.arcCount).contains($0.arc) && $0.from >= 0 && $0.to <= 1 }) else { return nil }
            let arcs = pieces.map { graph.arcOriginal[$0.arc] }
            for (a, b) in zip(arcs, arcs.dropFirst()) where !joined(a, b) { return nil }
            legs.append(RouteLeg(graph: graph, arcs: arcs, start: first.from, end: last.to))
        }
        let route = Route(legs: legs, endpoints: [], cost: 0)
        guard abs(route.lengthMeters - path.lengthMeters) <= max(1, path.lengthMeters * 0.001) else { return nil }
        return route
    }

    /// Whether a turn leads from arc `a` (or a restriction copy of it) onto arc `b`.
    func joined(_ a: ArcID, _ b: ArcID) -> Bool {
        let graph = self.graph
        for from in [a] + (graph.restrictionCopies[a] ?? []) {
            if graph.turns(from: from).contains(where: { graph.arcOriginal[graph.turnTarget[$0].index] == b }) { return true }
        }
        return false
    }
}

extension TimedRoute {
    /// Waypoints where the legs start and end, for a route re-timed from a stored path (which
    /// keeps no inputs): each on the road, at distance 0.
    mutating func placeWaypointsOnLegEnds(graph: RoadGraph) {
        var list: [Waypoint] = []
        func add(_ c: Coordinate?, _ arc: ArcID?) {
            guard let c, let arc else { return }
            list.append(Waypoint(input: c, snapped: c, distanceMeters: 0, roadName: graph.name(of: graph.way(of: arc))))
        }
        add(legs.first?.points.first, legs.first?.arcs.first?.arc)
        for leg in legs { add(leg.points.last, leg.arcs.last?.arc) }
        waypoints = list
    }
}
