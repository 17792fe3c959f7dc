public import GeoCore

/// A free-text search (TomTom fuzzy search / Nominatim `q=`), optionally as-you-type.
public struct PlaceSearchQuery: Sendable, Equatable {
    public var text: String
    /// The last word is a prefix ("Mannerh" finds "Mannerheimintie").
    public var typeahead: Bool
    /// Results near here rank higher, and carry `distanceMeters`.
    public var bias: Coordinate?
    /// How the bias point weighs against importance (its distance decay: see `LocationBias`).
    public var biasWeighting = LocationBias()
    /// With `bias`: only results within this many metres of it.
    public var radiusMeters: Double?
    /// Only results inside this box.
    public var boundingBox: BoundingBox?
    /// Only POIs in these categories: string ids ("fuel"), TomTom ids ("7311") or names ("petrol station").
    public var categories: [String]
    /// Which kinds of results are wanted.
    public var kinds: Set<PlaceKind>
    public var limit: Int
    public var offset: Int
    /// 1 = exact words only; 2 = one typo per word (two in words of 8+ letters); 3 or more = two typos from 5 letters.
    public var maxFuzzyLevel: Int
    /// Preferred language for names (`name:xx`), e.g. "fi" or "en-US".
    public var language: String?

    public init(text: String, typeahead: Bool = false, bias: Coordinate? = nil, radiusMeters: Double? = nil,
                boundingBox: BoundingBox? = nil, categories: [String] = [], kinds: Set<PlaceKind> = Set(PlaceKind.allCases),
                limit: Int = 10, offset: Int = 0, maxFuzzyLevel: Int = 2, language: String? = nil) {
        self.text = text
        self.typeahead = typeahead
        self.bias = bias
        self.radiusMeters = radiusMeters
        self.boundingBox = boundingBox
        self.categories = categories
        self.kinds = kinds
        self.limit = limit
        self.offset = offset
        self.maxFuzzyLevel = maxFuzzyLevel
        self.language = language
    }
}
