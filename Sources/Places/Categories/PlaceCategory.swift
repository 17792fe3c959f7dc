/// One POI category: a stable string id, English names, TomTom's numeric id, and the OSM tags that map to it.
public struct PlaceCategory: Sendable, Hashable, Identifiable {
    /// Stable string id: "fuel", "restaurant", "atm".
    public var id: String
    /// English display name: "Petrol Station".
    public var name: String
    /// Other English words people search with: "gas station", "gas", "petrol".
    public var synonyms: [String]
    /// TomTom's numeric category id (7311), when TomTom has one. Child ids are parent × 1000 + n.
    public var tomTomID: Int?
    /// More TomTom ids that also mean this category (7313 parking garage for "parking").
    public var additionalTomTomIDs: [Int]
    /// TomTom's classification code ("PETROL_STATION").
    public var tomTomCode: String
    /// OSM tag rules; any one matching puts an object in the category.
    public var osmRules: [OSMTagRule]
    /// A catch-all ("shop") that applies only when no other category matched.
    public var isFallback: Bool

    public init(id: String, name: String, synonyms: [String] = [], tomTomID: Int?, additionalTomTomIDs: [Int] = [],
                tomTomCode: String, osm: [String], isFallback: Bool = false) {
        self.id = id
        self.name = name
        self.synonyms = synonyms
        self.tomTomID = tomTomID
        self.additionalTomTomIDs = additionalTomTomIDs
        self.tomTomCode = tomTomCode
        self.osmRules = osm.map { OSMTagRule($0) }
        self.isFallback = isFallback
    }

    /// Every TomTom id of the category, primary first.
    public var allTomTomIDs: [Int] { (tomTomID.map { [$0] } ?? []) + additionalTomTomIDs }

    /// Lowercase names as TomTom's `poi.categories` lists them ("petrol station").
    public var lowercaseNames: [String] { [name.lowercased()] }
}
