import Foundation
import MapsAPI
import MapsService
import GeoCore
import RoadNetwork
import Routing

/// The road edges a route drives, in order, with one pin point inside each: routing through the
/// pins reproduces the route, and the edges tell whether a traffic update touches it.
struct RouteTrace: Sendable {
    var edges: [Int]
    var pins: [Coordinate]
    var edgeSet: Set<Int>
    /// OSM node pairs driven, in travel direction, except a first or last one that the origin or
    /// destination lies inside (routes may leave or reach their own point even on a closed road).
    var innerSegments: Set<OSMSegment>

    /// Most pins a pinned query carries (TomTom's limit is 150 locations, origin and destination included).
    static let maxPins = 148

    init(_ route: RouteBody, graph: RoadGraph) {
        let points = RouteTrace.points(route)
        var edges: [Int] = []
        var pins: [Coordinate] = []
        var best: [Double] = []
        var segments: [OSMSegment] = []
        for i in 0..<max(0, points.count - 1) {
            let a = points[i], b = points[i + 1]
            let length = Geodesy.distanceMeters(a, b)
            guard length >= 0.5 else { continue }
            let mid = Geodesy.interpolate(a, b, 0.5)
            guard let snap = graph.snap(mid, maxDistanceMeters: 4) else { continue }
            let edge = snap.edge.index
            // The OSM nodes of the shape segment, in the direction the route drives it.
            let s0 = graph.shapeCoordinates[snap.segment], s1 = graph.shapeCoordinates[snap.segment + 1]
            let forward = (b.latitude - a.latitude) * (s1.latitude - s0.latitude) + (b.longitude - a.longitude) * (s1.longitude - s0.longitude) >= 0
            let n0 = graph.shapeOSMIDs[snap.segment], n1 = graph.shapeOSMIDs[snap.segment + 1]
            let end = i == 0 ? a : i == points.count - 2 ? b : nil
            let insideEnd = end.map { min(Geodesy.distanceMeters($0, s0), Geodesy.distanceMeters($0, s1)) > 1.5 } ?? false
            if !insideEnd { segments.append(forward ? OSMSegment(from: n0, to: n1) : OSMSegment(from: n1, to: n0)) }
            if edges.last == edge {
                // One pin per edge, in its longest piece (the most certain to snap back to it).
                if length > best[best.count - 1] { pins[pins.count - 1] = mid; best[best.count - 1] = length }
            } else {
                edges.append(edge)
                pins.append(mid)
                best.append(length)
            }
        }
        if pins.count > Self.maxPins {
            // Long routes: evenly spaced pins (the route between them is then the best one, not
            // necessarily the watched one; exact up to 148 edges).
            let step = Double(pins.count - 1) / Double(Self.maxPins - 1)
            pins = (0..<Self.maxPins).map { pins[Int((Double($0) * step).rounded())] }
        }
        self.edges = edges
        self.pins = pins
        edgeSet = Set(edges)
        innerSegments = Set(segments)
    }

    /// Whether a closure in force at `time` lies on the route (away from its ends).
    func isClosed(by closures: [OSMSegment: Double], at time: Double) -> Bool {
        guard !closures.isEmpty else { return false }
        return innerSegments.contains { (closures[$0] ?? 0) > time }
    }

    /// The route's points, legs joined, repeated points dropped.
    static func points(_ route: RouteBody) -> [Coordinate] {
        var out: [Coordinate] = []
        for leg in route.legs {
            for p in leg.points ?? [] {
                let c = Coordinate(latitude: p.latitude, longitude: p.longitude)
                if out.last != c { out.append(c) }
            }
        }
        return out
    }

    /// Whether two routes drive the same roads: every point of each lies, in order, within
    /// `toleranceMeters` of the other's line (pins add points on the line, they change nothing).
    static func samePath(_ a: RouteBody, _ b: RouteBody, toleranceMeters: Double = 3) -> Bool {
        let la = Double(a.summary.lengthInMeters), lb = Double(b.summary.lengthInMeters)
        guard abs(la - lb) <= max(10, 0.02 * max(la, lb)) else { return false }
        let pa = points(a), pb = points(b)
        return follows(pa, pb, toleranceMeters) && follows(pb, pa, toleranceMeters)
    }

    private static func follows(_ points: [Coordinate], _ line: [Coordinate], _ tolerance: Double) -> Bool {
        guard let first = line.first else { return points.isEmpty }
        if line.count == 1 { return points.allSatisfy { Geodesy.distanceMeters($0, first) <= tolerance } }
        var segment = 0
        for p in points {
            var k = segment
            var found = false
            while k < line.count - 1 {
                let projected = Geodesy.project(p, ontoSegment: line[k], line[k + 1]).point
                if Geodesy.distanceMeters(p, projected) <= tolerance { found = true; break }
                k += 1
            }
            guard found else { return false }
            segment = k
        }
        return true
    }
}

/// A directed pair of OSM nodes (how live traffic names a road segment).
struct OSMSegment: Hashable, Sendable {
    var from: Int64
    var to: Int64
}

/// Plans one watch against the maps service: the latest departure on the watched route, the
/// best route (offered when it beats the watched one), and lateness when the arrival can no
/// longer be met.
struct WatchPlanner {
    let maps: MapsService
    let thresholdSeconds: Double
    /// Live closures in force: segment → until (seconds since 1970).
    var closures: [OSMSegment: Double] = [:]

