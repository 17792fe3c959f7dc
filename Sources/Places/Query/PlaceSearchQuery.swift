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
    /// Preferred language for names (`name:xx`), e.g. "fi" or "en-US", or a list ("sv,en;q=0.8").
    public var language: String?
    /// Nominatim's structured search: each field matched against its own part of a place (`text` is ignored).
    public var structured: StructuredAddress?
    /// Only places in these countries (ISO 3166-1 alpha-2, upper case); empty = anywhere.
    public var countryCodes: [String] = []
    /// Places (by `PlaceResult.id`) to leave out (Nominatim's `exclude_place_ids`).
    public var excludedIDs: Set<Int64> = []
    /// Only places whose `addressRank` lies here (Nominatim's `featureType`).
    public var addressRanks: ClosedRange<Int>?
    /// Only places of these layers (Nominatim's `layer`); empty = all.
    public var layers: Set<Layer> = []

    /// Whether a place passes the filters that are not in the index's own order: countries, excluded
    /// ids, address ranks and layers.
    func accepts(_ p: PlaceResult) -> Bool {
        if !countryCodes.isEmpty && !countryCodes.contains(p.address.countryCode ?? "") { return false }
        if excludedIDs.contains(p.id) { return false }
        if let ranks = addressRanks, !(p.kind == .locality && ranks.contains(p.addressRank)) { return false }
        if !layers.isEmpty && !layers.contains(Layer.of(p)) { return false }
        return true
    }

    /// Nominatim's layers: what kind of thing a place is.
    public enum Layer: String, Sendable, CaseIterable {
        /// Places that make up addresses: house numbers, streets, settlements, postcodes.
        case address
        /// Points of interest that are not one of the three below.
        case poi
        case railway
        /// Natural features: water, peaks, woods, …
        case natural
        /// Man-made structures: towers, bridges, piers, …
        case manmade

        /// The layer of a place.
        public static func of(_ p: PlaceResult) -> Layer {
            guard p.kind == .poi else { return .address }
            switch p.osmKey {
            case "railway": return .railway
            case "natural", "waterway", "water", "geological": return .natural
            case "man_made", "bridge", "tunnel", "power": return .manmade
            default: return .poi
            }
        }
    }

    /// The fields of a structured search (Nominatim's `amenity`, `street`, `city`, `county`, `state`,
    /// `postalcode`; `country` becomes `countryCodes`).
    public struct StructuredAddress: Sendable, Equatable {
        public var amenity: String?
        /// House number and street ("5 Main Street" or "Main Street 5").
        public var street: String?
        public var city: String?
        public var county: String?
        public var state: String?
        public var postalCode: String?

        public init(amenity: String? = nil, street: String? = nil, city: String? = nil, county: String? = nil, state: String? = nil,
                    postalCode: String? = nil) {
            self.amenity = amenity
            self.street = street
            self.city = city
            self.county = county
            self.state = state
            self.postalCode = postalCode
        }

        /// No field is given.
        public var isEmpty: Bool { primary == nil }

        /// The field whose words must be in a result's name, the kinds it asks for, and the fields matched
        /// against the rest of the address.
        var primary: (text: String, kinds: Set<PlaceKind>, others: [String])? {
            let others = [city, county, state, postalCode]
            if let amenity { return (amenity, [.poi], ([street] + others).compactMap { $0 }) }
            if let street { return (street, [.address, .street, .poi], others.compactMap { $0 }) }
            if let city { return (city, [.locality], [county, state, postalCode].compactMap { $0 }) }
            if let postalCode { return (postalCode, [.postcode], [county, state].compactMap { $0 }) }
            if let county { return (county, [.locality], [state].compactMap { $0 }) }
            if let state { return (state, [.locality], []) }
            return nil
        }
    }

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
