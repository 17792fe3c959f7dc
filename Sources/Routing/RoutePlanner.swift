public import RoadNetwork
public import GeoCore

/// What a route request can end in. Expected outcomes are values, not errors (as OSRM's
/// `NoRoute` and `NoSegment` are answers, not failures).
public enum RouteOutcome: Sendable {
    case found(Route)
    /// Waypoint `index` is further than the snapping limit from any road this mode can use.
    case noSegment(index: Int, Coordinate)
    /// No path joins waypoint `leg` to waypoint `leg + 1`.
    case noRoute(leg: Int)

    public var route: Route? {
        if case .found(let r) = self { return r }
        return nil
    }
}

/// Plans multi-waypoint routes: snaps each waypoint, solves each leg with a `LegSearch`, and
/// chooses the direction in which to pass every intermediate waypoint so that the whole route is
/// optimal (a U-turn at a waypoint costs `waypointUTurnPenalty`).
public struct RoutePlanner {
    public let graph: RoadGraph
    public let metric: Metric
    public var maxSnapDistanceMeters: Double = 1000
    /// How far a point whose nearest road lies in a small piece of the network, with no road of
    /// the large part within `maxSnapDistanceMeters`, may be moved to the large part's nearest
    /// road (a hamlet joined to the network only by a track): OSRM moves such a point however
    /// far; beyond this the point is in another part of the extract and the answer is NoRoute.
    public var unreachablePieceFallbackMeters: Double = 5000

    public init(graph: RoadGraph, metric: Metric) {
        self.graph = graph
        self.metric = metric
    }

    /// Whether a route may turn back at an intermediate waypoint (OSRM's `continue_straight`).
    public enum WaypointUTurns: Sendable {
        /// Allowed at the cost of a U-turn (the default).
        case penalized
        /// Only where there is no other way on: the route keeps going the way it arrived.
        case avoided
        /// Free: the waypoint is left whichever way is best.
        case free
    }

    public var waypointUTurns = WaypointUTurns.penalized

    /// Metric units added for turning back at an intermediate waypoint.
    public var waypointUTurnPenalty: UInt32 {
        switch waypointUTurns {
        case .free: return 0
        case .avoided: return 3_600_000  // an hour (or 36 km): taken only when nothing else leaves the waypoint
        case .penalized:
            switch graph.mode {
            case .car, .taxi: return 20_000
            case .bicycle: return 5_000
            case .pedestrian: return 0
            }
        }
    }

    public func endpoints(_ waypoints: [Coordinate]) -> Result<[RouteEndpoint], RouteFailure> {
        var endpoints: [RouteEndpoint] = []
        for (i, w) in waypoints.enumerated() {
            guard let snap = graph.snap(w, maxDistanceMeters: maxSnapDistanceMeters) else {
                return .failure(.noSegment(index: i, w))
            }
            endpoints.append(RouteEndpoint(input: w, snap: snap, graph: graph))
        }
        return .success(endpoints)
    }

    public enum RouteFailure: Error { case noSegment(index: Int, Coordinate) }

    public func route(_ waypoints: [Coordinate], using search: inout some LegSearch) -> RouteOutcome {
        precondition(waypoints.count >= 2, "a route needs at least two waypoints")
        switch endpoints(waypoints) {
        case .failure(.noSegment(let i, let c)): return .noSegment(index: i, c)
        case .success(let endpoints): return route(endpoints, using: &search)
        }
    }

    /// Solves the legs in order; each leg starts from every direction of its first waypoint with
    /// the best cost of arriving there, so the final answer is optimal over all directions.
    public func route(_ endpoints: [RouteEndpoint], using search: inout some LegSearch) -> RouteOutcome {
        var sources = endpoints[0].positions.map { LegProblem.Source(position: $0, cost: 0) }
        var solutions: [LegSolution] = []
        var legSources: [[LegProblem.Source]] = []
        /// For each leg > 0: which arrival (target index of the previous leg) each source came from.
        var sourceArrival: [[Int]] = []
        for leg in 0..<(endpoints.count - 1) {
            let targets = endpoints[leg + 1].positions
            // The last leg needs only its best arrival; at a waypoint, an arrival costlier than the
            // best one by more than a U-turn is never the best way to leave in any direction.
            let last = leg == endpoints.count - 2
            let solution = search.solve(LegProblem(sources: sources, targets: targets, slack: last ? 0 : waypointUTurnPenalty))
            legSources.append(sources)
            guard solution.paths.contains(where: { $0 != nil }) else { return .noRoute(leg: leg) }
            solutions.append(solution)
            guard leg + 1 < endpoints.count - 1 else { break }
            // Leave the waypoint in either direction: continuing on the arrival arc is free, turning back costs a U-turn.
            var next: [LegProblem.Source] = []
            var from: [Int] = []
            for departure in targets {
                var best: (cost: UInt32, extraMs: UInt32, arrival: Int)?
                for (j, path) in solution.paths.enumerated() {
                    guard let path else { continue }
                    let sameDirection = graph.arcOriginal[targets[j].arc.index] == graph.arcOriginal[departure.arc.index]
                    let cost = Metric.add(path.cost, sameDirection ? 0 : waypointUTurnPenalty)
                    if best.map({ cost < $0.cost }) ?? true { best = (cost, path.extraMs, j) }
                }
                if let best {
                    // A time-dependent next leg drives on from the clock time, not from the extras.
                    next.append(.init(position: departure, cost: best.cost, extraMs: best.extraMs))
                    from.append(best.arrival)
                }
            }
            sources = next
            sourceArrival.append(from)
        }
        // Walk back from the best final arrival.
        let last = solutions[solutions.count - 1]
        guard let (finalTarget, finalPath) = last.paths.enumerated().compactMap({ i, p in p.map { (i, $0) } })
            .min(by: { $0.1.cost < $1.1.cost }) else { return .noRoute(leg: endpoints.count - 2) }
        var legPaths: [(arcs: [ArcID], start: Double, end: Double)] = []
        var target = finalTarget
        var path = finalPath
        for leg in stride(from: solutions.count - 1, through: 0, by: -1) {
            let start = legSources[leg][path.source].position.fraction
            legPaths.append((path.arcs.map { graph.arcOriginal[$0.index] }, start, endpoints[leg + 1].positions[target].fraction))
            if leg > 0 {
                // The source this leg used maps to an arrival of the previous leg.
                let sourceIndex = path.source
                target = sourceArrival[leg - 1][sourceIndex]
                guard let previous = solutions[leg - 1].paths[target] else { return .noRoute(leg: leg - 1) }
                path = previous
            }
        }
        legPaths.reverse()
        let legs = legPaths.map { RouteLeg(graph: graph, arcs: $0.arcs, start: $0.start, end: $0.end) }
        return .found(Route(legs: legs, endpoints: endpoints, cost: finalPath.cost))
    }
}
