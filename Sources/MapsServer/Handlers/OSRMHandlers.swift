import Foundation
import HTTPServer
import MapsAPI
import MapsService
import Directions
import MapsAPIMapping
import RoadNetwork
import Routing
import GeoCore

/// OSRM's `/route/v1`, `/nearest/v1` and `/table/v1`, answering in OSRM's shapes and codes
/// (every non-Ok code is HTTP 400, as osrm-routed does).
struct OSRMHandlers {
    let app: MapsApplication

    struct Failure: Error {
        var code: String
        var message: String
    }

    static func fail(_ f: Failure) -> HTTPResponse {
        HTTPResponse.json(JSONResponse.encode(OSRM.ErrorBody(code: f.code, message: f.message)), status: .badRequest)
    }

    static func mode(_ profile: String) throws(Failure) -> TravelMode {
        switch profile.lowercased() {
        case "driving", "car": return .car
        case "taxi": return .taxi
        case "cycling", "bike", "bicycle": return .bicycle
        case "walking", "foot", "pedestrian": return .pedestrian
        default: throw Failure(code: "InvalidValue", message: "Profile \(profile) is not known; use driving, cycling or walking")
        }
    }

    /// `lon,lat;lon,lat`, `polyline(…)` or `polyline6(…)`, at most `limit` of them (the server's
    /// `maxWaypoints`).
    static func coordinates(_ text: String, limit: Int = ServiceLimits.ceilings.maxWaypoints) throws(Failure) -> [Coordinate] {
        var body = text
        if body.hasSuffix(".json") { body.removeLast(5) }
        let result: [Coordinate]
        if let points = try polyline(body) { result = points } else { result = try pairs(body) }
        guard result.count <= limit else { throw Failure(code: "TooBig", message: "Too many coordinates (at most \(limit))") }
        return result
    }

    /// The points of `polyline(…)` or `polyline6(…)`; nil for other text.
    static func polyline(_ body: String) throws(Failure) -> [Coordinate]? {
        for (prefix, precision) in [("polyline6(", 6), ("polyline(", 5)] where body.hasPrefix(prefix) && body.hasSuffix(")") {
            guard let points = PolylineCodec.decode(String(body.dropFirst(prefix.count).dropLast()), precision: precision), !points.isEmpty else {
                throw Failure(code: "InvalidQuery", message: "The polyline could not be decoded")
            }
            return points
        }
        return nil
    }

    static func pairs(_ body: String) throws(Failure) -> [Coordinate] {
        var result: [Coordinate] = []
        for (i, pair) in body.split(separator: ";", omittingEmptySubsequences: false).enumerated() {
            let parts = pair.split(separator: ",")
            guard parts.count == 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else {
                throw Failure(code: "InvalidQuery", message: "Query string malformed close to coordinate \(i): \"\(pair.prefix(40))\"")
            }
            guard Coordinate.isValid(latitude: lat, longitude: lon) else {
                throw Failure(code: "InvalidValue", message: "Invalid coordinate value at index \(i): longitude must be in [-180, 180] and latitude in [-90, 90]")
            }
            result.append(Coordinate(latitude: lat, longitude: lon))
        }
        return result
    }

    // MARK: /route

