import GeoCore

/// One place as the builder collects it, before it is written to the index.
struct PlaceRecord {
    var kind: PlaceKind
    var osmType: OSMObjectType
    var osmID: Int64
    var name: String
    /// `name:xx`, `alt_name`, `old_name`, … (all searchable).
    var otherNames: [String: String] = [:]
    /// The other names of the street in `street` (`name:sv`, `alt_name`, …), carried over from the street
    /// so that an address is found, and answers, by any name of its street.
    var streetNames: [String: String] = [:]
    var position = Coordinate(latitudeE7: 0, longitudeE7: 0)
    var extent: BoundingBox?
    var houseNumber: String?
    var street: String?
    var postcode: String?
    var city: String?
    var district: String?
    /// County and state (`admin_level` 6 and 4) from the boundaries containing the place.
    var county: String?
    var state: String?
    var countryCode: String?
    var categories: [String] = []
    var osmKey: String
    var osmValue: String
    var phone: String?
    var website: String?
    var openingHours: String?
    var brand: String?
    var cuisine: String?
    /// Words that find the object without being its name: operator, cuisine, brand.
    var keywords: [String] = []
    /// Tags beyond names and address (Nominatim's `extratags`), for POIs, localities and postcodes.
    var extraTags: [(key: String, value: String)] = []
    var importance: Double
    var flags: Flags = []

    struct Flags: OptionSet {
        let rawValue: Int
        /// A house number placed between two known ones along an `addr:interpolation` way.
        static let interpolated = Flags(rawValue: 1)
        /// An address taken from a POI's own `addr:*` tags (kept only when no other object has it).
        static let fromPOI = Flags(rawValue: 2)
        /// City or postcode was inferred from surroundings rather than tagged.
        static let inferredCity = Flags(rawValue: 4)
        /// The place has an outline in `place_shape` (a building, an area).
        static let hasShape = Flags(rawValue: 8)
        /// A POI whose house number and street are its own tags (not borrowed from a neighbour).
        static let ownAddress = Flags(rawValue: 16)
    }

    var address: PlaceAddress {
        PlaceAddress(houseNumber: houseNumber, streetName: street, postcode: postcode, municipality: city,
                     municipalitySubdivision: district, countrySecondarySubdivision: county, countrySubdivision: state,
                     countryCode: countryCode)
    }
}
