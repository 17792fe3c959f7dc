import Foundation
import HTTPServer
import MapsAPI
import MapsAPIMapping
import MapsService
import GeoCore

/// TomTom Calculate Route: `GET|POST /routing/1/calculateRoute/{locations}/{contentType}`.
struct RoutingHandlers {
    let app: MapsApplication

    func calculateRoute(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let service = app.service
            let query = try Self.routeQuery(request, service: service)
            let jsonp = request.pathParameters["contentType"] == "jsonp"
            let callback = try Self.callback(request.query["callback"])
            var response = try service.calculateRoute(query)
            if request.query["report"] != nil {
                response.report = .init(effectiveSettings: EffectiveSettings.of(request, query: query, response: response))
            }
            guard jsonp else { return JSONResponse.ok(response) }
            return .bytes(Array("\(callback)(".utf8) + JSONResponse.encode(response) + Array(");".utf8), contentType: "application/javascript")
        } catch {
            return JSONResponse.error(error)
        }
    }

    /// JSONP's `callback`: a JavaScript identifier or dotted path of them (`cb`, `app.onRoute`),
    /// TomTom's default `callback` when absent. Anything else could run as script in the page.
    static func callback(_ text: String?) throws(APIError) -> String {
        guard let text else { return "callback" }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let valid = text.utf8.count <= 100 && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first.properties.isXIDStart || first == "$" || first == "_" else { return false }
            return part.unicodeScalars.allSatisfy { $0.properties.isXIDContinue || $0 == "$" }
        }
        guard valid else { throw APIError.badInput("callback must be a JavaScript identifier (letters, digits, _ and $, dots between)", parameter: "callback") }
        return text
    }

    static func routeQuery(_ request: HTTPRequest, service: MapsService) throws(APIError) -> RouteQuery {
        let contentType = request.pathParameters["contentType"] ?? "json"
        guard contentType == "json" || contentType == "jsonp" else {
            throw APIError.badInput("content type \"\(contentType)\" is not supported; use json", parameter: "contentType")
        }
        let (waypoints, circles) = try locations(request.pathParameters["locations"] ?? "", limit: service.limits.maxWaypoints)
        let q = QueryReader(query: request.query)
        for name in Self.refusedParameters where request.query[name] != nil {
            throw APIError.badInput("\(name) is not supported by this server", parameter: name)
        }
        let modeText = q.string("travelMode") ?? "car"
        guard let mode = Vocabulary.travelModes[modeText] else {
            throw APIError.badInput("travelMode \(modeText) is not supported; use car, taxi, bicycle or pedestrian", parameter: "travelMode")
        }
        var query = RouteQuery(waypoints: waypoints, mode: mode)
        query.passThrough = circles
        if request.method == .post && !request.body.isEmpty { query.supportingPoints = try supportingPoints(request.body) }
        guard let routeType = Vocabulary.routeType(try q.oneOf("routeType", Vocabulary.routeTypes, default: .fastest), for: mode) else {
            throw APIError.badInput(Vocabulary.bicycleThrillingRefusal, parameter: "routeType")
        }
        query.routeType = routeType
        query.traffic = try q.bool("traffic", default: true)
        query.maxAlternatives = try q.int("maxAlternatives", default: 0, range: 0...5)
        query.computeBestOrder = try q.bool("computeBestOrder", default: false)
        let now = service.clock()
        if let text = q.string("departAt") {
            guard let d = TimeInput.parse(text, timeZone: service.timeZone, now: now) else {
                throw APIError.badInput("departAt \"\(text.prefix(40))\" is not an RFC 3339 date-time", parameter: "departAt")
            }
            query.departAt = d
        }
        if let text = q.string("arriveAt") {
            guard let d = TimeInput.parse(text, timeZone: service.timeZone, now: now) else {
                throw APIError.badInput("arriveAt \"\(text.prefix(40))\" is not an RFC 3339 date-time", parameter: "arriveAt")
            }
            query.arriveAt = d
        }
        for name in q.list("avoid") {
            guard let kind = Vocabulary.avoidance(name) else {
                throw APIError.badInput("avoid \(name) is not supported; use \(Vocabulary.avoidanceNames)", parameter: "avoid")
            }
            query.avoid.insert(kind)
        }
        query.strictAvoid = try q.bool("strictAvoid", default: false)
        if let w = q.string("windingness") {
            guard let value = Vocabulary.windingness(w) else { throw APIError.badInput("windingness must be low, normal or high", parameter: "windingness") }
            query.windingness = value
        }
        if let h = q.string("hilliness"), h != "normal" {
            throw APIError.badInput("hilliness \(h) is not supported: the dataset has no elevation, so only normal (the default) is", parameter: "hilliness")
        }
        if let text = q.string("instructionsType") {
            guard let mode = RouteQuery.InstructionsMode(rawValue: text) else {
                throw APIError.badInput("instructionsType must be coded, text or tagged", parameter: "instructionsType")
            }
            query.instructions = mode
        }
        query.representation = try q.oneOf("routeRepresentation", ["polyline": .polyline, "summaryOnly": .summaryOnly, "none": .none,
                                                                   "encodedPolyline": .encodedPolyline], default: .polyline)
        query.travelTimesForAll = try q.oneOf("computeTravelTimeFor", ["none": false, "all": true], default: false)
        _ = try q.oneOf("report", ["effectiveSettings": true], default: false)
        query.language = q.string("language") ?? "en-GB"
        query.imperialUnits = (q.string("units") ?? "metric") == "imperial"
        query.vehicleHeading = try q.double("vehicleHeading", range: 0...359)
        for name in q.list("sectionType") where !Self.isSectionType(name) {
            throw APIError.badInput("sectionType \(name) is not supported; use \(Self.sectionTypes.joined(separator: ", "))", parameter: "sectionType")
        }
        query.sectionTypes = Set(q.list("sectionType").map { $0.lowercased() })
        query.vehicleMaxSpeedKmh = try q.int("vehicleMaxSpeed", default: 0, range: 0...250)
        return query
    }

    /// `lat,lon:lat,lon[:…]`; a `circle(lat,lon,radius)` location is one the route passes within
    /// `radius` metres of without a leg ending there (returned by index).
    static func locations(_ text: String, limit: Int = ServiceLimits.ceilings.maxWaypoints) throws(APIError) -> ([Coordinate], [Int: Double]) {
        guard !text.isEmpty else { throw APIError.badInput("locations are missing: use lat,lon:lat,lon", parameter: "locations") }
        var result: [Coordinate] = []
        var circles: [Int: Double] = [:]
        for part in text.split(separator: ":", omittingEmptySubsequences: false) {
            var item = String(part)
            if item.hasPrefix("circle(") && item.hasSuffix(")") {
                let fields = item.dropFirst(7).dropLast().split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count == 3, let radius = Double(fields[2]), radius.isFinite, (0...135_000).contains(radius) else {
                    throw APIError.badInput("\(item.prefix(60)) is not circle(lat,lon,radius) with a radius of 0 to 135000 metres", parameter: "locations")
                }
                circles[result.count] = radius
                item = "\(fields[0]),\(fields[1])"
            }
            result.append(try CoordinateText.parse(item, parameter: "locations"))
            if result.count > limit {
                throw APIError.badInput("at most \(limit) locations are allowed", parameter: "locations")
            }
        }
        guard result.count >= 2 else { throw APIError.badInput("at least two locations are needed (origin:destination)", parameter: "locations") }
        return (result, circles)
    }

    /// The POST body's `supportingPoints`; its other members (avoidAreas, vignettes) are refused.
    static func supportingPoints(_ body: [UInt8]) throws(APIError) -> [Coordinate] {
        let decoded = try JSONResponse.decode(CalculateRouteRequestBody.self, from: body)
        if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
           let other = object.keys.sorted().first(where: { $0 != "supportingPoints" }) {
            throw APIError.badInput("\(other) is not supported in the body; only supportingPoints is", parameter: other)
        }
        var points: [Coordinate] = []
        for p in decoded.supportingPoints ?? [] {
            guard Coordinate.isValid(latitude: p.latitude, longitude: p.longitude) else {
                throw APIError.badInput("supportingPoints has an invalid position \(p.latitude),\(p.longitude)", parameter: "supportingPoints")
            }
            points.append(Coordinate(latitude: p.latitude, longitude: p.longitude))
        }
        return points
    }
}
