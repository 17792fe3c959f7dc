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
            let radius = try q.double("radius", range: 1...10_000) ?? 200
            return JSONResponse.ok(try app.service.reverseGeocode(ReverseGeocodeQuery(position: position, radiusMeters: radius,
                                                                                    language: q.string("language"))))
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

/// Nominatim's `/search` and `/reverse` (json, jsonv2, geojson), for geopy and friends.
struct NominatimHandlers {
    let app: MapsApplication

    static func failure(_ message: String) -> HTTPResponse {
        HTTPResponse.json(JSONResponse.encode(NominatimErrorResponse(message: message)), status: .badRequest)
    }

    static func format(_ request: HTTPRequest, default value: String) -> NominatimFormat? {
        NominatimFormat(rawValue: request.query["format"] ?? value)
    }

    /// Nominatim booleans: only the literal 0 is false.
    static func flag(_ request: HTTPRequest, _ name: String, default value: Bool) -> Bool {
        guard let text = request.query[name] else { return value }
        return text != "0"
    }

    func search(_ request: HTTPRequest) -> HTTPResponse {
        guard let format = Self.format(request, default: "jsonv2") else { return Self.failure("format must be json, jsonv2 or geojson") }
        let structured = ["street", "city", "county", "state", "country", "postalcode", "amenity"].compactMap { request.query[$0] }
        let text = (request.query["q"] ?? structured.joined(separator: " ")).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return Self.failure("Nothing to search for: give q or structured parameters") }
        // Like Nominatim: a limit that is not a number is an error, one out of range is clamped.
        guard let requestedLimit = Int(request.query["limit"] ?? "10") else { return Self.failure("Parameter 'limit' must be an integer") }
        let limit = min(50, max(1, requestedLimit))
        var box: BoundingBox?
        if let viewbox = request.query["viewbox"] {
            let v = viewbox.split(separator: ",").compactMap { Double($0) }
            guard v.count == 4, Coordinate.isValid(latitude: v[1], longitude: v[0]), Coordinate.isValid(latitude: v[3], longitude: v[2]) else {
                return Self.failure("viewbox must be lon1,lat1,lon2,lat2 with longitudes in [-180, 180] and latitudes in [-90, 90]")
            }
            box = BoundingBox(south: min(v[1], v[3]), west: min(v[0], v[2]), north: max(v[1], v[3]), east: max(v[0], v[2]))
        }
        let bounded = Self.flag(request, "bounded", default: false)
        var query = PlaceSearchQuery(text: text, bias: box?.center, boundingBox: bounded ? box : nil, limit: limit,
                                     language: request.query["accept-language"])
        if !bounded { query.bias = box?.center }
        do {
            return JSONResponse.ok(try app.service.nominatimSearch(query, format: format, addressDetails: Self.flag(request, "addressdetails", default: false),
                                                                   nameDetails: Self.flag(request, "namedetails", default: false)))
        } catch {
            return error.httpStatus == 400 ? Self.failure(error.message) : JSONResponse.error(error)
        }
    }

    func reverse(_ request: HTTPRequest) -> HTTPResponse {
        guard let format = Self.format(request, default: "xml") else { return Self.failure("format must be json, jsonv2 or geojson") }
        guard let latText = request.query["lat"], let lonText = request.query["lon"], let lat = Double(latText), let lon = Double(lonText),
              Coordinate.isValid(latitude: lat, longitude: lon) else {
            return Self.failure("Need lat and lon: floating-point numbers within [-90, 90] and [-180, 180]")
        }
        do {
            let query = ReverseGeocodeQuery(position: Coordinate(latitude: lat, longitude: lon), radiusMeters: 500,
                                            language: request.query["accept-language"])
            return JSONResponse.ok(try app.service.nominatimReverse(query, format: format, addressDetails: Self.flag(request, "addressdetails", default: true),
                                                                    nameDetails: Self.flag(request, "namedetails", default: false)))
        } catch {
            return JSONResponse.error(error)
        }
    }
}
