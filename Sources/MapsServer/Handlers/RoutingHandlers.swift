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
            let response = try service.calculateRoute(query)
            var http = JSONResponse.ok(response)
            if let callback = request.query["callback"], request.pathParameters["contentType"] == "jsonp" {
                http = .bytes(Array("\(callback)(".utf8) + JSONResponse.encode(response) + Array(");".utf8), contentType: "application/javascript")
            }
            return http
        } catch {
            return JSONResponse.error(error)
        }
    }

    static func routeQuery(_ request: HTTPRequest, service: MapsService) throws(APIError) -> RouteQuery {
        let contentType = request.pathParameters["contentType"] ?? "json"
        guard contentType == "json" || contentType == "jsonp" else {
            throw APIError.badInput("content type \"\(contentType)\" is not supported; use json", parameter: "contentType")
        }
        let waypoints = try locations(request.pathParameters["locations"] ?? "", limit: service.limits.maxWaypoints)
        if request.method == .post && !request.body.isEmpty {
            // TomTom's POST body carries supportingPoints, avoidAreas and vignettes; we read it to
            // validate it, and route through the locations of the path.
            _ = try JSONResponse.decode(CalculateRouteRequestBody.self, from: request.body)
        }
        let q = QueryReader(query: request.query)
        let modeText = q.string("travelMode") ?? "car"
        guard let mode = Vocabulary.travelModes[modeText] else {
            throw APIError.badInput("travelMode \(modeText) is not supported; use car, taxi, bicycle or pedestrian", parameter: "travelMode")
        }
        var query = RouteQuery(waypoints: waypoints, mode: mode)
        query.routeType = try q.oneOf("routeType", Vocabulary.routeTypes, default: .fastest)
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
        if let h = q.string("hilliness"), !["low", "normal", "high"].contains(h) {
            throw APIError.badInput("hilliness must be low, normal or high", parameter: "hilliness")
        }
        if let text = q.string("instructionsType") {
            guard let mode = RouteQuery.InstructionsMode(rawValue: text) else {
                throw APIError.badInput("instructionsType must be coded, text or tagged", parameter: "instructionsType")
            }
            query.instructions = mode
        }
        query.representation = try q.oneOf("routeRepresentation", ["polyline": .polyline, "summaryOnly": .summaryOnly, "none": .none,
                                                                   "encodedPolyline": .polyline], default: .polyline)
        query.language = q.string("language") ?? "en-GB"
        query.imperialUnits = (q.string("units") ?? "metric") == "imperial"
        query.vehicleHeading = try q.double("vehicleHeading", range: 0...359)
        query.sectionTypes = Set(q.list("sectionType").map { $0.lowercased() })
        _ = try q.int("vehicleMaxSpeed", default: 0, range: 0...250)
        return query
    }

    /// `lat,lon:lat,lon[:…]`, intermediate `circle(lat,lon,radius)` accepted as plain waypoints.
    static func locations(_ text: String, limit: Int = ServiceLimits.ceilings.maxWaypoints) throws(APIError) -> [Coordinate] {
        guard !text.isEmpty else { throw APIError.badInput("locations are missing: use lat,lon:lat,lon", parameter: "locations") }
        var result: [Coordinate] = []
        for part in text.split(separator: ":", omittingEmptySubsequences: false) {
            var item = String(part)
            if item.hasPrefix("circle(") && item.hasSuffix(")") {
                let inner = item.dropFirst(7).dropLast()
                let fields = inner.split(separator: ",")
                guard fields.count == 3 else { throw APIError.badInput("\(item) is not circle(lat,lon,radius)", parameter: "locations") }
                item = "\(fields[0]),\(fields[1])"
            }
            result.append(try CoordinateText.parse(item, parameter: "locations"))
            if result.count > limit {
                throw APIError.badInput("at most \(limit) locations are allowed", parameter: "locations")
            }
        }
        guard result.count >= 2 else { throw APIError.badInput("at least two locations are needed (origin:destination)", parameter: "locations") }
        return result
    }
}
