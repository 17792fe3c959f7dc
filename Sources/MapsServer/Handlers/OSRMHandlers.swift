import Foundation
import HTTPServer
import MapsAPI
import MapsService
import MapsAPIMapping
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

    static func mode(_ profile: String) throws(Failure) -> RouteQuery.Mode {
        guard let mode = Vocabulary.osrmProfiles[profile.lowercased()] else {
            throw Failure(code: "InvalidValue", message: "Profile \(profile) is not known; use driving, cycling or walking")
        }
        return mode
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
            try OSRMParameters.check(q, accepted: OSRMParameters.route, service: "route")
            var query = RouteQuery(waypoints: coords, mode: mode)
            query.routeType = Vocabulary.osrmRouteTypes[(request.pathParameters["profile"] ?? "").lowercased()] ?? .fastest
            query.snapping = try OSRMParameters.snapping(q, count: coords.count, service: app.service)
            query.avoid = try OSRMParameters.exclude(q)
            query.strictAvoid = true
            switch q["alternatives"] ?? "false" {
            case "false": query.maxAlternatives = 0
            case "true": query.maxAlternatives = 1  // as OSRM: true asks for one alternative, a number for up to that many
            case let n: guard let count = Int(n), (0...5).contains(count) else {
                throw Failure(code: "InvalidValue", message: "alternatives must be true, false or 0...5") }
                query.maxAlternatives = count
            }
            let options = try Self.routeOptions(q)
            // Only what the answer shows is worked out: guidance for steps, points for a geometry or
            // annotations (OSRM's own default, overview=simplified, wants them).
            query.representation = options.needsPoints ? .polyline : .summaryOnly
            // Instruction texts (`maneuver.instruction`) in this language: an addition OSRM clients accept.
            query.language = q["language"] ?? "en"
            if let text = q["continue_straight"], text != "default" {
                query.continueStraight = try Self.bool(text, "continue_straight")
            }
            let hints = try OSRMParameters.generateHints(q)
            do {
                var answer = try app.service.osrmRoute(query, options: options)
                if !hints { for i in answer.waypoints.indices { answer.waypoints[i].hint = nil } }
                return JSONResponse.ok(answer)
            } catch {
                switch error.code {
                case .mapMatchingFailure: throw Failure(code: "NoSegment", message: "Could not find a matching segment for any coordinate")
                case .noRouteFound: throw Failure(code: "NoRoute", message: "Impossible route between points")
                default: throw Failure(code: error.parameter == "language" ? "InvalidValue" : "InvalidQuery", message: error.message)
                }
            }
        } catch {
            return Self.fail(error)
        }
    }

    /// `steps`, `overview`, `geometries` and `annotations`, as `/route` and `/match` read them.
    static func routeOptions(_ q: QueryParameters) throws(Failure) -> OSRMRouteOptions {
        var options = OSRMRouteOptions()
        options.steps = try bool(q["steps"], "steps")
        options.overview = q["overview"] ?? "simplified"
        guard ["simplified", "full", "false", "by_legs"].contains(options.overview) else {
            throw Failure(code: "InvalidValue", message: "overview must be simplified, full, false or by_legs")
        }
        options.geometries = q["geometries"] ?? "polyline"
        guard ["polyline", "polyline6", "geojson"].contains(options.geometries) else {
            throw Failure(code: "InvalidValue", message: "geometries must be polyline, polyline6 or geojson")
        }
        options.annotations = Set((q["annotations"] ?? "false").split(separator: ",").map(String.init))
        let known: Set<String> = ["true", "false", "duration", "distance", "speed", "weight", "nodes", "datasources"]
        if let unknown = options.annotations.first(where: { !known.contains($0) }) {
            throw Failure(code: "InvalidValue", message: "annotations \(unknown) is not supported: use true, false, duration, distance, speed, weight, nodes or datasources")
        }
        return options
    }

    static func bool(_ text: String?, _ name: String) throws(Failure) -> Bool {
        switch text ?? "false" {
        case "true": return true
        case "false": return false
        default: throw Failure(code: "InvalidValue", message: "\(name) must be true or false")
        }
    }

    // MARK: /nearest

    func nearest(_ request: HTTPRequest) -> HTTPResponse {
        do throws(Failure) {
            let mode = try Self.mode(request.pathParameters["profile"] ?? "")
            let coords = try Self.coordinates(request.pathParameters["coordinates"] ?? "", limit: app.service.limits.maxWaypoints)
            guard coords.count == 1 else { throw Failure(code: "InvalidQuery", message: "Number of coordinates needs to be one") }
            try OSRMParameters.check(request.query, accepted: OSRMParameters.nearest, service: "nearest")
            let snapping = try OSRMParameters.snapping(request.query, count: 1, service: app.service)
            let exclude = try OSRMParameters.exclude(request.query), hints = try OSRMParameters.generateHints(request.query)
            let number = Int(request.query["number"] ?? "1") ?? 0
            guard (1...100).contains(number) else { throw Failure(code: "InvalidValue", message: "number must be an integer in 1...100") }
            var found: OSRM.NearestResponse?
            do { found = try app.service.osrmNearest(coords[0], mode: mode, number: number, snapping: snapping[0], exclude: exclude) } catch {
                throw Failure(code: "InvalidValue", message: error.message)
            }
            guard var found else { throw Failure(code: "NoSegment", message: "Could not find a matching segments for coordinate") }
            if !hints { for i in found.waypoints.indices { found.waypoints[i].hint = nil } }
            return JSONResponse.ok(found)
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
            try OSRMParameters.check(request.query, accepted: OSRMParameters.table, service: "table")
            let snapping = try OSRMParameters.snapping(request.query, count: coords.count, service: app.service)
            let exclude = try OSRMParameters.exclude(request.query), hints = try OSRMParameters.generateHints(request.query)
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
            let annotations = Set((request.query["annotations"] ?? "duration").split(separator: ",").map(String.init))
            guard !annotations.isEmpty, annotations.isSubset(of: ["duration", "distance"]) else {
                throw Failure(code: "InvalidValue", message: "annotations must be duration, distance or duration,distance")
            }
            func positive(_ name: String) throws(Failure) -> Double? {
                guard let text = request.query[name] else { return nil }
                guard let v = Double(text), v.isFinite, v > 0 else { throw Failure(code: "InvalidValue", message: "\(name) must be a number greater than 0") }
                return v
            }
            let fallbackSpeed = try positive("fallback_speed"), scale = try positive("scale_factor") ?? 1
            let coordinate = request.query["fallback_coordinate"] ?? "input"
            guard coordinate == "input" || coordinate == "snapped" else { throw Failure(code: "InvalidValue", message: "fallback_coordinate must be input or snapped") }
            let cells = sources.count * destinations.count, limit = app.service.limits.maxTableCells
            guard cells <= limit else { throw Failure(code: "TooBig", message: "Too many table cells (at most \(limit))") }
            if let refusal = app.quotas.charge(cells, of: .matrixCells, identity: app.identity(request)) { return refusal }
            var answer = try app.service.osrmTable(coords, sources: sources, destinations: destinations, mode: mode,
                                                                     exclude: exclude, snapping: snapping, durations: annotations.contains("duration"), distances: annotations.contains("distance"),
                                                                     fallbackSpeed: fallbackSpeed, fallbackFromSnapped: coordinate == "snapped", scaleFactor: scale)
            if !hints {
                for i in answer.sources.indices { answer.sources[i].hint = nil }
                for i in answer.destinations.indices { answer.destinations[i].hint = nil }
            }
            var response = JSONResponse.ok(answer)
            response.headers.set("X-Matrix-Cells", String(cells))
            return response
        } catch let error as Failure {
            return Self.fail(error)
        } catch let error as APIError {
            let code = error.code == .mapMatchingFailure ? "NoSegment" : error.message.contains("cells is beyond") ? "TooBig" : "InvalidQuery"
            return Self.fail(Failure(code: code, message: error.message))
        } catch {
            return Self.fail(Failure(code: "InvalidQuery", message: "\(error)"))
        }
    }
}
