import Foundation
import MapsAPI
import RoadNetwork
import Routing
import GeoCore

/// One route request worked out on one traffic snapshot: which algorithm, which metric, the
/// order of waypoints, alternatives, and the timing of everything.
///
/// - No departure or arrival given: leave now, route on the snapshot's weights for "now" with
///   the CCH (microseconds), then time the route exactly along the way.
/// - `departAt` with the fastest route type: exact time-dependent search (CH-potentials).
/// - `arriveAt` with the fastest route type: exact latest-departure search backwards.
/// - Other route types optimise their own metric on the snapshot (time of day does not change
///   what is shortest or curviest); `arriveAt` then inverts the timing along that route.
struct RouteCalculation {
    let engine: RoutingEngine
    let snapshot: TrafficSnapshot
    let query: RouteQuery
    let now: Date

    struct Outcome {
        var routes: [Route]
        var departures: [Double]
        var order: [Int]?
        var usedAvoided: [Avoidance]
    }

    var graph: RoadGraph { engine.graph }
    var planner: RoutePlanner {
        var p = engine.core.planner
        p.waypointUTurns = query.continueStraight.map { $0 ? .avoided : .free } ?? .penalized
        return p
    }
    var key: MetricKey {
        MetricKey(routeType: query.routeType, avoid: query.avoid, strict: query.strictAvoid, windingness: query.windingness,
                  live: query.traffic && graph.mode.usesTraffic)
    }
    var table: TravelTimeTable { key.live ? snapshot.table : snapshot.historicalTable }

    func run() throws(APIError) -> Outcome {
        let (endpoints, inSmallPiece) = try snapEndpoints()
        // Like OSRM, which hands both candidates to its search: when a point's nearest road lies in a
        // small piece of the network (a one-way pocket an extract's edge cut off), route to or from
        // that road if the piece is reachable that way, and from the large part otherwise.
        if let inSmallPiece, let outcome = try? run(inSmallPiece) { return outcome }
        return try run(endpoints)
    }

    func run(_ snapped: [RouteEndpoint]) throws(APIError) -> Outcome {
        var endpoints = snapped
        var order: [Int]?
        if query.computeBestOrder && endpoints.count > 3 {
            order = try bestOrder(endpoints)
            endpoints = order!.map { endpoints[$0] }
        }
        let prepared = snapshot.prepared(key)
        let nowSeconds = now.timeIntervalSince1970
        var routes: [Route] = []
        var departures: [Double] = []
        if let arriveAt = query.arriveAt {
            let arrival = arriveAt.timeIntervalSince1970
            guard arrival > nowSeconds else {
                throw APIError.badInput("arriveAt \(RFC3339.format(arriveAt, in: engine.core.model.timeZone)) is in the past; choose a later arrival time", parameter: "arriveAt")
            }
            let (best, departure) = try arriveBy(endpoints, arrival: arrival, prepared: prepared)
            guard departure >= nowSeconds - 1 else {
                throw APIError(.noRouteFound, "No routes found satisfying requested time. Please choose different arrival time and try again. (The fastest route needs \(Int((arrival - departure) / 60)) min; leaving now arrives \(Int((nowSeconds - departure) / 60)) min late.)")
            }
            routes = [best]
            departures = [departure]
            for alternative in alternatives(best, endpoints: endpoints, prepared: prepared, departure: nil) {
                guard let d = latestDeparture(alternative, arrival: arrival), d >= nowSeconds else { continue }
                routes.append(alternative)
                departures.append(d)
            }
        } else {
            let departure = (query.departAt ?? now).timeIntervalSince1970
            let explicitTime = query.departAt != nil
            let best: Route
            if explicitTime && query.routeType == .fastest && graph.mode.usesTraffic {
                best = try departAt(endpoints, departure: departure, penalty: avoidancePenalty())
            } else {
                best = try staticRoute(endpoints, prepared: prepared)
            }
            routes = [best]
            departures = [departure]
            for alternative in alternatives(best, endpoints: endpoints, prepared: prepared,
                                            departure: explicitTime && query.routeType == .fastest ? departure : nil) {
                routes.append(alternative)
                departures.append(departure)
            }
        }
        return Outcome(routes: routes, departures: departures, order: order, usedAvoided: usedAvoidances(routes[0]))
    }

    // MARK: Endpoints and order

