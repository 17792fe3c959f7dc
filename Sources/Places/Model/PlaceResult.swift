public import GeoCore

/// One place as search, nearby, corridor and reverse geocoding return it.
public struct PlaceResult: Sendable, Equatable {
    /// The store's own id (stable within one index file only).
    public var id: Int64
    public var kind: PlaceKind
    public var osmType: OSMObjectType
    public var osmID: Int64
    /// The display name: the POI, street or locality name, or "Street 5" for a plain address.
    public var name: String
    /// Category ids from the taxonomy ("restaurant", "atm", …), most specific first.
    public var categories: [String]
    public var address: PlaceAddress
    public var position: Coordinate
    /// The object's extent, for streets and areas.
    public var extent: BoundingBox?
    public var phone: String?
    public var website: String?
    public var openingHours: String?
    public var brand: String?
    public var cuisine: String?
    /// The OSM tag that made the object a place (`amenity=restaurant`, `place=suburb`, `highway=residential`, `place=house`).
    public var osmKey: String
    public var osmValue: String
    /// 0...1, set at import per kind (a city outranks a suburb, a street, a POI, an address).
    public var importance: Double
    /// Metres from the bias point or query position, when there was one.
    public var distanceMeters: Double?
    /// Relevance; higher is better. Comparable within one answer only.
    public var score: Double
    /// True for a house number placed by interpolation between known numbers.
    public var isInterpolated: Bool
    /// `name:xx` translations and alternative names (`alt_name`, `old_name`, …) as OSM keys and values.
    public var otherNames: [String: String]
    /// The other names of the street in the address (`name:sv`, `alt_name`, …), for answering in a language.
    public var streetNames: [String: String]
    /// Tags beyond names and address (Nominatim's `extratags`): opening hours, wikidata, capacity, …
    public var extraTags: [String: String]
    /// The place has an outline (a building, an area) in the index.
    public var hasShape: Bool

    public init(id: Int64, kind: PlaceKind, osmType: OSMObjectType, osmID: Int64, name: String, categories: [String] = [],
                address: PlaceAddress = PlaceAddress(), position: Coordinate, extent: BoundingBox? = nil, phone: String? = nil,
                website: String? = nil, openingHours: String? = nil, brand: String? = nil, cuisine: String? = nil,
                osmKey: String = "", osmValue: String = "", importance: Double = 0, distanceMeters: Double? = nil,
                score: Double = 0, isInterpolated: Bool = false, otherNames: [String: String] = [:],
                streetNames: [String: String] = [:], extraTags: [String: String] = [:], hasShape: Bool = false) {
        self.id = id
        self.kind = kind
        self.osmType = osmType
        self.osmID = osmID
        self.name = name
        self.categories = categories
        self.address = address
        self.position = position
        self.extent = extent
        self.phone = phone
        self.website = website
        self.openingHours = openingHours
        self.brand = brand
        self.cuisine = cuisine
        self.osmKey = osmKey
        self.osmValue = osmValue
        self.importance = importance
        self.distanceMeters = distanceMeters
        self.score = score
        self.isInterpolated = isInterpolated
        self.otherNames = otherNames
        self.streetNames = streetNames
        self.extraTags = extraTags
        self.hasShape = hasShape
    }

    /// The name in `language` (`name:fi`; a list such as "sv,en;q=0.8" is tried in order) when the object
    /// has one, else `name`.
    public func name(inLanguage language: String?) -> String {
        name(in: LanguagePreference(language))
    }

    /// The name as Nominatim chooses it: `name:xx` for each wanted language, then `name`, then `brand`,
    /// `official_name:xx`, `short_name:xx`, `official_name`, `short_name` and `ref`.
    public func name(in languages: LanguagePreference) -> String {
        languages.choose(from: otherNames, main: name) ?? name
    }

    /// This result with its names, its street's and its areas' (suburb, city, county, state) in the wanted languages.
    func localized(_ languages: LanguagePreference, areas: AreaNames) -> PlaceResult {
        guard !languages.isEmpty else { return self }
        var p = self
        if let street = address.streetName, let local = languages.choose(from: streetNames, main: street) { p.address.streetName = local }
        if kind == .street { p.address.streetName = name(in: languages) }
        if !(kind == .address && name.isEmpty) { p.name = name(in: languages) }
        let area = { (part: String?) in part.map { areas.localized($0, near: self.position, languages) } }
        p.address.municipalitySubdivision = area(address.municipalitySubdivision)
        p.address.municipality = area(address.municipality)
        p.address.countrySecondarySubdivision = area(address.countrySecondarySubdivision)
        p.address.countrySubdivision = area(address.countrySubdivision)
        return p
    }

    /// How fine a place is, on Nominatim's scale of address ranks: 30 for houses and POIs, 26 for major
    /// streets (`RoadAttributes.nominatimMajorStreets`) and 27 for the others, 21 for postcodes, 16–25 for
    /// settlements (city 16 … neighbourhood 22), 4 for a country.
    public var addressRank: Int {
        switch kind {
        case .address, .poi: return 30
        case .street: return RoadAttributes.nominatimMajorStreets.contains(osmValue) ? 26 : 27
        case .postcode: return 21
        case .locality:
            if osmKey == "boundary", let level = Int(extraTags["admin_level"] ?? "") { return min(25, 2 * level) }
            return ["country": 4, "state": 8, "region": 10, "county": 12, "city": 16, "town": 18, "borough": 18, "village": 19,
                    "city_district": 19, "hamlet": 20, "suburb": 20, "island": 20, "quarter": 22, "neighbourhood": 22,
                    "isolated_dwelling": 22, "city_block": 25, "locality": 25, "square": 25][osmValue] ?? 25
        }
    }

    /// "Name, Street 5, 00100 City" as Nominatim's `display_name` joins it.
    public var displayName: String {
        var parts: [String] = []
        if kind == .poi || kind == .locality || (kind == .street && address.streetName != name) { parts.append(name) }
        let freeform = address.freeform
        if !freeform.isEmpty { parts.append(freeform) }
        if parts.isEmpty { parts.append(name) }
        return parts.joined(separator: ", ")
    }
}
