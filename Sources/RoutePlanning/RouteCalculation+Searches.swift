import RoadNetwork
import Routing

extension RouteCalculation {
    func staticRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric) throws(Failure) -> Route {
        let outcome: RouteOutcome
        if request.avoid.contains(.alreadyUsedRoads) {
            outcome = penalizedRoute(endpoints, prepared: prepared, penalty: [], usedRoadPenalty: true)
        } else {
            outcome = engine.withStaticSearch(prepared) { search in planner.route(endpoints, using: &search) }
        }
        return try timed(outcome, departure: departAt ?? now)
    }

    /// A static route with extra entry costs (alternatives, alreadyUsedRoads), A* on the metric's CCH.
    func penalizedRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric, penalty: [UInt32], usedRoadPenalty: Bool) -> RouteOutcome {
        prepared.withPotential(towardsTargets: true) { potential in
            engine.timeDependentScratch.withScratch { scratch in
                guard let potential else { return .noRoute(leg: 0) }
                var search = UsedRoadsSearch(inner: AStarLegSearch(graph: graph, metric: prepared.metric, potential: potential,
                                                                   penalty: penalty, scratch: scratch),
                                             penalizeUsed: usedRoadPenalty, strict: request.strictAvoid)
                return planner.route(endpoints, using: &search)
            }
        }
    }

    /// Exact earliest-arrival route. Potentials come from lower bounds over a window of time
    /// after the departure (`TrafficSnapshot.windowLengths`, shortest first); a route that ends
    /// after its window is recomputed with the next one and finally with week-wide bounds, so the
    /// answer is exact either way.
    func timeDependentRoute(_ endpoints: [RouteEndpoint], departure: Double, penalty: [UInt32]) -> RouteOutcome {
        let start = TrafficSnapshot.windowStart(for: departure)
        for length in TrafficSnapshot.windowLengths {
            let outcome = timeDependentRoute(endpoints, departure: departure, penalty: penalty,
                                             lower: snapshot.lowerBound(live: key.live, windowStart: start, length: length))
            guard let route = outcome.route else { return outcome }
            // The route's own durations are free-flow ones: time it on the table to see where it ends.
            let arrival = departure + (RouteTiming.timed(route, graph: graph, table: table, departure: departure)?.durationSeconds ?? .infinity)
            if arrival <= start + length - 60 { return outcome }
        }
        return timeDependentRoute(endpoints, departure: departure, penalty: penalty, lower: snapshot.lowerBound(live: key.live))
    }

    func timeDependentRoute(_ endpoints: [RouteEndpoint], departure: Double, penalty: [UInt32], lower: PreparedMetric) -> RouteOutcome {
        lower.withPotential(towardsTargets: true) { potential in
            engine.timeDependentScratch.withScratch { scratch in
                var search = TimeDependentLegSearch(graph: graph, table: table, departure: departure, potential: potential,
                                                    lowerBound: lower.metric, scratch: scratch)
                search.penaltyMs = penalty
                return planner.route(endpoints, using: &search)
            }
        }
    }

    func arriveBy(_ endpoints: [RouteEndpoint], arrival: Double, prepared: PreparedMetric) throws(Failure) -> (Route, Double) {
        if request.routeType == .fastest && request.avoid.isEmpty && graph.mode.usesTraffic {
            // Lower bounds over a window before the arrival, shortest first; week-wide if the trip
            // starts earlier than every window.
            func search(_ lower: PreparedMetric) -> (RouteOutcome, Double?) {
                lower.withPotential(towardsTargets: false) { potential in
                    engine.timeDependentScratch.withScratch { scratch in
                        var search = ArriveBySearch(graph: graph, table: table, potential: potential, lowerBound: lower.metric, scratch: scratch)
                        return planner.routeArrivingBy(endpoints, arrival: arrival, using: &search)
                    }
                }
            }
            var result: (RouteOutcome, Double?)?
            let windowEnd = TrafficSnapshot.windowStart(for: arrival) + TrafficSnapshot.windowGrid
            for length in TrafficSnapshot.windowLengths {
                let windowStart = windowEnd - length
                let attempt = search(snapshot.lowerBound(live: key.live, windowStart: windowStart, length: length))
                if let d = attempt.1, d < windowStart + 60 { continue }
                result = attempt
                break
            }
            let (outcome, departure) = result ?? search(snapshot.lowerBound(live: key.live))
            guard let departure else { _ = try timed(outcome, departure: arrival); throw Failure(.noRoute(leg: 0)) }
            return (try timed(outcome, departure: departure), departure)
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
        let weights = timeDependent ? snapshot.lowerBound(live: key.live).metric.arcWeight : prepared.metric.arcWeight
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
