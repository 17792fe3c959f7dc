import Foundation
import HTTPServer
import MapsAPI
import MapsAPIMapping
import MapsService
import GeoCore

/// Nominatim's `/search` and `/reverse` (json, jsonv2, geojson), for geopy and friends. Every parameter
/// Nominatim documents either acts or is refused with a 400 that names it (see the README's table).
struct NominatimHandlers {
    let app: MapsApplication

    /// A request Wayfinder does not answer as asked: HTTP 400 in Nominatim's error shape.
    struct Refusal: Error {
        var message: String
    }

    static func failure(_ message: String) -> HTTPResponse {
        HTTPResponse.json(JSONResponse.encode(NominatimErrorResponse(message: message)), status: .badRequest)
    }

    /// Outputs Nominatim has that Wayfinder does not produce: refused when asked for (any value but 0).
    static let refusedWhenSet = ["polygon_geojson", "polygon_kml", "polygon_svg", "polygon_text", "debug"]
    /// Refused whenever present: JSONP callbacks, and the simplification of outlines Wayfinder does not return.
    static let refusedAlways = ["json_callback", "polygon_threshold"]
    static let structuredFields = ["amenity", "street", "city", "county", "state", "country", "postalcode"]

    struct Common {
        var format: NominatimFormat
        var details: NominatimDetails
        var language: String?
        var layers: Set<PlaceSearchQuery.Layer> = []

        init(_ request: HTTPRequest, defaultFormat: String, addressDetailsByDefault: Bool) throws(Refusal) {
            let q = request.query
            for name in NominatimHandlers.refusedWhenSet where q[name] != nil && q[name] != "0" {
                throw Refusal(message: "Parameter '\(name)' is not supported: Wayfinder returns centroids and bounding boxes only")
            }
            for name in NominatimHandlers.refusedAlways where q[name] != nil {
                throw Refusal(message: "Parameter '\(name)' is not supported")
            }
            let text = q["format"] ?? defaultFormat
            guard let format = NominatimFormat(rawValue: text) else {
                throw Refusal(message: "Parameter 'format' must be json, jsonv2 or geojson (not \(text))")
            }
            self.format = format
            details = NominatimDetails(address: try Self.flag(q, "addressdetails", default: addressDetailsByDefault),
                                       names: try Self.flag(q, "namedetails", default: false),
                                       extraTags: try Self.flag(q, "extratags", default: false))
            language = q["accept-language"] ?? request.headers["Accept-Language"]
            for name in Self.list(q["layer"]) {
                guard let layer = PlaceSearchQuery.Layer(rawValue: name.lowercased()) else {
                    throw Refusal(message: "Parameter 'layer' must be a list of address, poi, railway, natural, manmade (not \(name))")
                }
                layers.insert(layer)
            }
        }

        /// Nominatim booleans: 0 and 1 (and, like Nominatim, any other integer reads as true).
        static func flag(_ q: QueryParameters, _ name: String, default value: Bool) throws(Refusal) -> Bool {
            guard let text = q[name] else { return value }
            guard let n = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw Refusal(message: "Parameter '\(name)' must be 0 or 1 (not \(text))")
            }
            return n != 0
        }

