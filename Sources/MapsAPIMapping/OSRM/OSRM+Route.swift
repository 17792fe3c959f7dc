public import MapsAPI
public import RoutePlanning
public import Directions
import RoadNetwork
import GeoCore

/// What an OSRM `/route/v1` answer shows.
public struct OSRMRouteOptions: Sendable {
    public var steps = false
    /// `simplified` (default), `full`, `false` or `by_legs`.
    public var overview = "simplified"
    /// `polyline` (default), `polyline6` or `geojson`.
    public var geometries = "polyline"
    /// `duration`, `distance`, `speed`, `weight`, or `true` for all; empty or `false` for none.
    public var annotations: Set<String> = []

    public init() {}

    var wantsAnnotations: Bool { !(annotations.isEmpty || annotations == ["false"]) }
    /// Whether the answer needs the routes' points at all.
    public var needsPoints: Bool { steps || overview != "false" || wantsAnnotations }
}

extension OSRM.RouteResponse {
    /// A plan in OSRM's shape; `guidance[i]` is route i's (nil without steps).
    public init(_ plan: Plan, guidance: [Directions.Guidance?], drivingSide: DrivingSide, options: OSRMRouteOptions) {
        let routes = plan.routes.enumerated().map { i, route in
            OSRM.Route(route, guidance: i < guidance.count ? guidance[i] : nil, drivingSide: drivingSide, options: options)
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
    public init(_ route: TimedRoute, guidance: Directions.Guidance?, drivingSide: DrivingSide, options: OSRMRouteOptions) {
        let mode = Vocabulary.osrmMode(route.mode)
        let side = drivingSide.rawValue.lowercased()
        var legs: [OSRM.Leg] = []
        var instructionIndex = 0
        let instructions = guidance?.instructions ?? []
        let steps = guidance?.steps ?? []
        for leg in route.legs {
            var legSteps: [OSRM.Step] = []
            if options.steps {
                // The instructions of this leg: up to and including its arrival/waypoint instruction.
                while instructionIndex < instructions.count {
                    let instruction = instructions[instructionIndex]
                    legSteps.append(OSRM.Step(instruction, steps[instructionIndex], mode: mode, geometries: options.geometries, drivingSide: side))
                    instructionIndex += 1
                    if instruction.maneuver.instructionType == "LOCATION_ARRIVAL" || instruction.maneuver.instructionType == "LOCATION_WAYPOINT" { break }
                }
            }
            var summary = ""
            if options.steps {
                var seen: [String] = []
                for n in legSteps.map(\.name) where !n.isEmpty && !seen.contains(n) { seen.append(n) }
                summary = seen.prefix(2).joined(separator: ", ")
            }
            let duration = leg.durationSeconds.rounded(), distance = leg.lengthMeters.rounded()
            legs.append(OSRM.Leg(steps: legSteps, summary: summary, weight: duration, duration: duration, distance: distance,
                                 annotation: options.wantsAnnotations ? OSRM.Annotation(leg, options.annotations) : nil))
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
    }
}

extension OSRM.Annotation {
    /// Per segment of the leg's line: its length, and its share (by length) of the time of the arc it lies on.
    init(_ leg: TimedRoute.Leg, _ kinds: Set<String>) {
        let points = leg.points.map(LatLon.init(rounding:)).map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        let all = kinds.contains("true")
        var distances: [Double] = [], durations: [Double] = []
        for (k, arc) in leg.arcs.enumerated() {
            let first = arc.firstPoint
            let last = k + 1 < leg.arcs.count ? leg.arcs[k + 1].firstPoint : points.count - 1
            guard last > first else { continue }
            let lengths = (first..<last).map { Geodesy.distanceMeters(points[$0], points[$0 + 1]) }
            let total = lengths.reduce(0, +)
            distances += lengths
            durations += lengths.map { total > 0 ? $0 / total * arc.durationSeconds : arc.durationSeconds / Double(lengths.count) }
        }
        func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        self.init(distance: all || kinds.contains("distance") ? distances.map(tenth) : nil,
                  duration: all || kinds.contains("duration") ? durations.map(tenth) : nil,
                  speed: all || kinds.contains("speed") ? zip(distances, durations).map { $1 > 0 ? tenth($0 / $1) : 0 } : nil,
                  nodes: nil,
                  weight: all || kinds.contains("weight") ? durations.map(tenth) : nil)
    }
}

extension OSRM.Step {
    init(_ instruction: Directions.Guidance.Instruction, _ step: Directions.Guidance.Step, mode: String, geometries: String, drivingSide: String) {
        let (type, modifier) = OSRM.maneuver(instruction.maneuver)
        let point = LatLon(rounding: instruction.point)
        let location = [OSRM.round6(point.longitude), OSRM.round6(point.latitude)]
        let stepPoints = step.points.map(LatLon.init(rounding:))
        let points = stepPoints.isEmpty ? [point, point] : (stepPoints.count == 1 ? [stepPoints[0], stepPoints[0]] : stepPoints)
        let after = points.count >= 2 ? OSRM.bearing(points[0], points[1]) : 0
        let before = instruction.turnAngleDegrees.map { (after - $0 + 360) % 360 } ?? (type == "depart" ? 0 : after)
        self.init(geometry: OSRM.Geometry(points, geometries),
                  maneuver: OSRM.Maneuver(bearing_after: type == "arrive" ? 0 : after, bearing_before: before, location: location,
                                          type: type, modifier: modifier, exit: instruction.roundaboutExit),
                  mode: mode, driving_side: drivingSide, name: instruction.street ?? "", ref: instruction.roadNumbers?.joined(separator: "; "),
                  intersections: [OSRM.Intersection(location: location, bearings: [type == "arrive" ? before : after], entry: [true],
                                                    out: type == "arrive" ? nil : 0, in: type == "depart" ? nil : 0)],
                  weight: Double(step.travelTimeSeconds), duration: Double(step.travelTimeSeconds), distance: Double(step.distanceMeters))
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

    static func bearing(_ a: LatLon, _ b: LatLon) -> Int {
        Int(Geodesy.bearingDegrees(from: Coordinate(latitude: a.latitude, longitude: a.longitude),
                                   to: Coordinate(latitude: b.latitude, longitude: b.longitude)).rounded()) % 360
    }

    /// TomTom maneuvers in OSRM's vocabulary.
    static func maneuver(_ maneuver: Directions.Maneuver) -> (String, String?) {
        switch maneuver {
        case .depart: ("depart", nil)
        case .arrive: ("arrive", nil)
        case .arriveLeft, .waypointLeft: ("arrive", "left")
        case .arriveRight, .waypointRight: ("arrive", "right")
        case .waypointReached: ("arrive", nil)
        case .straight: ("new name", "straight")
        case .turnLeft: ("turn", "left")
        case .turnRight: ("turn", "right")
        case .bearLeft: ("turn", "slight left")
        case .bearRight: ("turn", "slight right")
        case .sharpLeft: ("turn", "sharp left")
        case .sharpRight: ("turn", "sharp right")
        case .keepLeft: ("fork", "slight left")
        case .keepRight: ("fork", "slight right")
        case .makeUTurn, .tryMakeUTurn: ("continue", "uturn")
        case .enterMotorway, .enterFreeway, .enterHighway, .entranceRamp: ("merge", "straight")
        case .takeExit, .motorwayExitRight: ("off ramp", "slight right")
        case .motorwayExitLeft: ("off ramp", "slight left")
        case .roundaboutCross: ("roundabout", "straight")
        case .roundaboutRight: ("roundabout", "right")
        case .roundaboutLeft: ("roundabout", "left")
        case .roundaboutBack: ("roundabout", "uturn")
        case .takeFerry: ("notification", "straight")
        case .follow, .switchParallelRoad, .switchMainRoad: ("turn", "straight")
        }
    }
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
