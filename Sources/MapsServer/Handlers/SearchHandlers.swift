import Foundation
import HTTPServer
import MapsAPI
import MapsAPIMapping
import MapsService
import GeoCore

/// TomTom Search API v2: fuzzy search, geocode, reverse geocode, nearby, category and POI search,
/// POI categories, and search along a route. Errors in the search API's own shape.
struct SearchHandlers {
    let app: MapsApplication

    static func failure(_ error: APIError) -> HTTPResponse {
        // TomTom's search codes, except where routing decides (along a route): a point off the
        // roads or an unreachable route keeps its routing code so clients can tell them apart.
        let code: String
        switch error.code {
        case .mapMatchingFailure, .noRouteFound: code = error.code.rawValue
        default: code = error.httpStatus == 404 ? "NotFound" : error.httpStatus >= 500 ? "ServiceUnavailable" : "BadRequest"
        }
        return HTTPResponse.json(JSONResponse.encode(SearchErrorResponse(message: error.message, httpStatusCode: error.httpStatus,
                                                                         code: code, target: error.parameter ?? "")),
                                 status: HTTPStatus(error.httpStatus))
    }

    func run(_ body: () throws(APIError) -> HTTPResponse) -> HTTPResponse {
        do { return try body() } catch { return Self.failure(error) }
    }

    /// `lat`/`lon` bias, `radius`, `limit`, `ofs`, `categorySet`, `topLeft`/`btmRight`, `language`.
    struct Common {
        var bias: Coordinate?
        var radius: Double?
        var limit: Int
        var offset: Int
        var categories: [String]
        var box: BoundingBox?
        var language: String?

        init(_ request: HTTPRequest, defaultLimit: Int = 10, maxLimit: Int = ServiceLimits().maxSearchResults) throws(APIError) {
            let q = QueryReader(query: request.query)
            let lat = try q.double("lat", range: -90...90), lon = try q.double("lon", range: -180...180)
            if (lat == nil) != (lon == nil) { throw APIError.badInput("lat and lon must be given together", parameter: lat == nil ? "lat" : "lon") }
            bias = lat.map { Coordinate(latitude: $0, longitude: lon!) }
            radius = try q.double("radius", range: 1...50_000)
            if radius != nil && bias == nil { throw APIError.badInput("radius needs lat and lon", parameter: "radius") }
            limit = try q.int("limit", default: min(defaultLimit, maxLimit), range: 1...maxLimit)
            offset = try q.int("ofs", default: 0, range: 0...1900)
            categories = q.list("categorySet")
            language = q.string("language")
            if let tl = q.string("topLeft"), let br = q.string("btmRight") {
                let a = try CoordinateText.parse(tl, parameter: "topLeft"), b = try CoordinateText.parse(br, parameter: "btmRight")
                box = BoundingBox(south: b.latitude, west: a.longitude, north: a.latitude, east: b.longitude)
            }
        }
    }

    static func queryText(_ request: HTTPRequest) throws(APIError) -> String {
        let text = (request.pathParameters["query"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw APIError.badInput("the search text is empty", parameter: "query") }
        guard text.count <= 256 else { throw APIError.badInput("the search text is longer than 256 characters", parameter: "query") }
        return text
    }

    func search(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in
            try self.fuzzy(request, kinds: Set(PlaceKind.allCases))
        }
    }

