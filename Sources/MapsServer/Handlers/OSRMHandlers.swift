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
            var query = RouteQuery(waypoints: coords, mode: mode)
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
            do {
                return JSONResponse.ok(try app.service.osrmRoute(query, options: options))
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
        let known: Set<String> = ["true", "false", "duration", "distance", "speed", "weight", "nodes"]
        if let unknown = options.annotations.first(where: { !known.contains($0) }) {
            throw Failure(code: "InvalidValue", message: "annotations \(unknown) is not supported: use true, false, duration, distance, speed, weight or nodes")
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
            let number = Int(request.query["number"] ?? "1") ?? 0
            guard (1...100).contains(number) else { throw Failure(code: "InvalidValue", message: "number must be an integer in 1...100") }
            let found: OSRM.NearestResponse?
            do { found = try app.service.osrmNearest(coords[0], mode: mode, number: number) } catch {
                throw Failure(code: "InvalidValue", message: error.message)
            }
            guard let found else { throw Failure(code: "NoSegment", message: "Could not find a matching segments for coordinate") }
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
            if let refusal = app.quotas.charge(sources.count * destinations.count, of: .matrixCells, identity: app.identity(request)) {
                return refusal
            }
            let annotations = Set((request.query["annotations"] ?? "duration").split(separator: ",").map(String.init))
            return JSONResponse.ok(try app.service.osrmTable(coords, sources: sources, destinations: destinations, mode: mode,
                                                             durations: annotations.contains("duration"), distances: annotations.contains("distance")))
        } catch let error as Failure {
            return Self.fail(error)
        } catch let error as APIError {
            return Self.fail(Failure(code: error.code == .mapMatchingFailure ? "NoSegment" : "InvalidQuery", message: error.message))
        } catch {
            return Self.fail(Failure(code: "InvalidQuery", message: "\(error)"))
        }
    }
}
