import Foundation
import RoadNetwork
import Routing
import GeoCore

/// One plan request worked out on one traffic snapshot: which algorithm, which metric, the order
/// of waypoints, alternatives, and the timing of everything (RoutingKit's explicit phases: snap,
/// order, search, time).
///
/// - Leave now: route on the snapshot's weights for "now" with the CCH (microseconds), then time
///   the route exactly along the way.
/// - `departAt` with the fastest route type: exact time-dependent search (CH-potentials).
/// - `arriveBy` with the fastest route type: exact latest-departure search backwards.
/// - Other route types optimise their own metric on the snapshot (time of day does not change
///   what is shortest or curviest); `arriveBy` then inverts the timing along that route.
struct RouteCalculation {
    let engine: RoutingEngine
    let snapshot: TrafficSnapshot
    let request: PlanRequest
    /// Seconds since 1970.
    let now: Double

    /// A calculation that ends without routes, with the outcome that says why.
    struct Failure: Error {
        var outcome: PlanOutcome
        init(_ outcome: PlanOutcome) { self.outcome = outcome }
    }

    struct Outcome {
        var routes: [Route]
        var departures: [Double]
        var order: [Int]?
        var usedAvoided: [Avoidance]
    }

    var graph: RoadGraph { engine.graph }
    var planner: RoutePlanner {
        var p = engine.core.planner
        p.waypointUTurns = request.waypointUTurns
        return p
    }
    var key: MetricKey {
        MetricKey(routeType: request.routeType, avoid: request.avoid, strict: request.strictAvoid, windingness: request.windingness,
                  live: request.traffic && graph.mode.usesTraffic, speedCapKmh: request.vehicleMaxSpeedKmh)
    }
    /// The vehicle's top speed, as the tables time it (nil: none).
    var speedCap: TravelTimeTable.SpeedCap? {
        request.vehicleMaxSpeedKmh > 0 ? TravelTimeTable.SpeedCap(graph, kmh: Double(request.vehicleMaxSpeedKmh)) : nil
    }
    var table: TravelTimeTable { (key.live ? snapshot.table : snapshot.historicalTable).capped(speedCap) }
    var rules: AvoidanceRules { AvoidanceRules(graph: graph, avoid: request.avoid, strict: request.strictAvoid) }

    /// The departure given, or now.
    var departAt: Double? {
        if case .departAt(let t) = request.timing { return t }
        return nil
    }
    var arriveBy: Double? {
        if case .arriveBy(let t) = request.timing { return t }
        return nil
    }

    func run() throws(Failure) -> Outcome {
        let (endpoints, inSmallPiece) = try snapEndpoints()
        // Like OSRM, which hands both candidates to its search: when a point's nearest road lies in a
        // small piece of the network (a one-way pocket an extract's edge cut off), route to or from
        // that road if the piece is reachable that way, and from the large part otherwise.
        if let inSmallPiece, let outcome = try? run(inSmallPiece) { return outcome }
        return try run(endpoints)
    }

    func run(_ snapped: [RouteEndpoint]) throws(Failure) -> Outcome {
        var endpoints = snapped
        var order: [Int]?
        if request.computeBestOrder && endpoints.count > 3 {
            order = try bestOrder(endpoints)
            endpoints = order!.map { endpoints[$0] }
        }
        let prepared = snapshot.prepared(key)
        var routes: [Route] = []
        var departures: [Double] = []
        if let arrival = arriveBy {
            guard arrival > now else { throw Failure(.arrivalPassed) }
            let (best, departure) = try arriveBy(endpoints, arrival: arrival, prepared: prepared)
            guard departure >= now - 1 else { throw Failure(.arrivalUnmeetable(latestDeparture: departure)) }
            routes = [best]
            departures = [departure]
            for alternative in alternatives(best, endpoints: endpoints, prepared: prepared, departure: nil) {
                guard let d = latestDeparture(alternative, arrival: arrival), d >= now else { continue }
                routes.append(alternative)
                departures.append(d)
            }
        } else {
            let departure = departAt ?? now
            let explicitTime = departAt != nil
            let best: Route
            if explicitTime && searchesByTime {
                best = try timed(timeDependentRoute(endpoints, departure: departure, penalty: rules.entryPenaltyMs()), departure: departure)
            } else {
                best = try staticRoute(endpoints, prepared: prepared)
            }
            routes = [best]
            departures = [departure]
            for alternative in alternatives(best, endpoints: endpoints, prepared: prepared,
                                            departure: explicitTime && searchesByTime ? departure : nil) {
                routes.append(alternative)
                departures.append(departure)
            }
        }
        // No route passes through a restricted area from open road to open road; when the best
        // one still must, there is none (the points are then in pieces of their own, which
        // snapping avoids: `GraphAssembly.flagSmallComponents`).
        if let leg = RestrictedPassage.legPassingThrough(routes[0], graph: graph) { throw Failure(.noRoute(leg: leg)) }
        let kept = routes.indices.filter { RestrictedPassage.legPassingThrough(routes[$0], graph: graph) == nil }
        routes = kept.map { routes[$0] }
        departures = kept.map { departures[$0] }
        return Outcome(routes: routes, departures: departures, order: order, usedAvoided: rules.usedAvoidances(routes[0]))
    }