    enum Evaluation {
        case onTime(PlanState, offer: OfferState?, routeChanged: Bool)
        case late(PlanState, lateBy: Int, offer: OfferState?, routeChanged: Bool)
        case failed(APIError)
    }

    func query(_ spec: WatchSpec, through pins: [Coordinate]? = nil) -> RouteQuery {
        let origin = Coordinate(latitude: spec.origin.lat, longitude: spec.origin.lon)
        let destination = Coordinate(latitude: spec.destination.lat, longitude: spec.destination.lon)
        let stops = pins ?? spec.waypoints.map { Coordinate(latitude: $0.lat, longitude: $0.lon) }
        var q = RouteQuery(waypoints: [origin] + stops + [destination], mode: spec.travelMode)
        q.routeType = spec.routeType
        q.avoid = Set(spec.avoid)
        q.traffic = spec.traffic
        q.representation = .polyline
        return q
    }

    /// One route from the service, reduced to what a watch keeps.
    func plan(_ query: RouteQuery) -> Result<PlanState, APIError> {
        do {
            let response = try maps.calculateRoute(query)
            guard let route = response.routes.first,
                  let departure = RFC3339.parse(route.summary.departureTime, defaultTimeZone: maps.timeZone),
                  let arrival = RFC3339.parse(route.summary.arrivalTime, defaultTimeZone: maps.timeZone) else {
                return .failure(APIError(.internalError, "the routing answer had no route"))
            }
            let s = route.summary
            return .success(PlanState(departure: departure.timeIntervalSince1970, arrival: arrival.timeIntervalSince1970,
                                      travelTimeSeconds: s.travelTimeInSeconds, noTrafficSeconds: s.noTrafficTravelTimeInSeconds,
                                      historicSeconds: s.historicTrafficTravelTimeInSeconds,
                                      trafficDelaySeconds: s.trafficDelayInSeconds, lengthMeters: s.lengthInMeters, route: route))
        } catch {
            return .failure(error)
        }
    }

    func arriveBy(_ spec: WatchSpec, through pins: [Coordinate]? = nil) -> Result<PlanState, APIError> {
        var q = query(spec, through: pins)
        q.arriveAt = Date(timeIntervalSince1970: spec.arriveAt)
        return plan(q)
    }

    func departNow(_ spec: WatchSpec, now: Double, through pins: [Coordinate]? = nil) -> Result<PlanState, APIError> {
        var q = query(spec, through: pins)
        q.departAt = Date(timeIntervalSince1970: now)
        return plan(q)
    }

    /// The numbers of a pinned plan on the watched route's own geometry.
    func merged(_ pinned: PlanState, onto route: RouteBody) -> PlanState {
        var plan = pinned
        var body = route
        body.summary = pinned.route.summary
        if body.legs.count == 1 { body.legs[0].summary = pinned.route.summary }
        plan.route = body
        return plan
    }

    func lateness(_ plan: PlanState, _ spec: WatchSpec) -> Int {
        max(0, Int((plan.arrival - spec.arriveAt).rounded(.up)))
    }

    /// Re-plans a watch whose watched route is `current` (nil: first plan).
    func evaluate(_ spec: WatchSpec, current: RouteBody?, trace: RouteTrace?, now: Double) -> Evaluation {
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

        guard let current, let trace else { return best(routeChanged: false) }
        if case .success(let p) = bestArrive, RouteTrace.samePath(p.route, current) {
            return .onTime(p, offer: nil, routeChanged: false)
        }
        if case .failure(let e) = bestArrive, e.code != .noRouteFound { return .failed(e) }
        if !trace.pins.isEmpty {
            switch arriveBy(spec, through: trace.pins) {
            case .success(let p) where RouteTrace.samePath(p.route, current) && !trace.isClosed(by: closures, at: p.departure):
                // (Pinned legs may cross a closed road: each pin is a leg end, which the router lets through.)
                let mine = merged(p, onto: current)
                var offer: OfferState?
                if case .success(let b) = bestArrive, b.departure - mine.departure >= thresholdSeconds {
                    offer = OfferState(plan: b, gainSeconds: Int(b.departure - mine.departure))
                }
                return .onTime(mine, offer: offer, routeChanged: false)
            case .failure(let e) where e.code == .noRouteFound:
                // Too late on the watched route: how late, leaving now on it?
                if case .success(let p) = departNow(spec, now: now, through: trace.pins), RouteTrace.samePath(p.route, current),
                   !trace.isClosed(by: closures, at: now) {
                    let mine = merged(p, onto: current)
                    var offer: OfferState?
                    if case .success(let b) = bestArrive {
                        offer = OfferState(plan: b, gainSeconds: Int(mine.arrival - b.arrival))
                    } else if case .success(let b) = bestNow(), mine.arrival - b.arrival >= thresholdSeconds {
                        offer = OfferState(plan: b, gainSeconds: Int(mine.arrival - b.arrival))
                    }
                    return late(mine, offer: offer, routeChanged: false)
                }
            default:
                break
            }
        }
        // The watched route can no longer be driven as it was (closed, or cut): take the best, and say so.
        return best(routeChanged: true)
    }
}
