public import RoadNetwork
public import Routing
public import MapMatching
import GeoCore

/// A trace matched to roads, each continuous stretch as a timed route.
public struct MatchOutcome: Sendable {
    public struct Stretch: Sendable {
        /// The stretch driven, one leg between each two matched fixes, timed from its first fix.
        public var route: TimedRoute
        public var matching: Matching
    }

    public var stretches: [Stretch]
    /// Where each input fix was matched (nil: an outlier, tidied away, or far from every road).
    public var points: [MatchedPoint?]
}

extension PlanningEngine {
    /// Matches a GPS trace to the roads of `mode` (Newson and Krumm's hidden Markov model);
    /// nil for a mode the dataset lacks. Legs are timed on the traffic in force from the time of
    /// their first fix (now, for a trace without times).
    public func match(_ trace: [TracePoint], mode: TravelMode, parameters: MatchParameters = MatchParameters()) -> MatchOutcome? {
        guard let engine = engine(mode) else { return nil }
        let result = engine.core.matchers.withMatcher(parameters) { $0.match(trace) }
        let graph = engine.graph
        let snapshot = engine.snapshot
        let now = clock().timeIntervalSince1970
        let live = mode.usesTraffic
        let clock = RouteClock(graph: graph, table: live ? snapshot.table : snapshot.historicalTable)
        let builder = TimedRouteBuilder(engine: engine, snapshot: snapshot, live: live, now: now)
        let stretches = result.matchings.map { matching in
            let legs = matching.legs.map { RouteLeg(graph: graph, arcs: $0.arcs, start: $0.start, end: $0.end) }
            let endpoints = zip(matching.points, matching.snaps).map { RouteEndpoint(input: trace[$0].coordinate, snap: $1, graph: graph) }
            let route = Route(legs: legs, endpoints: endpoints, cost: 0)
            let departure = trace[matching.points[0]].time ?? now
            let timed = clock.timed(route, departure: departure) ?? route
            return MatchOutcome.Stretch(route: builder.build(timed, departure: departure), matching: matching)
        }
        return MatchOutcome(stretches: stretches, points: result.points)
    }
}

extension PlanningEngine {
    /// Free-flow car drives between random nodes of the largest component, each at least
    /// `minMeters` long, as the pieces a `TraceSimulation` drives (graded traces for the match
    /// benchmark and tests). Fewer than `count` when the map has too few such drives.
    public func randomDrives(count: Int, minMeters: Double, using rng: inout some RandomNumberGenerator) -> [[DrivenPiece]] {
        guard let graph = graph(.car), graph.arcCount > 0 else { return [] }
        var drives: [[DrivenPiece]] = []
        var tries = 0
        while drives.count < count && tries < count * 50 {
            tries += 1
            func point() -> Coordinate {
                var a = Int(rng.next() % UInt64(graph.arcCount))
                var steps = 0
                while !graph.arcFlags[a].contains(.largestComponent) && steps < graph.arcCount { a = (a + 1) % graph.arcCount; steps += 1 }
                return graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
            }
            var request = PlanRequest(waypoints: [point(), point()], mode: .car)
            request.traffic = false
            guard let route = plan(request).plan?.best, route.lengthMeters >= minMeters else { continue }
            drives.append(route.legs.flatMap { $0.arcs.map { DrivenPiece(arc: $0.arc, from: $0.fromFraction, to: $0.toFraction, seconds: $0.durationSeconds) } })
        }
        return drives
    }
}
