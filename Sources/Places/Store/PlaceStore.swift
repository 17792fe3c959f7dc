/// Search over places: free text, nearby, along a corridor, reverse geocoding. The SQLite store is the
/// embedded default; a PostgreSQL/PostGIS store can implement the same protocol. Implementations are
/// safe to call from many threads at once. Expected outcomes are values: nothing found is an empty
/// answer; only I/O or storage failures throw.
public protocol PlaceStore: Sendable {
    var taxonomy: CategoryTaxonomy { get }

    func search(_ query: PlaceSearchQuery) throws -> PlaceSearchResponse
    func nearby(_ query: NearbyQuery) throws -> [PlaceResult]
    func corridor(_ query: CorridorQuery) throws -> [CorridorMatch]
    func reverseGeocode(_ query: ReverseGeocodeQuery) throws -> ReverseGeocodeResult?
    /// The places made from one OSM object (a POI and its address, say), named in `language` when given.
    func places(osmType: OSMObjectType, osmID: Int64, language: String?) throws -> [PlaceResult]
    /// How many places are in the categories a filter names (`"restaurant"`, `"7397"`).
    func count(category: String) throws -> Int
    func info() throws -> PlaceStoreInfo
}

/// What an index holds.
public struct PlaceStoreInfo: Sendable, Equatable {
    public var formatVersion: Int
    public var countryCode: String?
    public var source: String
    public var builtAtUnixSeconds: Int
    public var counts: [PlaceKind: Int]

    public init(formatVersion: Int, countryCode: String?, source: String, builtAtUnixSeconds: Int, counts: [PlaceKind: Int]) {
        self.formatVersion = formatVersion
        self.countryCode = countryCode
        self.source = source
        self.builtAtUnixSeconds = builtAtUnixSeconds
        self.counts = counts
    }
}
