public import GeoCore

/// Places around a point, nearest first (MKLocalSearch / TomTom nearby and category search).
public struct NearbyQuery: Sendable, Equatable {
    public var center: Coordinate
    public var radiusMeters: Double
    /// Category filters: string ids, TomTom ids or names. Empty = any POI.
    public var categories: [String]
    /// Optional words the name (or address, cuisine, brand) must contain; the last word may be a prefix.
    public var text: String?
    public var limit: Int
    public var offset: Int
    public var language: String?

    public init(center: Coordinate, radiusMeters: Double = 1_000, categories: [String] = [], text: String? = nil,
                limit: Int = 10, offset: Int = 0, language: String? = nil) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.categories = categories
        self.text = text
        self.limit = limit
        self.offset = offset
        self.language = language
    }
}