    // MARK: Endpoints and order

    /// Each waypoint on the road it should start from: the nearest in the large connected part of
    /// the network; and, when some waypoint's nearest road of all lies in a small piece instead,
    /// the waypoints on those nearest roads too (`inSmallPiece`), for `run` to try first.
    func snapEndpoints() throws(Failure) -> (endpoints: [RouteEndpoint], inSmallPiece: [RouteEndpoint]?) {
        var endpoints: [RouteEndpoint] = []
        var small: [RouteEndpoint] = []
        var usesSmall = false
        for (i, w) in request.waypoints.enumerated() {
            let rule = snapping(i)
            let candidates = snapCandidates(w, rule)
            guard var snap = RoadGraph.preferred(candidates) else { throw Failure(.noSegment(waypoint: i)) }
            // A point at a closed or avoided road prefers another road about as near (at a
            // junction, say), if there is one.
            if isUndesirable(snap.edge), rule.bearing == nil,
               let other = graph.snap(w, maxDistanceMeters: min(snap.distanceMeters + 25, snapLimit(rule)), excluding: isUndesirable) {
                snap = other
            }
            var chosen = endpoint(i, w, snap)
            if let far = fallbackSnap(w, rule, candidates) {
                chosen = endpoint(i, w, far)
                chosen.movedOffUnreachablePiece = true
            }
            endpoints.append(chosen)
            // A piece that only a ferry reaches is not tried: `preferred` already chose between it and the large part.
            if let near = candidates.nearest, near.inSmallComponent, !near.inFerryOnlyPiece, near.edge != chosen.snap.edge,
               !isUndesirable(near.edge) {
                small.append(endpoint(i, w, near))
                usesSmall = true
            } else {
                small.append(chosen)
            }
        }
        return (endpoints, usesSmall ? small : nil)
    }

    func endpoint(_ i: Int, _ w: Coordinate, _ snap: Snap) -> RouteEndpoint {
        var endpoint = snapping(i).endpoint(w, snap, graph: graph, atJunction: true)
        // The junction's other roads, unless closed now or of a kind the request avoids (a route
        // may start on its own road when that is closed, never on another one).
        endpoint.positions.removeAll { graph.edge(of: $0.arc) != snap.edge && isUndesirable(graph.edge(of: $0.arc)) }
        // A moving origin keeps going the way it heads (within 90°) when the road allows.
        if i == 0, let heading = request.vehicleHeading {
            let matching = endpoint.positions.filter {
                abs(Geodesy.turnAngle(from: heading, to: arcBearing($0.arc))) <= 90
            }
            if !matching.isEmpty { endpoint.positions = matching }
        }
        return endpoint
    }

    /// Closed now, or of a kind the request avoids.
    func isUndesirable(_ edge: EdgeID) -> Bool {
        isClosed(edge) || rules.avoidsEdge(edge)
    }

    /// Whether every usable direction of an edge is closed right now.
    func isClosed(_ edge: EdgeID) -> Bool {
        guard key.live, snapshot.closedArcCount > 0 else { return false }
        let arcs = [graph.edgeArcs[edge.index * 2], graph.edgeArcs[edge.index * 2 + 1]].filter { !$0.isNone }
        return !arcs.isEmpty && arcs.allSatisfy { snapshot.table.isClosed($0.index, at: now) }
    }

    func arcBearing(_ arc: ArcID) -> Double {
        let shape = graph.shape(of: arc)
        return Geodesy.bearingDegrees(from: shape[0], to: shape[shape.count - 1])
    }

    func bestOrder(_ endpoints: [RouteEndpoint]) throws(Failure) -> [Int] {
        let prepared = snapshot.prepared(key)
        var cost = [[Double?]](repeating: [Double?](repeating: nil, count: endpoints.count), count: endpoints.count)
        for i in endpoints.indices {
            for j in endpoints.indices where i != j && j != 0 && i != endpoints.count - 1 {
                let outcome = engine.withStaticSearch(prepared) { search in planner.route([endpoints[i], endpoints[j]], using: &search) }
                cost[i][j] = outcome.route.map { Double($0.cost) }
            }
        }
        guard let order = WaypointOrder.best(cost: cost) else { throw Failure(.noWaypointOrder) }
        return order
    }

    // MARK: Timing

    /// The latest departure that drives a fixed route and arrives by `arrival`.
    func latestDeparture(_ route: Route, arrival: Double) -> Double? {
        RouteClock(graph: graph, table: table).latestDeparture(route, arrival: arrival)
    }

    /// A search's route timed on the table from `departure`.
    func timed(_ outcome: RouteOutcome, departure: Double) throws(Failure) -> Route {
        switch outcome {
        case .noSegment(let index, _): throw Failure(.noSegment(waypoint: index))
        case .noRoute(let leg): throw Failure(.noRoute(leg: leg))
        case .found(let route):
            guard let timed = RouteTiming.timed(route, graph: graph, table: table, departure: departure) else { throw Failure(.closed) }
            return timed
        }
    }
}
