public import MapsAPI
public import RoutePlanning
public import Directions
public import RoadNetwork
import GeoCore

/// What an OSRM `/route/v1` answer shows.
public struct OSRMRouteOptions: Sendable {
    public var steps = false
    /// `simplified` (default), `full`, `false` or `by_legs`.
    public var overview = "simplified"
    /// `polyline` (default), `polyline6` or `geojson`.
    public var geometries = "polyline"
    /// `duration`, `distance`, `speed`, `weight`, `nodes`, `datasources`, or `true` for all; empty or `false` for none.
    public var annotations: Set<String> = []

    public init() {}

    var wantsAnnotations: Bool { !(annotations.isEmpty || annotations == ["false"]) }
    /// Whether the answer needs the routes' points at all.
    public var needsPoints: Bool { steps || overview != "false" || wantsAnnotations }
}

extension OSRM.RouteResponse {
    /// A plan in OSRM's shape; `guidance[i]` is route i's (nil without steps), its steps made by
    /// `Guidance.osrmSteps`; `graph` names the OSM nodes of the `nodes` annotation.
    public init(_ plan: Plan, guidance: [Directions.Guidance?], options: OSRMRouteOptions, graph: RoadGraph) {
        let routes = plan.routes.enumerated().map { i, route in
            OSRM.Route(route, guidance: i < guidance.count ? guidance[i] : nil, options: options, graph: graph)
        }
        let waypoints = plan.best.waypoints.map { w in
            let snapped = LatLon(rounding: w.snapped)
            return OSRM.Waypoint(hint: "", distance: ((w.distanceMeters * 100).rounded() / 100 * 1e6).rounded() / 1e6, name: w.roadName,
                                 location: [snapped.longitude, snapped.latitude], nodes: nil)
        }
        self.init(routes: routes, waypoints: waypoints)
    }
}

extension OSRM.Route {
    /// One route: legs with their steps (from the guidance) and per-segment annotations from the
    /// times of the arcs themselves, the whole line as `overview` and `geometries` ask.
    public init(_ route: TimedRoute, guidance: Directions.Guidance?, options: OSRMRouteOptions, graph: RoadGraph) {
        var legs: [OSRM.Leg] = []
        let points = route.legs.flatMap { $0.points.map(LatLon.init(rounding:)) }.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        let steps = options.steps ? guidance?.osrmSteps(points: points) { OSRM.Geometry($0.map(LatLon.init(rounding:)), options.geometries) } ?? [] : []
        for (i, leg) in route.legs.enumerated() {
            let legSteps = i < steps.count ? steps[i] : []
            var summary = ""
            if options.steps {
                var seen: [String] = []
                for n in legSteps.map(\.name) where !n.isEmpty && !seen.contains(n) { seen.append(n) }
                summary = seen.prefix(2).joined(separator: ", ")
            }
            let duration = leg.durationSeconds.rounded(), distance = leg.lengthMeters.rounded()
            legs.append(OSRM.Leg(steps: legSteps, summary: summary, weight: duration, duration: duration, distance: distance,
                                 annotation: options.wantsAnnotations ? OSRM.Annotation(leg, options.annotations, graph: graph) : nil))
        }
        let allPoints = route.legs.flatMap { $0.points.map(LatLon.init(rounding:)) }
        var geometry: OSRM.Geometry?
        switch options.overview {
        case "false": geometry = nil
        case "full", "by_legs": geometry = OSRM.Geometry(allPoints, options.geometries)
        default: geometry = OSRM.Geometry(Simplify.douglasPeucker(allPoints, toleranceMeters: 5), options.geometries)
        }
        let duration = route.durationSeconds.rounded(), distance = route.lengthMeters.rounded()
        self.init(geometry: geometry, legs: legs, weight: duration, duration: duration, distance: distance)
        time_sources = route.timeSources
    }
}