    /// Each waypoint on the road it should start from: the nearest in the large connected part of
    /// the network; and, when some waypoint's nearest road of all lies in a small piece instead,
    /// the waypoints on those nearest roads too (`inSmallPiece`), for `run` to try first.
    func snapEndpoints() throws(APIError) -> (endpoints: [RouteEndpoint], inSmallPiece: [RouteEndpoint]?) {
        var endpoints: [RouteEndpoint] = []
        var small: [RouteEndpoint] = []
        var usesSmall = false
        for (i, w) in query.waypoints.enumerated() {
            let candidates = graph.snapCandidates(w, maxDistanceMeters: planner.maxSnapDistanceMeters)
            guard var snap = candidates.large ?? candidates.nearest else {
                throw APIError(.mapMatchingFailure, "\(MapsService.waypointName(i, of: query.waypoints.count)) (\(w.formatted(decimals: 6))) is not near any road usable by \(graph.mode.rawValue) (limit \(Int(planner.maxSnapDistanceMeters)) m)", parameter: "locations")
            }
            // A point at a closed or avoided road prefers another road about as near (at a
            // junction, say), if there is one.
            if isUndesirable(snap.edge),
               let other = graph.snap(w, maxDistanceMeters: snap.distanceMeters + 25, excluding: isUndesirable) {
                snap = other
            }
            let chosen = endpoint(i, w, snap)
            endpoints.append(chosen)
            if let near = candidates.nearest, near.inSmallComponent, near.edge != snap.edge, !isUndesirable(near.edge) {
                small.append(endpoint(i, w, near))
                usesSmall = true
            } else {
                small.append(chosen)
            }
        }
        return (endpoints, usesSmall ? small : nil)
    }

    func endpoint(_ i: Int, _ w: Coordinate, _ snap: Snap) -> RouteEndpoint {
        var endpoint = RouteEndpoint(input: w, snap: snap, graph: graph)
        // A moving origin keeps going the way it heads (within 90°) when the road allows.
        if i == 0, let heading = query.vehicleHeading {
            let matching = endpoint.positions.filter {
                abs(Geodesy.turnAngle(from: heading, to: arcBearing($0.arc))) <= 90
            }
            if !matching.isEmpty { endpoint.positions = matching }
        }
        return endpoint
    }

    /// Closed now, or of a kind the query avoids.
    func isUndesirable(_ edge: EdgeID) -> Bool {
        if isClosed(edge) { return true }
        let kinds = query.avoid.subtracting([.alreadyUsedRoads])
        guard !kinds.isEmpty else { return false }
        let way = graph.edgeWay[edge.index].index
        let flags = graph.wayFlags[way], cls = graph.wayClass[way]
        return (kinds.contains(.tollRoads) && flags.contains(.toll)) || (kinds.contains(.ferries) && flags.contains(.ferry))
            || (kinds.contains(.unpavedRoads) && flags.contains(.unpaved)) || (kinds.contains(.motorways) && (cls.isMotorway || flags.contains(.motorroad)))
    }

    /// Whether every usable direction of an edge is closed right now.
    func isClosed(_ edge: EdgeID) -> Bool {
        guard key.live, snapshot.closedArcCount > 0 else { return false }
        let time = now.timeIntervalSince1970
        let arcs = [graph.edgeArcs[edge.index * 2], graph.edgeArcs[edge.index * 2 + 1]].filter { !$0.isNone }
        return !arcs.isEmpty && arcs.allSatisfy { snapshot.table.isClosed($0.index, at: time) }
    }

    func arcBearing(_ arc: ArcID) -> Double {
        let shape = graph.shape(of: arc)
        return Geodesy.bearingDegrees(from: shape[0], to: shape[shape.count - 1])
    }

    func bestOrder(_ endpoints: [RouteEndpoint]) throws(APIError) -> [Int] {
        let prepared = snapshot.prepared(key)
        var cost = [[Double?]](repeating: [Double?](repeating: nil, count: endpoints.count), count: endpoints.count)
        for i in endpoints.indices {
            for j in endpoints.indices where i != j && j != 0 && i != endpoints.count - 1 {
                let outcome = withStaticSearch(prepared) { search in planner.route([endpoints[i], endpoints[j]], using: &search) }
                cost[i][j] = outcome.route.map { Double($0.cost) }
            }
        }
        guard let order = WaypointOrder.best(cost: cost) else {
            throw APIError(.noRouteFound, "no order of the waypoints can be driven by \(graph.mode.rawValue)")
        }
        return order
    }

    // MARK: Searches

    /// Runs `body` with the hierarchy's search, or plain Dijkstra for a dataset without one.
    func withStaticSearch(_ prepared: PreparedMetric, _ body: (inout StaticSearch) -> RouteOutcome) -> RouteOutcome {
        guard let cch = prepared.cch else {
            return engine.searchScratch.withScratch { scratch in
                var search = StaticSearch.dijkstra(DijkstraLegSearch(graph: graph, metric: prepared.metric, scratch: scratch))
                return body(&search)
            }
        }
        return engine.cchScratch.withScratch { scratch in
            var search = StaticSearch.cch(CCHLegSearch(graph: graph, metric: prepared.metric, cch: cch, scratch: scratch))
            return body(&search)
        }
    }

