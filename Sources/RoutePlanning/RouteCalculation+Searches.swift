import RoadNetwork
import Routing

extension RouteCalculation {
    func staticRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric) throws(Failure) -> Route {
        let departure = departAt ?? now
        let outcome: RouteOutcome
        if request.avoid.contains(.alreadyUsedRoads) {
            outcome = penalizedRoute(endpoints, prepared: prepared, usedRoadPenalty: true)
        } else {
            outcome = engine.withStaticSearch(prepared) { search in planner.route(endpoints, using: &search) }
        }
        let route = try timed(outcome, departure: departure)
        // The hierarchy's metric has every conditional element open; its route stands unless it
        // passes one closed when reached (`ConditionalRules`).
        guard passesClosedConditional(route, departure: departure) else { return route }
        return try conditionalRoute(endpoints, prepared: prepared, departure: departure)
    }

    /// A static route with extra entry costs (alreadyUsedRoads), A* on the metric's CCH; conditional
    /// elements as they are at the request's moment.
    func penalizedRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric, usedRoadPenalty: Bool) -> RouteOutcome {
        prepared.withPotential(towardsTargets: true) { potential in
            engine.timeDependentScratch.withScratch { scratch in
                guard let potential else { return .noRoute(leg: 0) }
                var inner = AStarLegSearch(graph: graph, metric: prepared.metric, potential: potential, penalty: [], scratch: scratch)
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
            defer { engine.timeDependentTotals.withLock { $0 += statistics } }
            return routing.departAt(endpoints, departure: departure, penaltyMs: penalty, usedRoads: usedRoads, scratch: scratch,
                                    statistics: &statistics)
        }
    }

    /// Whether fastest routes are searched time-dependently, by the real time of arrival: only
    /// while traffic is in force (historical congestion, live speeds or closures). Those searches
    /// label arcs with arrival times and steer by lower bounds of the travel time, so they cannot
    /// choose by the rate-weighted time that static fastest routes do (`Metric.fastestWeight`):
    /// a weight is not a clock. With nothing time-dependent in force, a depart-at or arrive-by
    /// route is the static route (chosen by that weight, as OSRM's), timed from its moment.
    var searchesByTime: Bool { request.routeType == .fastest && graph.mode.usesTraffic && !table.isFreeFlow }

    func arriveBy(_ endpoints: [RouteEndpoint], arrival: Double, prepared: PreparedMetric) throws(Failure) -> (Route, Double) {
        // Rules by the time of day need the clock as well: the latest departure along a static
        // route cannot see an element that opens or closes in between.
        let clocked = searchesByTime || (request.routeType == .fastest && graph.mode.usesTraffic && !graph.conditionals.isEmpty)
        if clocked && rules.kinds.isEmpty {
            let (outcome, departure) = engine.timeDependentScratch.withScratch { scratch -> (RouteOutcome, Double?) in
                guard let routing = timeDependentRouting else {
                    var search = ArriveBySearch(graph: graph, table: table, potential: nil, lowerBound: nil, scratch: scratch)
                    return planner.routeArrivingBy(endpoints, arrival: arrival, using: &search)
                }
                var statistics = TimeDependentRouting.Statistics()
                defer { engine.timeDependentTotals.withLock { $0 += statistics } }
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

    /// Via-node alternatives (`AlternativeRoutes`) from the hierarchy of `prepared`; with a
    /// `departure` each candidate leg is timed from when the best route starts that leg and judged
    /// by that duration. None without a hierarchy.
    func alternatives(_ best: Route, endpoints: [RouteEndpoint], prepared: PreparedMetric, departure: Double?) -> [Route] {
        let wanted = min(request.maxAlternatives, PlanningEngine.maxAlternatives)
        guard wanted > 0, let cch = prepared.cch else { return [] }
        let timeDependent = departure != nil
        let startTime = departure ?? departAt ?? now
        var legStart = [startTime]
        for leg in best.legs.dropLast() { legStart.append(legStart[legStart.count - 1] + leg.durationSeconds) }
        let reusedByBest = reusedMeters(best)
        return engine.cchScratch.withScratch { scratch in
            let search = CCHLegSearch(graph: graph, metric: prepared.metric, cch: cch, scratch: scratch)
            return AlternativeRoutes().find(
                graph: graph, best: best, count: wanted,
                viaPaths: { from, to, covered, stretch, limit in
                    search.viaPaths(from: from, to: to, covered: covered,
                                    maxCost: { UInt32(min(Double(Metric.infinite - 1), (Double($0) * (1 + stretch)).rounded(.up))) }, limit: limit)
                },
                legCost: { leg, l in
                    let route = Route(legs: [leg], endpoints: [], cost: 0)
                    guard timeDependent else { return Double(route.metricCost(prepared.metric, graph: graph)) }
                    return RouteTiming.timed(route, graph: graph, table: table, departure: legStart[l])?.durationSeconds
                },
                finish: { route in
                    guard var timed = RouteTiming.timed(route, graph: graph, table: table, departure: startTime),
                          !passesClosedConditional(timed, departure: startTime),
                          reusedMeters(timed) <= reusedByBest + 1 else { return nil }
                    timed.cost = UInt32(min(UInt64(Metric.infinite - 1), timed.metricCost(prepared.metric, graph: graph)))
                    return timed
                },
                cost: { route in timeDependent ? route.durationSeconds : Double(route.metricCost(prepared.metric, graph: graph)) },
                localCost: { route in Double(route.metricCost(prepared.metric, graph: graph)) },
                pieceCost: { piece in Double(prepared.metric.cost(of: piece)) },
                shortest: { from, to in engine.shortestCost(from, to, prepared: prepared) })
        }
    }

    /// Metres a route drives again on roads its earlier legs drove (either way), when
    /// `avoid=alreadyUsedRoads` asks to keep off them; 0 otherwise.
    func reusedMeters(_ route: Route) -> Double {
        guard usedRoads != .allowed else { return 0 }
        var used = Set<ArcID>()
        var meters = 0.0
        for leg in route.legs {
            for piece in leg.pieces.dropFirst().dropLast() where used.contains(graph.arcOriginal[piece.arc.index]) { meters += piece.lengthMeters }
            UsedRoads.forEachRoadDriven(leg.pieces.map(\.arc), graph: graph) { used.insert($0) }
        }
        return meters
    }
}