    func geocode(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in try self.fuzzy(request, kinds: [.address, .street, .locality]) }
    }

    func poiSearch(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in try self.fuzzy(request, kinds: [.poi]) }
    }

    func fuzzy(_ request: HTTPRequest, kinds: Set<PlaceKind>) throws(APIError) -> HTTPResponse {
        let text = try Self.queryText(request)
        let c = try Common(request, maxLimit: app.service.limits.maxSearchResults)
        let q = QueryReader(query: request.query)
        let typeahead = try q.bool("typeahead", default: false)
        let maxFuzzy = try q.int("maxFuzzyLevel", default: 2, range: 1...4)
        let query = PlaceSearchQuery(text: text, typeahead: typeahead, bias: c.bias, radiusMeters: c.radius, boundingBox: c.box,
                                     categories: c.categories, kinds: kinds, limit: c.limit, offset: c.offset,
                                     maxFuzzyLevel: maxFuzzy, language: c.language)
        return JSONResponse.ok(try app.service.search(query))
    }

    func categorySearch(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in
            let text = try Self.queryText(request)
            let c = try Common(request, maxLimit: app.service.limits.maxSearchResults)
            guard !app.service.taxonomy.resolve(text).isEmpty || !c.categories.isEmpty else {
                throw APIError.badInput("\"\(text)\" is not a category; see /search/2/poiCategories.json", parameter: "query")
            }
            let categories = c.categories.isEmpty ? [text] : c.categories
            if let center = c.bias {
                return JSONResponse.ok(try app.service.nearby(NearbyQuery(center: center, radiusMeters: c.radius ?? 10_000, categories: categories,
                                                                            limit: c.limit, offset: c.offset, language: c.language), label: text))
            }
            let query = PlaceSearchQuery(text: text, boundingBox: c.box, categories: categories, kinds: [.poi], limit: c.limit,
                                         offset: c.offset, language: c.language)
            return JSONResponse.ok(try app.service.search(query))
        }
    }

    func nearby(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in
            let c = try Common(request, maxLimit: app.service.limits.maxSearchResults)
            guard let center = c.bias else { throw APIError.badInput("nearbySearch needs lat and lon", parameter: "lat") }
            return JSONResponse.ok(try app.service.nearby(NearbyQuery(center: center, radiusMeters: c.radius ?? 10_000, categories: c.categories,
                                                                        limit: c.limit, offset: c.offset, language: c.language), label: ""))
        }
    }

    func reverse(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in
            var text = request.pathParameters["position"] ?? ""
            if text.hasSuffix(".json") { text.removeLast(5) }
            let position = try CoordinateText.parse(text, parameter: "position")
            let q = QueryReader(query: request.query)
            var query = ReverseGeocodeQuery(position: position, radiusMeters: try q.double("radius", range: 1...10_000) ?? 200,
                                            language: q.string("language"))
            if let number = q.string("number")?.trimmingCharacters(in: .whitespaces) {
                guard !number.isEmpty, number.count <= 20 else { throw APIError.badInput("number must be a house number", parameter: "number") }
                query.houseNumber = number
            }
            for name in q.list("entityType") {
                guard let type = ReverseGeocodeQuery.AreaType(rawValue: name) else {
                    let known = ReverseGeocodeQuery.AreaType.allCases.map(\.rawValue).joined(separator: ", ")
                    throw APIError.badInput("entityType must be a list of \(known), not \"\(name)\"", parameter: "entityType")
                }
                query.areaTypes.append(type)
            }
            for name in q.list("roadUse") {
                guard let use = RoadAttributes.Use(rawValue: name) else {
                    let known = RoadAttributes.Use.allCases.map(\.rawValue).joined(separator: ", ")
                    throw APIError.badInput("roadUse must be a list of \(known), not \"\(name)\"", parameter: "roadUse")
                }
                query.roadUses.insert(use)
            }
            let extras = ReverseGeocodeExtras(matchType: try q.bool("returnMatchType", default: false),
                                              speedLimit: try q.bool("returnSpeedLimit", default: false),
                                              roadUse: try q.bool("returnRoadUse", default: false))
            query.includeRoad = extras.speedLimit || extras.roadUse
            return JSONResponse.ok(try app.service.reverseGeocode(query, extras: extras))
        }
    }

    func categories(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in JSONResponse.ok(try app.service.poiCategories()) }
    }

    func alongRoute(_ request: HTTPRequest) -> HTTPResponse {
        run { () throws(APIError) in
            let text = (request.pathParameters["query"] ?? "").trimmingCharacters(in: .whitespaces)
            let body = try JSONResponse.decode(AlongRouteRequestBody.self, from: request.body)
            var points: [Coordinate] = []
            for (i, p) in body.route.points.enumerated() {
                guard Coordinate.isValid(latitude: p.lat, longitude: p.lon) else {
                    throw APIError.badInput("route point \(i) has an invalid position (latitude in [-90, 90], longitude in [-180, 180])", parameter: "route.points")
                }
                points.append(Coordinate(latitude: p.lat, longitude: p.lon))
            }
            let q = QueryReader(query: request.query)
            guard let detour = q.string("maxDetourTime") else { throw APIError.badInput("maxDetourTime is required", parameter: "maxDetourTime") }
            let limits = app.service.limits
            guard let seconds = Int(detour), (1...limits.maxDetourSeconds).contains(seconds) else {
                throw APIError.badInput("maxDetourTime must be an integer number of seconds in [1, \(limits.maxDetourSeconds)]", parameter: "maxDetourTime")
            }
            var query = MapsService.AlongRouteQuery(points: points, maxDetourSeconds: seconds)
            query.limit = try q.int("limit", default: min(10, limits.maxAlongRouteResults), range: 1...limits.maxAlongRouteResults)
            query.categories = q.list("categorySet")
            let generic = ["", "*", "poi", "pois"]
            query.text = generic.contains(text.lowercased()) ? nil : text
            if query.text == nil && query.categories.isEmpty { throw APIError.badInput("give a query text or a categorySet", parameter: "query") }
            query.sortBy = try q.oneOf("sortBy", ["detourTime": .detourTime, "detourDistance": .detourDistance, "detourOffset": .detourOffset],
                                       default: .detourTime)
            query.spread = q.string("spreadingMode") == "auto"
            query.language = q.string("language")
            query.mode = try q.oneOf("travelMode", Vocabulary.travelModes, default: .car)
            var response = try app.service.searchAlongRoute(query)
            if !(try q.bool("detourOffset", default: false)) {
                for i in response.results.indices { response.results[i].detourOffset = nil }
            }
            return JSONResponse.ok(response)
        }
    }
}
