public import Foundation
public import MapsAPI

/// A place found by a search: a point of interest, an address, a street or an area, with the
/// name, address and phone number MKMapItem has, and the detour a search along a route measured.
public struct Place: Sendable, Identifiable {
    /// The server's stable identifier of the place (from the OSM object, e.g. `N4437127908:poi`).
    public var id: String
    /// What kind of result it is.
    public var kind: Kind
    /// The point of interest's name, or the address for an address result.
    public var name: String
    /// The phone number as mapped, when known.
    public var phoneNumber: String?
    /// The web site, when known.
    public var url: URL?
    /// Lowercase category names (`restaurant`, `fast food`, …).
    public var categories: [String]
    /// Numeric category ids (TomTom's, such as 7315 restaurant), usable in ``SearchRequest/categoryIDs``.
    public var categoryIDs: [Int]
    /// The structured address.
    public var address: SearchAddress
    /// The address on one line (`37 Boulevard du Jardin Exotique, 98000 Monaco`).
    public var formattedAddress: String
    /// Where the place is.
    public var coordinate: Coordinate
    /// Metres from the search's bias position, when one was given.
    public var distanceMeters: Double?
    /// For a search along a route: what stopping here costs.
    public var detour: Detour?
    /// Relevance score (higher is better).
    public var score: Double
    /// The server's result exactly as received.
    public var result: SearchResult

    /// Reads one result of a TomTom search document.
    public init(_ result: SearchResult) {
        self.result = result
        id = result.id
        kind = Kind(rawValue: result.type)
        formattedAddress = result.address.freeformAddress
        name = result.poi?.name ?? result.address.freeformAddress
        phoneNumber = result.poi?.phone
        url = result.poi?.url.flatMap { text in
            URL(string: text.contains("://") ? text : "https://" + text)
        }
        categories = result.poi?.categories ?? []
        categoryIDs = result.poi?.categorySet?.map(\.id) ?? []
        address = result.address
        coordinate = Coordinate(result.position)
        distanceMeters = result.dist
        score = result.score
        if let time = result.detourTime, let distance = result.detourDistance {
            detour = Detour(timeSeconds: time, distanceMeters: distance, offsetMeters: result.detourOffset)
        }
    }

    /// What a stop costs on a route.
    public struct Detour: Sendable, Hashable {
        /// Seconds added to the travel time (negative when the detour is faster).
        public var timeSeconds: Int
        /// Metres added to the length (may be negative).
        public var distanceMeters: Int
        /// Metres from the route's start to where the detour leaves it, when asked for.
        public var offsetMeters: Int?
    }

    /// The kind of a search result (TomTom's `type`). An open set.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// TomTom's name, such as `POI` or `Point Address`.
        public var rawValue: String
        /// A kind by its TomTom name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The TomTom name.
        public var description: String { rawValue }
        /// A point of interest: shop, restaurant, ATM, …
        public static let pointOfInterest = Kind(rawValue: "POI")
        /// A street.
        public static let street = Kind(rawValue: "Street")
        /// An area: town, district, neighbourhood.
        public static let geography = Kind(rawValue: "Geography")
        /// A house number on a street.
        public static let pointAddress = Kind(rawValue: "Point Address")
        /// A range of house numbers.
        public static let addressRange = Kind(rawValue: "Address Range")
        /// A crossing of two streets.
        public static let crossStreet = Kind(rawValue: "Cross Street")
    }
}

/// The places a search found, best first.
public struct PlaceSearchResponse: Sendable {
    /// The places, best first (empty when nothing matched: that is an answer, not an error).
    public var places: [Place]
    /// How many places matched in all (the page is ``places``).
    public var totalResults: Int
    /// The query as the server understood it.
    public var query: String
    /// The server's document exactly as received.
    public var body: SearchResponse

    /// Reads a TomTom search document.
    public init(_ body: SearchResponse) {
        self.body = body
        places = body.results.map(Place.init)
        totalResults = body.summary.totalResults
        query = body.summary.query
    }
}

/// An address found at a position by reverse geocoding.
public struct ReverseGeocodedAddress: Sendable {
    /// The structured address (street, number, municipality, postal code, country, …).
    public var address: SearchAddress
    /// The address on one line.
    public var formattedAddress: String
    /// The street, when one is near.
    public var street: String?
    /// The point on the street the address belongs to.
    public var coordinate: Coordinate
    /// `AddressPoint`, `HouseNumberRange` or `Street`, when the server said.
    public var matchType: String?
    /// The server's entry exactly as received.
    public var body: ReverseGeocodeAddress

    /// Reads one entry of a TomTom reverse geocoding document.
    public init(_ body: ReverseGeocodeAddress) throws(WayfinderError) {
        self.body = body
        address = body.address
        formattedAddress = body.address.freeformAddress
        street = body.address.street ?? body.address.streetName
        matchType = body.matchType
        guard let c = Coordinate(body.position) else {
            throw .decodingFailed("reverse geocoding position \"\(body.position)\" is not \"lat,lon\"")
        }
        coordinate = c
    }
}