extension OSRM.Annotation {
    /// Per segment of the leg's line: its length, and its share (by length) of the time of the arc it lies on;
    /// `nodes`: the OSM nodes the leg passes, from the one before its start to the one after its end.
    init(_ leg: TimedRoute.Leg, _ kinds: Set<String>, graph: RoadGraph) {
        let points = leg.points.map(LatLon.init(rounding:)).map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        let all = kinds.contains("true")
        let wantsSources = all || kinds.contains("datasources")
        var distances: [Double] = [], durations: [Double] = [], sources: [Int] = []
        for (k, arc) in leg.arcs.enumerated() {
            let first = arc.firstPoint
            let last = k + 1 < leg.arcs.count ? leg.arcs[k + 1].firstPoint : points.count - 1
            guard last > first else { continue }
            let lengths = (first..<last).map { Geodesy.distanceMeters(points[$0], points[$0 + 1]) }
            let total = lengths.reduce(0, +)
            distances += lengths
            durations += lengths.map { total > 0 ? $0 / total * arc.durationSeconds : arc.durationSeconds / Double(lengths.count) }
            if wantsSources {
                sources += repeatElement(Self.datasourceNames.firstIndex(of: arc.source.rawValue) ?? 0, count: lengths.count)
            }
        }
        func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        self.init(distance: all || kinds.contains("distance") ? distances.map(tenth) : nil,
                  duration: all || kinds.contains("duration") ? durations.map(tenth) : nil,
                  speed: all || kinds.contains("speed") ? zip(distances, durations).map { $1 > 0 ? tenth($0 / $1) : 0 } : nil,
                  nodes: all || kinds.contains("nodes") ? Self.nodes(leg, graph: graph) : nil,
                  weight: all || kinds.contains("weight") ? durations.map(tenth) : nil,
                  datasources: wantsSources ? sources : nil,
                  metadata: wantsSources ? Metadata(datasource_names: Self.datasourceNames) : nil)
    }

    /// Where a segment's time comes from, as `datasources` indexes it: free-flow speeds of the
    /// profile, the weekly (historical) profile, live traffic.
    static let datasourceNames = [TimeSource.freeFlow, .historical, .live].map(\.rawValue)
}

extension OSRM.Annotation {
    static func nodes(_ leg: TimedRoute.Leg, graph: RoadGraph) -> [Int64] {
        var out: [Int64] = []
        for (k, piece) in leg.arcs.enumerated() {
            let ids = graph.shapeOSMIDs(of: piece.arc), shape = graph.shape(of: piece.arc)
            var cumulative = [0.0]
            for (a, b) in zip(shape, shape.dropFirst()) { cumulative.append(cumulative[cumulative.count - 1] + Geodesy.distanceMeters(a, b)) }
            let total = max(0.01, cumulative[cumulative.count - 1])
            let from = piece.fromFraction * total, to = piece.toFraction * total
            for j in ids.indices {
                let inside = cumulative[j] >= from - 0.01 && cumulative[j] <= to + 0.01
                let before = k == 0 && j + 1 < ids.count && cumulative[j] < from && cumulative[j + 1] > from
                let after = k == leg.arcs.count - 1 && j > 0 && cumulative[j] > to && cumulative[j - 1] < to
                if (inside || before || after) && out.last != ids[j] { out.append(ids[j]) }
            }
        }
        return out
    }
}

extension OSRM.Geometry {
    init(_ points: [LatLon], _ kind: String) {
        let coords = points.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        switch kind {
        case "geojson": self = .geoJSON(coords.map { [OSRM.round6($0.longitude), OSRM.round6($0.latitude)] })
        case "polyline6": self = .encoded(PolylineCodec.encode(coords, precision: 6))
        default: self = .encoded(PolylineCodec.encode(coords, precision: 5))
        }
    }
}

extension OSRM {
    public static func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

}

/// Douglas–Peucker line simplification (OSRM's `overview=simplified`).
enum Simplify {
    static func douglasPeucker(_ points: [LatLon], toleranceMeters: Double) -> [LatLon] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        let coords = points.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            var worst = -1.0, index = -1
            for i in (a + 1)..<b {
                let (p, _) = Geodesy.project(coords[i], ontoSegment: coords[a], coords[b])
                let d = Geodesy.distanceMeters(p, coords[i])
                if d > worst { worst = d; index = i }
            }
            if worst > toleranceMeters {
                keep[index] = true
                stack.append((a, index))
                stack.append((index, b))
            }
        }
        return points.enumerated().filter { keep[$0.offset] }.map(\.element)
    }
}