    func route(_ request: HTTPRequest) -> HTTPResponse {
        do throws(Failure) {
            let mode = try Self.mode(request.pathParameters["profile"] ?? "")
            let coords = try Self.coordinates(request.pathParameters["coordinates"] ?? "", limit: app.service.limits.maxWaypoints)
            guard coords.count >= 2 else { throw Failure(code: "InvalidQuery", message: "Number of coordinates needs to be at least two") }
            let q = request.query
            var query = RouteQuery(waypoints: coords, mode: mode)
            switch q["alternatives"] ?? "false" {
            case "false": query.maxAlternatives = 0
            case "true": query.maxAlternatives = 1  // as OSRM: true asks for one alternative, a number for up to that many
            case let n: guard let count = Int(n), (0...5).contains(count) else {
                throw Failure(code: "InvalidValue", message: "alternatives must be true, false or 0...5") }
                query.maxAlternatives = count
            }
            let steps = try Self.bool(q["steps"], "steps")
            let overview = q["overview"] ?? "simplified"
            guard ["simplified", "full", "false", "by_legs"].contains(overview) else {
                throw Failure(code: "InvalidValue", message: "overview must be simplified, full, false or by_legs")
            }
            let geometries = q["geometries"] ?? "polyline"
            guard ["polyline", "polyline6", "geojson"].contains(geometries) else {
                throw Failure(code: "InvalidValue", message: "geometries must be polyline, polyline6 or geojson")
            }
            let annotations = Set((q["annotations"] ?? "false").split(separator: ",").map(String.init))
            // Only what the answer shows is worked out: guidance for steps, points for a geometry or
            // annotations (OSRM's own default, overview=simplified, wants them).
            query.instructions = steps ? .text : nil
            query.representation = steps || overview != "false" || !(annotations.isEmpty || annotations == ["false"]) ? .polyline : .summaryOnly
            // Instruction texts (`maneuver.instruction`) in this language: an addition OSRM clients accept.
            query.language = q["language"] ?? "en"
            // OSRM's profiles keep cars going straight at waypoints by default, bicycles and walkers not.
            if let text = q["continue_straight"], text != "default" {
                query.continueStraight = try Self.bool(text, "continue_straight")
            } else {
                query.continueStraight = mode == .car || mode == .taxi
            }
            let planned: PlannedRoutes
            do { planned = try app.service.planRoutes(query) } catch {
                switch error.code {
                case .mapMatchingFailure: throw Failure(code: "NoSegment", message: "Could not find a matching segment for any coordinate")
                case .noRouteFound: throw Failure(code: "NoRoute", message: "Impossible route between points")
                default: throw Failure(code: error.parameter == "language" ? "InvalidValue" : "InvalidQuery", message: error.message)
                }
            }
            let response = planned.response
            let routes = zip(response.routes, planned.guidance).map { route, guidance in
                Self.osrmRoute(route, guidance: guidance, steps: steps, overview: overview, geometries: geometries, annotations: annotations)
            }
            let waypoints = (response.waypoints ?? []).map { w in
                OSRM.Waypoint(hint: "", distance: (w.distanceInMeters * 1e6).rounded() / 1e6, name: w.name,
                              location: [w.snapped.longitude, w.snapped.latitude], nodes: nil)
            }
            return JSONResponse.ok(OSRM.RouteResponse(routes: routes, waypoints: waypoints))
        } catch {
            return Self.fail(error)
        }
    }

    static func bool(_ text: String?, _ name: String) throws(Failure) -> Bool {
        switch text ?? "false" {
        case "true": return true
        case "false": return false
        default: throw Failure(code: "InvalidValue", message: "\(name) must be true or false")
        }
    }

    static func geometry(_ coords: [Coordinate], _ kind: String) -> OSRM.Geometry {
        switch kind {
        case "geojson": return .geoJSON(coords.map { [round6($0.longitude), round6($0.latitude)] })
        case "polyline6": return .encoded(PolylineCodec.encode(coords, precision: 6))
        default: return .encoded(PolylineCodec.encode(coords, precision: 5))
        }
    }

    static func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

    static func osrmRoute(_ route: RouteBody, guidance: Directions.Guidance?, steps: Bool, overview: String, geometries: String,
                          annotations: Set<String>) -> OSRM.Route {
        let allPoints = route.legs.flatMap { $0.points ?? [] }
        let coordinates = allPoints.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        let legSteps = steps ? guidance?.osrmSteps(points: coordinates) { Self.geometry($0, geometries) } ?? [] : []
        var legs: [OSRM.Leg] = []
        for (i, leg) in route.legs.enumerated() {
            let stepsOfLeg = i < legSteps.count ? legSteps[i] : []
            var summary = ""
            if steps {
                var seen: [String] = []
                for n in stepsOfLeg.map(\.name) where !n.isEmpty && !seen.contains(n) { seen.append(n) }
                summary = seen.prefix(2).joined(separator: ", ")
            }
            let duration = Double(leg.summary.travelTimeInSeconds), distance = Double(leg.summary.lengthInMeters)
            legs.append(OSRM.Leg(steps: stepsOfLeg, summary: summary, weight: duration, duration: duration, distance: distance,
                                 annotation: annotations.isEmpty || annotations == ["false"] ? nil : annotation(leg, annotations)))
        }
        var geometry: OSRM.Geometry?
        switch overview {
        case "false": geometry = nil
        case "full", "by_legs": geometry = Self.geometry(coordinates, geometries)
        default: geometry = Self.geometry(Simplify.douglasPeucker(coordinates, toleranceMeters: 5), geometries)
        }
        let duration = Double(route.summary.travelTimeInSeconds), distance = Double(route.summary.lengthInMeters)
        return OSRM.Route(geometry: geometry, legs: legs, weight: duration, duration: duration, distance: distance)
    }

    static func annotation(_ leg: RouteLegBody, _ kinds: Set<String>) -> OSRM.Annotation {
        let points = leg.points ?? []
        let all = kinds.contains("true")
        var distances: [Double] = []
        for (a, b) in zip(points, points.dropFirst()) {
            distances.append(Geodesy.distanceMeters(Coordinate(latitude: a.latitude, longitude: a.longitude),
                                                    Coordinate(latitude: b.latitude, longitude: b.longitude)))
        }
        let total = max(1e-9, distances.reduce(0, +))
        let durations = distances.map { $0 / total * Double(leg.summary.travelTimeInSeconds) }
        return OSRM.Annotation(distance: all || kinds.contains("distance") ? distances.map { ($0 * 10).rounded() / 10 } : nil,
                               duration: all || kinds.contains("duration") ? durations.map { ($0 * 10).rounded() / 10 } : nil,
                               speed: all || kinds.contains("speed") ? zip(distances, durations).map { $1 > 0 ? (($0 / $1) * 10).rounded() / 10 : 0 } : nil,
                               nodes: nil,
                               weight: all || kinds.contains("weight") ? durations.map { ($0 * 10).rounded() / 10 } : nil)
    }

