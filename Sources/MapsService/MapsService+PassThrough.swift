import MapsAPI
import GeoCore
import RoadNetwork
import RoutePlanning

/// TomTom's points a route passes without a leg ending there: `circle(lat,lon,radius)` locations
/// and the `supportingPoints` of a POST body.
extension MapsService {
    /// Plans a query with pass-through points. A circle the route passes within its radius costs
    /// nothing; one it misses becomes a via point (the road nearest its centre) and the route is
    /// planned again, until every circle is passed. Supporting points are driven one after
    /// another, as the route they were taken from. Legs end only at the other locations.
    func planPassingThrough(_ query: RouteQuery) throws(APIError) -> Plan {
        if !query.supportingPoints.isEmpty { return try planAlongSupportingPoints(query) }
        var visited = Set<Int>()
        while true {
            let kept = query.waypoints.indices.filter { query.passThrough[$0] == nil || visited.contains($0) }
            var q = query
            q.waypoints = kept.map { query.waypoints[$0] }
            let plan = try planExactly(q)
            let line = plan.best.points
            let missed = query.passThrough.filter { i, radius in
                !visited.contains(i) && Geodesy.distanceMeters(query.waypoints[i], toLine: line) > radius
            }
            if missed.isEmpty {
                return Self.merging(plan, at: Set(kept.indices.filter { query.passThrough[kept[$0]] != nil }))
            }
            visited.formUnion(missed.keys)
        }
    }

    /// Each supporting point is a via point of the leg whose locations it lies between (the
    /// points closest to the intermediate locations divide them), thinned to one per
    /// `supportingSpacingMeters` and to the waypoint limit.
    func planAlongSupportingPoints(_ query: RouteQuery) throws(APIError) -> Plan {
        let budget = max(0, limits.maxWaypoints - query.waypoints.count)
        let points = Self.thinned(query.supportingPoints, spacing: Self.supportingSpacingMeters, budget: budget)
        var waypoints: [Coordinate] = [query.waypoints[0]]
        var passing = Set<Int>()
        var next = 0
        for location in query.waypoints.dropFirst().dropLast() {
            let split = points[next...].indices.min { Geodesy.distanceMeters(points[$0], location) < Geodesy.distanceMeters(points[$1], location) } ?? next
            for p in points[next..<split] { passing.insert(waypoints.count); waypoints.append(p) }
            waypoints.append(location)
            next = split
        }
        for p in points[next...] { passing.insert(waypoints.count); waypoints.append(p) }
        waypoints.append(query.waypoints[query.waypoints.count - 1])
        var q = query
        q.waypoints = waypoints
        // The points were taken along one drive: it goes on the way it came at each of them.
        q.continueStraight = true
        return Self.merging(try planExactly(q), at: passing)
    }

    /// Supporting points closer than this to the last one kept add nothing to the route.
    static let supportingSpacingMeters = 25.0

    static func thinned(_ points: [Coordinate], spacing: Double, budget: Int) -> [Coordinate] {
        var kept: [Coordinate] = []
        for p in points where kept.last.map({ Geodesy.distanceMeters($0, p) >= spacing }) ?? true { kept.append(p) }
        guard kept.count > budget else { return kept }
        guard budget > 0 else { return [] }
        return (0..<budget).map { kept[$0 * kept.count / budget] }
    }

    /// The plan's routes with the legs that meet at the given waypoint indices joined into one.
    static func merging(_ plan: Plan, at passing: Set<Int>) -> Plan {
        guard !passing.isEmpty else { return plan }
        var plan = plan
        plan.routes = plan.routes.map { $0.joiningLegs(at: passing) }
        return plan
    }
}

extension TimedRoute {
    /// The route with leg `k - 1` and leg `k` made one wherever waypoint `k` is in `waypoints`,
    /// and those waypoints dropped.
    func joiningLegs(at passing: Set<Int>) -> TimedRoute {
        var route = self
        var joined: [Leg] = []
        for (k, leg) in legs.enumerated() {
            guard passing.contains(k), var last = joined.popLast() else { joined.append(leg); continue }
            let shared = last.points.last == leg.points.first ? 1 : 0
            let offset = last.points.count - shared
            last.arcs += leg.arcs.map { arc in
                var arc = arc
                arc.firstPoint += offset
                return arc
            }
            last.points += leg.points.dropFirst(shared)
            last.historicalSeconds = last.historicalSeconds.flatMap { a in leg.historicalSeconds.map { a + $0 } }
            last.liveSeconds = last.liveSeconds.flatMap { a in leg.liveSeconds.map { a + $0 } }
            last.liveDelayedMeters += leg.liveDelayedMeters
            joined.append(last)
        }
        route.legs = joined
        route.waypoints = waypoints.enumerated().filter { !passing.contains($0.offset) }.map(\.element)
        return route
    }
}
