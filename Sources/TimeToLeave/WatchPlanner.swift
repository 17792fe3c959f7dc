import Foundation
import MapsAPI
import MapsAPIMapping
import GeoCore
import RoadNetwork
import RoutePlanning

/// Plans one watch on the planning engine: the latest departure on the watched route (its arcs
/// re-timed), the best route (offered when it beats the watched one), and lateness when the
/// arrival can no longer be met.
struct WatchPlanner {
    let planning: PlanningEngine
    let thresholdSeconds: Double

    enum Evaluation {
        case onTime(PlanState, offer: OfferState?, routeChanged: Bool)
        case late(PlanState, lateBy: Int, offer: OfferState?, routeChanged: Bool)
        case failed(APIError)
    }

    func request(_ spec: WatchSpec, _ timing: PlanRequest.Timing) -> PlanRequest {
        let stops = [spec.origin] + spec.waypoints + [spec.destination]
        var r = PlanRequest(waypoints: stops.map { Coordinate(latitude: $0.lat, longitude: $0.lon) }, mode: spec.travelMode)
        r.timing = timing
        r.routeType = spec.routeType
        r.avoid = Set(spec.avoid)
        r.traffic = spec.traffic
        return r
    }

    /// A route reduced to what a watch keeps: the numbers in whole seconds as TomTom's answer
    /// gives them (the departure rounded down, so leaving then is safe), the route as the
    /// document shows it, and its arcs.
    func state(_ route: TimedRoute, _ spec: WatchSpec) -> PlanState? {
        guard let graph = planning.graph(route.mode) else { return nil }
        var options = RouteDocumentOptions()
        options.traffic = spec.traffic
        let body = RouteBody(route, graph: graph, timeZone: planning.timeZone, options: options)
        let s = body.summary
        let departure = route.departure.rounded(.down)
        return PlanState(departure: departure, arrival: departure + Double(s.travelTimeInSeconds), travelTimeSeconds: s.travelTimeInSeconds,
                         noTrafficSeconds: s.noTrafficTravelTimeInSeconds, historicSeconds: s.historicTrafficTravelTimeInSeconds,
                         trafficDelaySeconds: s.trafficDelayInSeconds, lengthMeters: s.lengthInMeters, route: body, path: route.path)
    }

    /// The best route planned afresh.
    func plan(_ spec: WatchSpec, _ timing: PlanRequest.Timing) -> Result<PlanState, APIError> {
        let request = request(spec, timing)
        let outcome = planning.plan(request)
        guard let route = outcome.plan?.best else {
            return .failure(APIError(outcome, of: request, now: planning.clock().timeIntervalSince1970, timeZone: planning.timeZone,
                                     snapLimitMeters: planning.maxSnapDistanceMeters) ?? APIError(.internalError, "no plan"))
        }
        guard let state = state(route, spec) else { return .failure(APIError(.internalError, "the routing answer had no route")) }
        return .success(state)
    }

    func arriveBy(_ spec: WatchSpec) -> Result<PlanState, APIError> { plan(spec, .arriveBy(spec.arriveAt)) }

    func departNow(_ spec: WatchSpec, now: Double) -> Result<PlanState, APIError> { plan(spec, .departAt(now)) }

    func lateness(_ plan: PlanState, _ spec: WatchSpec) -> Int {
        max(0, Int((plan.arrival - spec.arriveAt).rounded(.up)))
    }

