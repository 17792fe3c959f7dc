import Foundation

/// A free-text or typeahead search for places (TomTom fuzzy search; MKLocalSearch.Request).
public struct SearchRequest: Sendable, Hashable {
    /// Which indexes a search looks in.
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// Points of interest, addresses, streets and areas (`/search`).
        case everything
        /// Addresses, streets and areas only (`/geocode`).
        case addresses
        /// Points of interest only (`/poiSearch`).
        case pointsOfInterest
    }

    /// The text to find: a name, an address, a category ("pizza", "Rue Grimaldi 12").
    public var query: String
    /// Where to look. Default: everything.
    public var scope: Scope = .everything
    /// Whether the text is unfinished input (the last word is a prefix), for suggestions as the user types.
    public var isTypeahead = false
    /// Results near this point rank higher, and carry their distance.
    public var near: Coordinate?
    /// With ``near``: only results within this many metres.
    public var radiusMeters: Int?
    /// Only results inside this box.
    public var region: BoundingBox?
    /// Only points of interest in these categories (TomTom ids, see ``WayfinderClient/poiCategories(language:)``).
    public var categoryIDs: [Int] = []
    /// At most this many results, 1...100. Default 10.
    public var limit = 10
    /// Skip this many results (paging).
    public var offset = 0
    /// How many typos to tolerate, 1 (none) ... 4; nil: the server's default (2).
    public var maxFuzzyLevel: Int?
    /// Language of names and categories; nil: the client's or server's default.
    public var language: String?

    /// A search for `query`, optionally near a point.
    public init(_ query: String, near: Coordinate? = nil, limit: Int = 10) {
        self.query = query
        self.near = near
        self.limit = limit
    }

    var path: String {
        let endpoint = switch scope {
        case .everything: "search"
        case .addresses: "geocode"
        case .pointsOfInterest: "poiSearch"
        }
        return "/search/2/\(endpoint)/\(PercentEncoding.encode(query)).json"
    }

    func queryItems(defaultLanguage: String?) -> [(String, String)] {
        var q: [(String, String)] = [("limit", String(limit))]
        if offset > 0 { q.append(("ofs", String(offset))) }
        if isTypeahead { q.append(("typeahead", "true")) }
        q += SearchParameters.bias(near, radiusMeters)
        if let region {
            q.append(("topLeft", region.topLeft.pathText))
            q.append(("btmRight", region.bottomRight.pathText))
        }
        if !categoryIDs.isEmpty { q.append(("categorySet", categoryIDs.map(String.init).joined(separator: ","))) }
        if let maxFuzzyLevel { q.append(("maxFuzzyLevel", String(maxFuzzyLevel))) }
        if let language = language ?? defaultLanguage { q.append(("language", language)) }
        return q
    }

    func validate() throws(WayfinderError) {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidQuery("the search text is empty", parameter: "query") }
        guard (1...100).contains(limit) else { throw .invalidQuery("limit must be in 1...100", parameter: "limit") }
        try SearchParameters.validate(near, radiusMeters)
    }
}

/// A search for places of one category around a point or in a region (TomTom category and
/// nearby search): "restaurants near me", "ATMs within 500 m".
public struct NearbySearchRequest: Sendable, Hashable {
    /// The category to find, by name or synonym ("restaurant", "atm", "gas station"); nil with
    /// ``categoryIDs`` or for anything nearby.
    public var category: String?
    /// Categories by TomTom id (see ``WayfinderClient/poiCategories(language:)``).
    public var categoryIDs: [Int] = []
    /// The centre of the search.
    public var center: Coordinate
    /// Metres around ``center`` to look in. Default 10,000.
    public var radiusMeters = 10_000
    /// At most this many results, 1...100. Default 10.
    public var limit = 10
    /// Skip this many results (paging).
    public var offset = 0
    /// Language of names and categories; nil: the client's or server's default.
    public var language: String?

    /// Places of `category` (a name such as "restaurant"; nil for any) around `center`.
    public init(_ category: String? = nil, around center: Coordinate, radiusMeters: Int = 10_000, limit: Int = 10) {
        self.category = category
        self.center = center
        self.radiusMeters = radiusMeters
        self.limit = limit
    }
}

/// A search for places along a route, each with the exact detour a stop there costs
/// (TomTom's Search Along Route; the seed's gas station / restaurant / ATM buttons).
public struct AlongRouteSearchRequest: Sendable, Hashable {
    /// How results are ordered.
    public enum SortOrder: String, Sendable, Hashable, CaseIterable {
        /// Least added travel time first.
        case detourTime
        /// Least added distance first.
        case detourDistance
        /// Nearest to the route's start first.
        case detourOffset
    }

    /// The text to find ("pizza"), or a category name ("restaurant", "atm"); nil with ``categoryIDs`` only.
    public var query: String?
    /// Categories by TomTom id.
    public var categoryIDs: [Int] = []
    /// The route's points, at least two, in driving order.
    public var points: [Coordinate]
    /// The route's travel mode, which detours are measured with. Default: car.
    public var travelMode: TravelMode = .car
    /// Only places whose detour adds at most this many seconds, 1...3600.
    public var maxDetourSeconds: Int
    /// At most this many results, 1...20. Default 10.
    public var limit = 10
    /// Result order. Default: by detour time.
    public var sortBy: SortOrder = .detourTime
    /// Spread results over the whole route instead of bunching the best ones.
    public var spreadAlongRoute = false
    /// Report where each detour leaves the route (``Place/Detour/offsetMeters``).
    public var includeDetourOffset = true
    /// Language of names and categories; nil: the client's or server's default.
    public var language: String?

    /// Places matching `query` along `route`, detouring at most `maxDetourSeconds`.
    public init(_ query: String?, along route: Route, maxDetourSeconds: Int = 600) {
        self.query = query
        points = route.polyline
        travelMode = route.travelMode ?? .car
        self.maxDetourSeconds = maxDetourSeconds
    }

    /// Places matching `query` along the route through `points`.
    public init(_ query: String?, alongPoints points: [Coordinate], travelMode: TravelMode = .car, maxDetourSeconds: Int = 600) {
        self.query = query
        self.points = points
        self.travelMode = travelMode
        self.maxDetourSeconds = maxDetourSeconds
    }
}

enum SearchParameters {
    static func bias(_ near: Coordinate?, _ radius: Int?) -> [(String, String)] {
        guard let near else { return [] }
        var q = [("lat", Coordinate.degrees(near.latitude, 7)), ("lon", Coordinate.degrees(near.longitude, 7))]
        if let radius { q.append(("radius", String(radius))) }
        return q
    }

    static func validate(_ near: Coordinate?, _ radius: Int?) throws(WayfinderError) {
        if let near, !near.isValid { throw .invalidQuery("\(near) is not a valid coordinate", parameter: "lat") }
        if radius != nil && near == nil { throw .invalidQuery("a radius needs a centre (near)", parameter: "radius") }
        if let radius, !(1...50_000).contains(radius) { throw .invalidQuery("radius must be in 1...50000 metres", parameter: "radius") }
    }
}
