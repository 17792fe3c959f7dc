public import GeoCore

/// What is at a point: an address, else a street.
public struct ReverseGeocodeQuery: Sendable, Equatable {
    public var position: Coordinate
    /// Nothing farther than this is returned.
    public var radiusMeters: Double
    /// Whether a street without a house number may answer when no address is near.
    public var allowStreet: Bool
    public var language: String?

    public init(position: Coordinate, radiusMeters: Double = 200, allowStreet: Bool = true, language: String? = nil) {
        self.position = position
        self.radiusMeters = radiusMeters
        self.allowStreet = allowStreet
        self.language = language
    }
}

/// The answer to a reverse geocode.
public struct ReverseGeocodeResult: Sendable, Equatable {
    public enum MatchType: String, Sendable, Equatable {
        /// A mapped house number.
        case addressPoint = "AddressPoint"
        /// A house number estimated between known numbers on the same street.
        case houseNumberRange = "HouseNumberRange"
        /// A street, without a number.
        case street = "Street"
    }

    public var matchType: MatchType
    /// The address (kind `.address` or `.street`), positioned where it was matched.
    public var place: PlaceResult
    /// From the query position to `place.position`.
    public var distanceMeters: Double

    public init(matchType: MatchType, place: PlaceResult, distanceMeters: Double) {
        self.matchType = matchType
        self.place = place
        self.distanceMeters = distanceMeters
    }
}
