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

    public init(id: Int64, kind: PlaceKind, osmType: OSMObjectType, osmID: Int64, name: String, categories: [String] = [],
                address: PlaceAddress = PlaceAddress(), position: Coordinate, extent: BoundingBox? = nil, phone: String? = nil,
                website: String? = nil, openingHours: String? = nil, brand: String? = nil, cuisine: String? = nil,
                osmKey: String = "", osmValue: String = "", importance: Double = 0, distanceMeters: Double? = nil,
                score: Double = 0, isInterpolated: Bool = false, otherNames: [String: String] = [:]) {
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
    }

    /// The name in `language` (`name:fi`) when the object has one, else `name`.
    public func name(inLanguage language: String?) -> String {
        guard let language, !language.isEmpty else { return name }
        let base = language.split(separator: "-").first.map(String.init) ?? language
        return otherNames["name:\(language)"] ?? otherNames["name:\(base.lowercased())"] ?? name
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
