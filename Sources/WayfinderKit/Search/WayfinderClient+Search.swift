import Foundation
public import MapsAPI

extension WayfinderClient {
    /// Finds places by name, address or category (TomTom fuzzy search, typo-tolerant).
    public func search(_ request: SearchRequest) async throws(WayfinderError) -> PlaceSearchResponse {
        try request.validate()
        let data = try await send(Endpoint("GET", request.path, query: request.queryItems(defaultLanguage: configuration.language)))
        return PlaceSearchResponse(try ResponseDecoding.decode(SearchResponse.self, from: data))
    }

    /// Finds places matching `text`, nearest to `near` first when given.
    public func search(_ text: String, near: Coordinate? = nil, limit: Int = 10) async throws(WayfinderError) -> PlaceSearchResponse {
        try await search(SearchRequest(text, near: near, limit: limit))
    }

    /// Suggestions while the user types (typeahead: the last word is a prefix), as the seed's
    /// address fields do from three characters. Texts shorter than `minimumLength` give no suggestions.
    public func suggestions(for text: String, near: Coordinate? = nil, limit: Int = 5,
                            minimumLength: Int = 3) async throws(WayfinderError) -> [Place] {
        guard text.trimmingCharacters(in: .whitespaces).count >= minimumLength else { return [] }
        var request = SearchRequest(text, near: near, limit: limit)
        request.isTypeahead = true
        return try await search(request).places
    }

    /// The addresses at or near `coordinate`, nearest first (TomTom reverse geocoding); empty
    /// when nothing is within `radiusMeters` (at sea, in a park).
    public func reverseGeocode(_ coordinate: Coordinate, radiusMeters: Int? = nil) async throws(WayfinderError) -> [ReverseGeocodedAddress] {
        guard coordinate.isValid else { throw .invalidQuery("\(coordinate) is not a valid coordinate", parameter: "position") }
        if let r = radiusMeters, !(1...10_000).contains(r) { throw .invalidQuery("radius must be in 1...10000 metres", parameter: "radius") }
        var query: [(String, String)] = []
        if let radiusMeters { query.append(("radius", String(radiusMeters))) }
        if let language = configuration.language { query.append(("language", language)) }
        let data = try await send(Endpoint("GET", "/search/2/reverseGeocode/\(coordinate.pathText).json", query: query))
        let body = try ResponseDecoding.decode(ReverseGeocodeResponse.self, from: data)
        var addresses: [ReverseGeocodedAddress] = []
        for a in body.addresses { addresses.append(try ReverseGeocodedAddress(a)) }
        return addresses
    }

    /// Places of a category around a point (TomTom category search, or nearby search without a category).
    public func nearby(_ request: NearbySearchRequest) async throws(WayfinderError) -> PlaceSearchResponse {
        try SearchParameters.validate(request.center, request.radiusMeters)
        guard (1...100).contains(request.limit) else { throw .invalidQuery("limit must be in 1...100", parameter: "limit") }
        var query = SearchParameters.bias(request.center, request.radiusMeters) + [("limit", String(request.limit))]
        if request.offset > 0 { query.append(("ofs", String(request.offset))) }
        if !request.categoryIDs.isEmpty { query.append(("categorySet", request.categoryIDs.map(String.init).joined(separator: ","))) }
        if let language = request.language ?? configuration.language { query.append(("language", language)) }
        let path: String
        if let category = request.category, !category.trimmingCharacters(in: .whitespaces).isEmpty {
            path = "/search/2/categorySearch/\(PercentEncoding.encode(category)).json"
        } else {
            path = "/search/2/nearbySearch/.json"
        }
        let data = try await send(Endpoint("GET", path, query: query))
        return PlaceSearchResponse(try ResponseDecoding.decode(SearchResponse.self, from: data))
    }

    /// Places along a route with the detour each costs, best first (TomTom Search Along Route).
    ///
    /// Pass a ``Route`` (``AlongRouteSearchRequest/init(_:along:maxDetourSeconds:)``) or its points.
    public func searchAlongRoute(_ request: AlongRouteSearchRequest) async throws(WayfinderError) -> PlaceSearchResponse {
        guard request.points.count >= 2 else {
            throw .invalidQuery("a route of at least two points is needed (plan it with geometry)", parameter: "route.points")
        }
        guard (1...3600).contains(request.maxDetourSeconds) else {
            throw .invalidQuery("maxDetourSeconds must be in 1...3600", parameter: "maxDetourTime")
        }
        guard (1...20).contains(request.limit) else { throw .invalidQuery("limit must be in 1...20", parameter: "limit") }
        let text = request.query?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !text.isEmpty || !request.categoryIDs.isEmpty else {
            throw .invalidQuery("give a query text or category ids", parameter: "query")
        }
        var query: [(String, String)] = [("maxDetourTime", String(request.maxDetourSeconds)), ("limit", String(request.limit))]
        if request.sortBy != .detourTime { query.append(("sortBy", request.sortBy.rawValue)) }
        if request.spreadAlongRoute { query.append(("spreadingMode", "auto")) }
        if request.includeDetourOffset { query.append(("detourOffset", "true")) }
        if request.travelMode != .car { query.append(("travelMode", request.travelMode.rawValue)) }
        if !request.categoryIDs.isEmpty { query.append(("categorySet", request.categoryIDs.map(String.init).joined(separator: ","))) }
        if let language = request.language ?? configuration.language { query.append(("language", language)) }
        let body: Data
        do {
            body = try JSONEncoder().encode(AlongRouteRequestBody(points: request.points.map(\.searchPosition)))
        } catch {
            throw .invalidQuery("the route cannot be encoded: \(error)", parameter: "route.points")
        }
        let path = "/search/2/searchAlongRoute/\(PercentEncoding.encode(text.isEmpty ? "*" : text)).json"
        let data = try await send(Endpoint("POST", path, query: query, body: body, contentType: "application/json"))
        return PlaceSearchResponse(try ResponseDecoding.decode(SearchResponse.self, from: data))
    }

    /// The point-of-interest categories the server knows, with ids, names, synonyms and children.
    public func poiCategories(language: String? = nil) async throws(WayfinderError) -> [POICategory] {
        var query: [(String, String)] = []
        if let language = language ?? configuration.language { query.append(("language", language)) }
        return try await get("/search/2/poiCategories.json", query: query, as: POICategoriesResponse.self).poiCategories
    }
}

/// A search as MapKit's MKLocalSearch runs one: make it with a request, then `start()`.
///
/// ```swift
/// let search = LocalSearch(SearchRequest("restaurant", near: here), client: client)
/// for place in try await search.start().places { print(place.name, place.phoneNumber ?? "") }
/// ```
public struct LocalSearch: Sendable {
    /// What to search for.
    public var request: SearchRequest
    /// The server to ask.
    public var client: WayfinderClient

    /// A search for `request` on `client`'s server.
    public init(_ request: SearchRequest, client: WayfinderClient) {
        self.request = request
        self.client = client
    }

    /// Runs the search.
    public func start() async throws(WayfinderError) -> PlaceSearchResponse {
        try await client.search(request)
    }
}