        static func list(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// Refusals and bad input in Nominatim's error shape; failures of the store as the server's own errors.
    static func answer(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let refusal as Refusal {
            return failure(refusal.message)
        } catch let error as APIError {
            return error.httpStatus == 400 ? failure(error.message) : JSONResponse.error(error)
        } catch {
            return failure("\(error)")
        }
    }

    func search(_ request: HTTPRequest) -> HTTPResponse {
        Self.answer {
            let common = try Common(request, defaultFormat: "jsonv2", addressDetailsByDefault: false)
            let query = try Self.searchQuery(request, common: common, maxResults: app.service.limits.maxSearchResults)
            return JSONResponse.ok(json: try app.service.nominatimSearch(query, format: common.format, details: common.details).json)
        }
    }

    /// The search a Nominatim `/search` request asks for.
    static func searchQuery(_ request: HTTPRequest, common: Common, maxResults: Int) throws(Refusal) -> PlaceSearchQuery {
        let q = request.query
        let text = q["q"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let given = structuredFields.filter { !(q[$0]?.trimmingCharacters(in: .whitespaces).isEmpty ?? true) }
        if !text.isEmpty && !given.isEmpty {
            throw Refusal(message: "Structured query parameters (amenity, street, city, county, state, postalcode, country) cannot be used together with 'q' parameter.")
        }
        guard !text.isEmpty || !given.isEmpty else { throw Refusal(message: "Nothing to search for: give q or structured parameters") }
        guard text.count <= 256 else { throw Refusal(message: "Parameter 'q' is longer than 256 characters") }
        // Like Nominatim: a limit that is not a number is an error, one out of range is clamped.
        guard let requestedLimit = Int(q["limit"] ?? "10") else { throw Refusal(message: "Parameter 'limit' must be an integer") }
        var query = PlaceSearchQuery(text: text, limit: min(min(40, maxResults), max(1, requestedLimit)), language: common.language)
        query.typeahead = try Common.flag(q, "autocomplete", default: false)
        _ = try Common.flag(q, "dedupe", default: true)
        if !given.isEmpty {
            func field(_ name: String) -> String? {
                q[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            }
            query.structured = PlaceSearchQuery.StructuredAddress(amenity: field("amenity"), street: field("street"), city: field("city"),
                                                                  county: field("county"), state: field("state"), postalCode: field("postalcode"))
            if let country = field("country") {
                query.countryCodes = [CountryCodes.code(for: country) ?? "??"]
                if query.structured?.isEmpty ?? true { query.structured = nil }
            }
        }
        let codes = Common.list(q["countrycodes"])
        if !codes.isEmpty {
            for c in codes where c.count != 2 || !c.allSatisfy({ $0.isASCII && $0.isLetter }) {
                throw Refusal(message: "Parameter 'countrycodes' must be a list of ISO 3166-1 alpha-2 codes (not \(c))")
            }
            let upper = codes.map { $0.uppercased() }
            query.countryCodes = query.countryCodes.isEmpty ? upper : query.countryCodes.filter(upper.contains)
            if query.countryCodes.isEmpty { query.countryCodes = ["??"] }
        }
        for id in Common.list(q["exclude_place_ids"]) {
            guard let n = Int64(id) else { throw Refusal(message: "Parameter 'exclude_place_ids' must be a list of place ids (not \(id))") }
            query.excludedIDs.insert(n)
        }
        query.layers = common.layers
        if let type = q["featureType"] ?? q["featuretype"] {
            let ranks: [String: ClosedRange<Int>] = ["country": 4...4, "state": 8...8, "city": 14...16, "settlement": 8...20]
            guard let range = ranks[type.lowercased()] else {
                throw Refusal(message: "Parameter 'featureType' must be country, state, city or settlement (not \(type))")
            }
            query.addressRanks = range
            query.kinds = [.locality]
        }
        if let viewbox = q["viewbox"] {
            let v = viewbox.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard v.count == 4, Coordinate.isValid(latitude: v[1], longitude: v[0]), Coordinate.isValid(latitude: v[3], longitude: v[2]) else {
                throw Refusal(message: "Parameter 'viewbox' must be lon1,lat1,lon2,lat2 with longitudes in [-180, 180] and latitudes in [-90, 90]")
            }
            let box = BoundingBox(south: min(v[1], v[3]), west: min(v[0], v[2]), north: max(v[1], v[3]), east: max(v[0], v[2]))
            if try Common.flag(q, "bounded", default: false) { query.boundingBox = box } else { query.bias = box.center }
        } else {
            _ = try Common.flag(q, "bounded", default: false)
        }
        return query
    }

    func reverse(_ request: HTTPRequest) -> HTTPResponse {
        Self.answer {
            let q = request.query
            let common = try Common(request, defaultFormat: "xml", addressDetailsByDefault: true)
            if let typeText = q["osm_type"], let idText = q["osm_id"] {
                guard let type = OSMObjectType(name: typeText), let id = Int64(idText) else {
                    throw Refusal(message: "Parameters 'osm_type' (N, W or R) and 'osm_id' (an integer) do not name an OSM object")
                }
                return JSONResponse.ok(json: try app.service.nominatimReverse(osmType: type, osmID: id, language: common.language,
                                                                              format: common.format, details: common.details).json)
            }
            guard let latText = q["lat"], let lonText = q["lon"], let lat = Double(latText), let lon = Double(lonText),
                  Coordinate.isValid(latitude: lat, longitude: lon) else {
                throw Refusal(message: "Need lat and lon: floating-point numbers within [-90, 90] and [-180, 180]")
            }
            var query = ReverseGeocodeQuery(position: Coordinate(latitude: lat, longitude: lon), radiusMeters: 500, language: common.language)
            if let zoomText = q["zoom"] {
                guard let zoom = Int(zoomText), (0...18).contains(zoom) else { throw Refusal(message: "Parameter 'zoom' must be an integer in [0, 18]") }
                query.maxRank = ReverseGeocodeQuery.maxRank(zoom: zoom)
            }
            return JSONResponse.ok(json: try app.service.nominatimReverse(query, layers: common.layers, format: common.format, details: common.details).json)
        }
    }
}