    /// Re-plans a watch whose watched route is `current` (nil: first plan).
    func evaluate(_ spec: WatchSpec, current: PlanState?, now: Double) -> Evaluation {
        let bestArrive = arriveBy(spec)
        var bestNowCache: Result<PlanState, APIError>?
        func bestNow() -> Result<PlanState, APIError> {
            if let cached = bestNowCache { return cached }
            let r = departNow(spec, now: now)
            bestNowCache = r
            return r
        }
        func late(_ plan: PlanState, offer: OfferState?, routeChanged: Bool) -> Evaluation {
            let by = lateness(plan, spec)
            return by > 0 ? .late(plan, lateBy: by, offer: offer, routeChanged: routeChanged)
                : .onTime(plan, offer: offer, routeChanged: routeChanged)
        }
        /// The best route, switched to (the watched one is gone, or there was none).
        func best(routeChanged: Bool) -> Evaluation {
            switch bestArrive {
            case .success(let p): return .onTime(p, offer: nil, routeChanged: routeChanged)
            case .failure(let e) where e.code != .noRouteFound: return .failed(e)
            case .failure:
                switch bestNow() {
                case .success(let p): return late(p, offer: nil, routeChanged: routeChanged)
                case .failure(let e): return .failed(e)
                }
            }
        }

        guard let current else { return best(routeChanged: false) }
        guard let path = current.path, planning.fits(path) else {
            // Stored before routes were kept as arcs, or the map was re-imported with other arcs:
            // re-planned, and a route change only when the best route drives other roads.
            let same = (try? bestArrive.get()).map { Self.sameRoads($0.route, current.route) } ?? false
            return best(routeChanged: !same)
        }
        if case .success(let p) = bestArrive, p.path.map(Self.arcs) == Self.arcs(path) {
            return .onTime(p, offer: nil, routeChanged: false)
        }
        if case .failure(let e) = bestArrive, e.code != .noRouteFound { return .failed(e) }
        // The watched route, re-timed: the latest departure on it (nil when a closure cuts it).
        if let departure = planning.latestDeparture(path, arrivingBy: spec.arriveAt, traffic: spec.traffic) {
            if departure >= now - 1 {
                if let timed = planning.time(path, departingAt: departure, traffic: spec.traffic), let mine = state(timed, spec) {
                    var offer: OfferState?
                    if case .success(let b) = bestArrive, b.departure - mine.departure >= thresholdSeconds {
                        offer = OfferState(plan: b, gainSeconds: Int(b.departure - mine.departure))
                    }
                    return .onTime(mine, offer: offer, routeChanged: false)
                }
            } else if let timed = planning.time(path, departingAt: now, traffic: spec.traffic), let mine = state(timed, spec) {
                // Too late on the watched route: how late, leaving now on it.
                var offer: OfferState?
                if case .success(let b) = bestArrive {
                    offer = OfferState(plan: b, gainSeconds: Int(mine.arrival - b.arrival))
                } else if case .success(let b) = bestNow(), mine.arrival - b.arrival >= thresholdSeconds {
                    offer = OfferState(plan: b, gainSeconds: Int(mine.arrival - b.arrival))
                }
                return late(mine, offer: offer, routeChanged: false)
            }
        }
        // The watched route can no longer be driven as it was (closed, or cut): take the best, and say so.
        return best(routeChanged: true)
    }

    static func arcs(_ path: RoutePath) -> [[Int]] { path.legs.map { $0.map(\.arc) } }

    /// Whether two routes drive the same roads: every point of each lies, in order, within 3 m of
    /// the other's line (for watches whose arcs no longer fit the graph).
    static func sameRoads(_ a: RouteBody, _ b: RouteBody, toleranceMeters: Double = 3) -> Bool {
        let la = Double(a.summary.lengthInMeters), lb = Double(b.summary.lengthInMeters)
        guard abs(la - lb) <= max(10, 0.02 * max(la, lb)) else { return false }
        func points(_ r: RouteBody) -> [Coordinate] {
            var out: [Coordinate] = []
            for p in r.legs.flatMap({ $0.points ?? [] }) {
                let c = Coordinate(latitude: p.latitude, longitude: p.longitude)
                if out.last != c { out.append(c) }
            }
            return out
        }
        func follows(_ points: [Coordinate], _ line: [Coordinate]) -> Bool {
            guard let first = line.first else { return points.isEmpty }
            if line.count == 1 { return points.allSatisfy { Geodesy.distanceMeters($0, first) <= toleranceMeters } }
            var segment = 0
            for p in points {
                guard let k = (segment..<(line.count - 1)).first(where: {
                    Geodesy.distanceMeters(p, Geodesy.project(p, ontoSegment: line[$0], line[$0 + 1]).point) <= toleranceMeters
                }) else { return false }
                segment = k
            }
            return true
        }
        let pa = points(a), pb = points(b)
        return follows(pa, pb) && follows(pb, pa)
    }
}
