public import RoadNetwork
public import Routing
public import MapMatching

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
        guard let engine = engines[mode] else { return nil }
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