    // MARK: /nearest

    func nearest(_ request: HTTPRequest) -> HTTPResponse {
        do throws(Failure) {
            let mode = try Self.mode(request.pathParameters["profile"] ?? "")
            let coords = try Self.coordinates(request.pathParameters["coordinates"] ?? "", limit: app.service.limits.maxWaypoints)
            guard coords.count == 1 else { throw Failure(code: "InvalidQuery", message: "Number of coordinates needs to be one") }
            let number = Int(request.query["number"] ?? "1") ?? 0
            guard (1...100).contains(number) else { throw Failure(code: "InvalidValue", message: "number must be an integer in 1...100") }
            guard let graph = app.service.dataset.graphs[mode] else { throw Failure(code: "InvalidValue", message: "This dataset has no \(mode.rawValue) graph") }
            var found: [Snap] = []
            var used = Set<Int>()
            while found.count < number, let snap = graph.snap(coords[0], maxDistanceMeters: 1000, excluding: { used.contains($0.index) }) {
                found.append(snap)
                used.insert(snap.edge.index)
            }
            guard !found.isEmpty else { throw Failure(code: "NoSegment", message: "Could not find a matching segments for coordinate") }
            let waypoints = found.sorted { $0.distanceMeters < $1.distanceMeters }.map { snap in
                let e = snap.edge.index
                return OSRM.Waypoint(hint: "", distance: (snap.distanceMeters * 1e6).rounded() / 1e6,
                                     name: graph.name(of: graph.edgeWay[e]), location: [Self.round6(snap.point.longitude), Self.round6(snap.point.latitude)],
                                     nodes: [graph.shapeOSMIDs[snap.segment], graph.shapeOSMIDs[snap.segment + 1]])
            }
            return JSONResponse.ok(OSRM.NearestResponse(waypoints: waypoints))
        } catch {
            return Self.fail(error)
        }
    }

    // MARK: /table

    func table(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let mode = try Self.mode(request.pathParameters["profile"] ?? "")
            let coords = try Self.coordinates(request.pathParameters["coordinates"] ?? "", limit: app.service.limits.maxWaypoints)
            guard coords.count >= 1 else { throw Failure(code: "InvalidQuery", message: "No coordinates") }
            func indices(_ name: String) throws(Failure) -> [Int] {
                guard let text = request.query[name], text != "all" else { return Array(coords.indices) }
                var result: [Int] = []
                for part in text.split(separator: ";") {
                    guard let i = Int(part), coords.indices.contains(i) else { throw Failure(code: "InvalidValue", message: "\(name) index \(part) is out of range") }
                    result.append(i)
                }
                return result
            }
            let sources = try indices("sources"), destinations = try indices("destinations")
            guard sources.count * destinations.count <= 10_000 else {
                throw Failure(code: "TooBig", message: "Too many table cells (at most 10000)")
            }
            let annotations = Set((request.query["annotations"] ?? "duration").split(separator: ",").map(String.init))
            let result = try app.service.table(coords, sources: sources, destinations: destinations, mode: mode)
            func waypoint(_ i: Int) -> OSRM.Waypoint {
                let p = result.snapped[i]
                return OSRM.Waypoint(hint: "", distance: (p.distance * 100).rounded() / 100, name: p.name,
                                     location: [Self.round6(p.location.longitude), Self.round6(p.location.latitude)], nodes: nil)
            }
            return JSONResponse.ok(OSRM.TableResponse(
                durations: annotations.contains("duration") ? result.durations : nil,
                distances: annotations.contains("distance") ? result.distances : nil,
                sources: sources.map(waypoint), destinations: destinations.map(waypoint)))
        } catch let error as Failure {
            return Self.fail(error)
        } catch let error as APIError {
            return Self.fail(Failure(code: error.code == .mapMatchingFailure ? "NoSegment" : "InvalidQuery", message: error.message))
        } catch {
            return Self.fail(Failure(code: "InvalidQuery", message: "\(error)"))
        }
    }
}

/// Douglas–Peucker line simplification (OSRM's `overview=simplified`).
enum Simplify {
    static func douglasPeucker(_ coords: [Coordinate], toleranceMeters: Double) -> [Coordinate] {
        guard coords.count > 2 else { return coords }
        let points = coords
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
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
