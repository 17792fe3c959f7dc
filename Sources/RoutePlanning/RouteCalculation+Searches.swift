import RoadNetwork
import Routing

extension RouteCalculation {
    func staticRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric) throws(Failure) -> Route {
        let departure = departAt ?? now
        let outcome: RouteOutcome
        if request.avoid.contains(.alreadyUsedRoads) {
            outcome = penalizedRoute(endpoints, prepared: prepared, penalty: [], usedRoadPenalty: true)
        } else {
            outcome = engine.withStaticSearch(prepared) { search in planner.route(endpoints, using: &search) }
        }
        let route = try timed(outcome, departure: departure)
        // The hierarchy's metric has every conditional element open; its route stands unless it
        // passes one closed when reached (`ConditionalRules`).
        guard passesClosedConditional(route, departure: departure) else { return route }
        return try conditionalRoute(endpoints, prepared: prepared, departure: departure)
    }

    /// A static route with extra entry costs (alternatives, alreadyUsedRoads), A* on the metric's CCH;
    /// conditional elements as they are at the request's moment.
    func penalizedRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric, penalty: [UInt32], usedRoadPenalty: Bool) -> RouteOutcome {
        prepared.withPotential(towardsTargets: true) { potential in
            engine.timeDependentScratch.withScratch { scratch in
                guard let potential else { return .noRoute(leg: 0) }
                var inner = AStarLegSearch(graph: graph, metric: prepared.metric, potential: potential, penalty: penalty, scratch: scratch)
                inner.conditionalMoment = (departAt ?? now, table.utcOffsetSeconds)
                var search = UsedRoadsSearch(inner: inner, penalizeUsed: usedRoadPenalty, strict: request.strictAvoid)
                return planner.route(endpoints, using: &search)
            }
        }
    }

    /// Exact time-dependent search (`TimeDependentRouting`), or nil without a hierarchy.
    var timeDependentRouting: TimeDependentRouting? {
        guard let potentials = snapshot.potentials else { return nil }
        let snapshot = snapshot, live = key.live
        return TimeDependentRouting(graph: graph, planner: planner, potentials: potentials, table: table,
                                    liveBound: { snapshot.liveBound(live: live, band: $0) })
    }

    /// What `avoid=alreadyUsedRoads` asks of the roads earlier legs drove.
    var usedRoads: UsedRoads {
        guard request.avoid.contains(.alreadyUsedRoads) else { return .allowed }
        return request.strictAvoid ? .forbidden : .avoided
    }

    /// Exact earliest-arrival route (plain time-dependent Dijkstra on a dataset without a hierarchy).
    func timeDependentRoute(_ endpoints: [RouteEndpoint], departure: Double, penalty: [UInt32]) -> RouteOutcome {
        engine.timeDependentScratch.withScratch { scratch in
            guard let routing = timeDependentRouting else {
                var inner = TimeDependentLegSearch(graph: graph, table: table, departure: departure, potential: nil, lowerBound: nil, scratch: scratch)
                inner.penaltyMs = penalty
                var search = UsedRoadsSearch(inner: inner, penalizeUsed: usedRoads != .allowed, strict: usedRoads == .forbidden)
                return planner.route(endpoints, using: &search)
            }
            var statistics = TimeDependentRouting.Statistics()
            return routing.departAt(endpoints, departure: departure, penaltyMs: penalty, usedRoads: usedRoads, scratch: scratch,
                                    statistics: &statistics)
        }
    }

    func arriveBy(_ endpoints: [RouteEndpoint], arrival: Double, prepared: PreparedMetric) throws(Failure) -> (Route, Double) {
        if request.routeType == .fastest && rules.kinds.isEmpty && graph.mode.usesTraffic {
            let (outcome, departure) = engine.timeDependentScratch.withScratch { scratch -> (RouteOutcome, Double?) in
                guard let routing = timeDependentRouting else {
                    var search = ArriveBySearch(graph: graph, table: table, potential: nil, lowerBound: nil, scratch: scratch)
                    return planner.routeArrivingBy(endpoints, arrival: arrival, using: &search)
                }
                var statistics = TimeDependentRouting.Statistics()
                return routing.arriveBy(endpoints, arrival: arrival, scratch: scratch, statistics: &statistics)
            }
            guard let departure else { _ = try timed(outcome, departure: arrival); throw Failure(.noRoute(leg: 0)) }
            guard usedRoads != .allowed else { return (try timed(outcome, departure: departure), departure) }
            // alreadyUsedRoads: the depart-at route that avoids them, leaving about when the best
            // route would, then the latest departure along it.
            let route = try timed(timeDependentRoute(endpoints, departure: departure, penalty: []), departure: departure)
            guard let latest = latestDeparture(route, arrival: arrival) else { throw Failure(.arrivalUnmeetable(latestDeparture: nil)) }
            guard let timed = RouteTiming.timed(route, graph: graph, table: table, departure: latest) else { throw Failure(.closed) }
            return (timed, latest)
        }
        // Other metrics: the best route by that metric, then the latest departure along it.
        let route = try staticRoute(endpoints, prepared: prepared)
        guard let departure = latestDeparture(route, arrival: arrival) else { throw Failure(.arrivalUnmeetable(latestDeparture: nil)) }
        guard let timed = RouteTiming.timed(route, graph: graph, table: table, departure: departure) else { throw Failure(.closed) }
        return (timed, departure)
    }

    // MARK: Alternatives

    func alternatives(_ best: Route, endpoints: [RouteEndpoint], prepared: PreparedMetric, departure: Double?) -> [Route] {
        let wanted = min(request.maxAlternatives, PlanningEngine.maxAlternatives)
        guard wanted > 0 else { return [] }
        let timeDependent = departure != nil
        let weights = timeDependent ? (snapshot.potentials?.week.bound.arcWeight ?? prepared.metric.arcWeight) : prepared.metric.arcWeight
        let base = rules.entryPenaltyMs()
        let startTime = departure ?? departAt ?? now
        let found = AlternativeRoutes().find(
            graph: graph, best: best, count: wanted, arcWeight: weights,
            solve: { penalty in
                let combined = base.isEmpty ? penalty : zip(base, penalty).map { Metric.add($0, $1) }
                let outcome = timeDependent ? timeDependentRoute(endpoints, departure: startTime, penalty: combined)
                    : penalizedRoute(endpoints, prepared: prepared, penalty: combined, usedRoadPenalty: request.avoid.contains(.alreadyUsedRoads))
                return outcome.route.flatMap { RouteTiming.timed($0, graph: graph, table: table, departure: startTime) }
            },
            cost: { route in timeDependent ? route.durationSeconds : Double(route.metricCost(prepared.metric, graph: graph)) },
            localCost: { route in Double(route.metricCost(prepared.metric, graph: graph)) },
            shortest: { from, to in engine.shortestCost(from, to, prepared: prepared) })
        return found
    }
}