    func staticRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric) throws(APIError) -> Route {
        let outcome: RouteOutcome
        if query.avoid.contains(.alreadyUsedRoads) {
            outcome = penalizedRoute(endpoints, prepared: prepared, penalty: [], usedRoadPenalty: true)
        } else {
            outcome = withStaticSearch(prepared) { search in planner.route(endpoints, using: &search) }
        }
        return try timedRoute(outcome, departure: (query.departAt ?? now).timeIntervalSince1970)
    }

    /// A static route with extra entry costs (alternatives, alreadyUsedRoads), A* on the metric's CCH.
    func penalizedRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric, penalty: [UInt32], usedRoadPenalty: Bool) -> RouteOutcome {
        prepared.withPotential(towardsTargets: true) { potential in
            engine.timeDependentScratch.withScratch { scratch in
                guard let potential else { return .noRoute(leg: 0) }
                var search = UsedRoadsSearch(inner: AStarLegSearch(graph: graph, metric: prepared.metric, potential: potential,
                                                                   penalty: penalty, scratch: scratch),
                                             penalizeUsed: usedRoadPenalty, strict: query.strictAvoid)
                return planner.route(endpoints, using: &search)
            }
        }
    }

    func departAt(_ endpoints: [RouteEndpoint], departure: Double, penalty: [UInt32]) throws(APIError) -> Route {
        let outcome = timeDependentRoute(endpoints, departure: departure, penalty: penalty)
        return try timedRoute(outcome, departure: departure)
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

    func arriveBy(_ endpoints: [RouteEndpoint], arrival: Double, prepared: PreparedMetric) throws(APIError) -> (Route, Double) {
        if query.routeType == .fastest && query.avoid.isEmpty && graph.mode.usesTraffic {
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
            guard let departure else { _ = try timedRoute(outcome, departure: arrival); throw APIError(.noRouteFound, "no route") }
            return (try timedRoute(outcome, departure: departure), departure)
        }
        // Other metrics: the best route by that metric, then the latest departure along it.
        let route = try staticRoute(endpoints, prepared: prepared)
        guard let departure = latestDeparture(route, arrival: arrival) else {
            throw APIError(.noRouteFound, "No routes found satisfying requested time. Please choose different arrival time and try again.")
        }
        guard let timed = RouteTiming.timed(route, graph: graph, table: table, departure: departure) else {
            throw APIError(.noRouteFound, "the route is closed at the time it would be driven")
        }
        return (timed, departure)
    }

    /// The latest departure that drives a fixed route and arrives by `arrival`.
    func latestDeparture(_ route: Route, arrival: Double) -> Double? {
        var t = arrival
        for leg in route.legs.reversed() {
            for piece in leg.pieces.reversed() {
                let covered = max(0, piece.toFraction - piece.fromFraction)
                guard let entry = table.latestEntry(graph.arcOriginal[piece.arc.index].index, exit: t, fraction: covered) else { return nil }
                t = entry - piece.turnSeconds
            }
        }
        return t
    }

    func timedRoute(_ outcome: RouteOutcome, departure: Double) throws(APIError) -> Route {
        switch outcome {
        case .noSegment(let index, let c):
            throw APIError(.mapMatchingFailure, "\(MapsService.waypointName(index, of: query.waypoints.count)) (\(c.formatted(decimals: 6))) is not near any road usable by \(graph.mode.rawValue)", parameter: "locations")
        case .noRoute(let leg):
            var message = "no \(graph.mode.rawValue) route from \(MapsService.waypointName(leg, of: query.waypoints.count)) to \(MapsService.waypointName(leg + 1, of: query.waypoints.count))"
            if query.strictAvoid && !query.avoid.isEmpty { message += " that avoids \(query.avoid.map(\.rawValue).sorted().joined(separator: ", "))" }
            throw APIError(.noRouteFound, message)
        case .found(let route):
            guard let timed = RouteTiming.timed(route, graph: graph, table: table, departure: departure) else {
                throw APIError(.noRouteFound, "the route is closed at the time it would be driven")
            }
            return timed
        }
    }

    // MARK: Alternatives

    func alternatives(_ best: Route, endpoints: [RouteEndpoint], prepared: PreparedMetric, departure: Double?) -> [Route] {
        let wanted = min(query.maxAlternatives, ServiceLimits.ceilings.maxAlternatives)
        guard wanted > 0 else { return [] }
        let timeDependent = departure != nil
        let weights = timeDependent ? snapshot.lowerBound(live: key.live).metric.arcWeight : prepared.metric.arcWeight
        let base = avoidancePenalty()
        let startTime = departure ?? (query.departAt ?? now).timeIntervalSince1970
        let found = AlternativeRoutes().find(
            graph: graph, best: best, count: wanted, arcWeight: weights,
            solve: { penalty in
                let combined = base.isEmpty ? penalty : zip(base, penalty).map { Metric.add($0, $1) }
                let outcome = timeDependent ? timeDependentRoute(endpoints, departure: startTime, penalty: combined)
                    : penalizedRoute(endpoints, prepared: prepared, penalty: combined, usedRoadPenalty: query.avoid.contains(.alreadyUsedRoads))
                return outcome.route.flatMap { RouteTiming.timed($0, graph: graph, table: table, departure: startTime) }
            },
            cost: { route in timeDependent ? route.durationSeconds : Double(metricCost(route, prepared.metric)) },
            localCost: { route in Double(metricCost(route, prepared.metric)) },
            shortest: { from, to in shortestCost(from, to, prepared: prepared) })
        return found
    }

    func shortestCost(_ from: ArcPosition, _ to: ArcPosition, prepared: PreparedMetric) -> Double? {
        guard let cch = prepared.cch else { return nil }
        let cost = engine.cchScratch.withScratch { scratch -> UInt32? in
            var search = CCHLegSearch(graph: graph, metric: prepared.metric, cch: cch, scratch: scratch)
            search.unpacksPaths = false
            return search.solve(LegProblem(sources: [.init(position: from, cost: 0)], targets: [to])).paths[0]?.cost
        }
        return cost.map(Double.init)
    }

    /// The metric's cost of a route: partial first and last arcs, whole arcs and turns between.
    func metricCost(_ route: Route, _ metric: Metric) -> UInt64 {
        var total: UInt64 = 0
        for leg in route.legs {
            for (i, piece) in leg.pieces.enumerated() {
                let covered = max(0, piece.toFraction - piece.fromFraction)
                total += UInt64((Double(metric.arcWeight[piece.arc.index]) * covered).rounded())
                if i > 0 {
                    let previous = leg.pieces[i - 1].arc
                    if let t = graph.turns(from: previous).first(where: { graph.arcOriginal[graph.turnTarget[$0].index] == piece.arc }) {
                        total += UInt64(metric.turnWeight[t] &- min(metric.turnWeight[t], metric.arcWeight[piece.arc.index]))
                    }
                }
            }
        }
        return total
    }

    // MARK: Avoidances

    /// Per-arc entry penalties for avoided roads in time-dependent searches (ms).
    func avoidancePenalty() -> [UInt32] {
        let kinds = query.avoid.subtracting([.alreadyUsedRoads])
        guard !kinds.isEmpty else { return [] }
        let avoided = MetricFactory.avoidedArcs(graph, kinds.sorted())
        return avoided.map { $0 ? (query.strictAvoid ? UInt32.max : 1_800_000) : 0 }
    }

    /// Avoided kinds the chosen route still uses (soft avoidance had no other way).
    func usedAvoidances(_ route: Route) -> [Avoidance] {
        let kinds = query.avoid.subtracting([.alreadyUsedRoads]).sorted()
        return kinds.filter { kind in
            let avoided = MetricFactory.avoidedArcs(graph, [kind])
            return route.legs.contains { $0.pieces.contains { avoided[$0.arc.index] && $0.lengthMeters > 1 } }
        }
    }
}

/// Wraps a search so that, leg after leg, roads already driven get a heavy penalty (TomTom's
/// `avoid=alreadyUsedRoads`): 30 minutes' worth of weight on entering them, or never with strict.
struct UsedRoadsSearch: LegSearch {
    var inner: AStarLegSearch
    let penalizeUsed: Bool
    let strict: Bool

    mutating func solve(_ problem: LegProblem) -> LegSolution {
        let solution = inner.solve(problem)
        guard penalizeUsed else { return solution }
        if inner.penalty.isEmpty { inner.penalty = [UInt32](repeating: 0, count: inner.graph.arcCount) }
        for path in solution.paths.compactMap({ $0 }) {
            for arc in path.arcs.dropFirst().dropLast() {
                let original = inner.graph.arcOriginal[arc.index]
                for a in [original, inner.graph.twin(of: original)] where !a.isNone {
                    inner.penalty[a.index] = strict ? Metric.infinite : Metric.add(inner.penalty[a.index], 1_800_000)
                }
            }
        }
        return solution
    }
}

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
