import SQLite
import GeoCore
import BinaryIO

/// The embedded place store: a read-only `places.sqlite` built by `PlacesIndexBuilder`.
///
/// Thread-safe: every call borrows a connection from a pool (one per concurrent caller, opened on
/// demand, up to `maximumIdleConnections` kept), so any number of threads may query at once.
public final class SQLitePlaceStore: PlaceStore {
    public let path: String
    public let taxonomy: CategoryTaxonomy
    private let pool: ConnectionPool<PlaceSession>
    /// The other-language names of the areas addresses name.
    let areaNames: AreaNames

    /// Opens the index at `path`; throws `PlacesError` when it is missing or of another format version.
    public init(path: String, taxonomy: CategoryTaxonomy = .standard, maximumIdleConnections: Int = 8) throws {
        guard FileIO.exists(path) else { throw PlacesError(.missingFile, path: path) }
        self.path = path
        self.taxonomy = taxonomy
        // Check the version on a plain connection first: a foreign file may lack the tables a session reads.
        let version: String?
        let probe: Database
        do {
            probe = try Database(path: PlaceSession.immutableURI(path), mode: .readOnly)
            version = try? probe.scalarText("SELECT value FROM meta WHERE key = 'format_version'")
        } catch {
            throw PlacesError(.storage(error.description), path: path)
        }
        guard let version, Int(version) == PlacesSchema.formatVersion else {
            throw PlacesError(.incompatibleFormat(found: version.flatMap { Int($0) } ?? 0, expected: PlacesSchema.formatVersion), path: path)
        }
        do {
            areaNames = try AreaNames(database: probe)
        } catch {
            throw PlacesError(.storage(error.description), path: path)
        }
        pool = ConnectionPool(maximumIdle: maximumIdleConnections) { try PlaceSession(path: path) }
        try pool.warmUp()
    }

    func withSession<R>(_ body: (PlaceSession) throws -> R) throws -> R {
        try pool.withConnection(body)
    }

    /// Connections opened so far (at most one per concurrent caller).
    public var connectionsOpened: Int { pool.connectionsOpened }

    public func info() throws -> PlaceStoreInfo {
        try withSession { session in
            let db = session.database
            var counts: [PlaceKind: Int] = [:]
            let s = try db.cachedStatement("SELECT kind, COUNT(*) FROM place GROUP BY kind")
            while try s.step() { if let kind = PlaceKind(rawValue: UInt8(clamping: s.int(0))) { counts[kind] = s.int(1) } }
            s.reset()
            return PlaceStoreInfo(
                formatVersion: Int(try db.scalarText("SELECT value FROM meta WHERE key = 'format_version'") ?? "") ?? 0,
                countryCode: try db.scalarText("SELECT value FROM meta WHERE key = 'country_code'").flatMap { $0.isEmpty ? nil : $0 },
                source: try db.scalarText("SELECT value FROM meta WHERE key = 'source'") ?? "",
                builtAtUnixSeconds: Int(try db.scalarText("SELECT value FROM meta WHERE key = 'built_at_unix'") ?? "") ?? 0,
                counts: counts)
        }
    }

    public func count(category: String) throws -> Int {
        let categories = taxonomy.resolve(category)
        guard !categories.isEmpty else { return 0 }
        return try withSession { session in
            let codes = categories.compactMap { session.categoryCodes[$0.id] }
            return Int(try session.database.scalarInt64(
                "SELECT COUNT(DISTINCT place_id) FROM place_category WHERE code IN (SELECT value FROM json_each(?1))",
                [.text(Self.jsonArray(codes))]) ?? 0)
        }
    }

    public func places(osmType: OSMObjectType, osmID: Int64, language: String?) throws -> [PlaceResult] {
        try withSession { session in
            let s = try session.database.cachedStatement("SELECT \(PlaceRow.columns) FROM place p WHERE p.osm_type = ?1 AND p.osm_id = ?2 ORDER BY p.kind DESC")
            try s.bind([.integer(Int64(osmType.rawValue)), .integer(osmID)])
            defer { s.reset() }
            var out: [PlaceResult] = []
            while try s.step() { out.append(finish(PlaceRow.decode(s), language: language)) }
            return out
        }
    }

    // MARK: Helpers shared by the query files

    /// Category codes for filters; nil when there is no filter, [] when the filters name nothing known.
    func categoryCodes(_ filters: [String], _ session: PlaceSession) -> [Int64]? {
        guard !filters.isEmpty else { return nil }
        return taxonomy.resolve(filters).compactMap { session.categoryCodes[$0.id] }
    }

    static func jsonArray(_ values: [Int64]) -> String { "[" + values.map(String.init).joined(separator: ",") + "]" }

    /// Gives a place its names in the wanted languages, and a plain address its "Street 5" name.
    func finish(_ place: PlaceResult, language: String?) -> PlaceResult {
        var p = place.localized(LanguagePreference(language), areas: areaNames)
        if p.kind == .address, place.name.isEmpty { p.name = p.address.streetNameAndNumber ?? "" }
        return p
    }

    /// The box around `center` reaching `meters` in every direction.
    static func box(around center: Coordinate, meters: Double) -> BoundingBox {
        BoundingBox(minLatitudeE7: center.latitudeE7, minLongitudeE7: center.longitudeE7,
                    maxLatitudeE7: center.latitudeE7, maxLongitudeE7: center.longitudeE7).expanded(byMeters: meters)
    }

    static func intersection(_ a: BoundingBox?, _ b: BoundingBox?) -> BoundingBox? {
        guard let a else { return b }
        guard let b else { return a }
        return BoundingBox(minLatitudeE7: max(a.minLatitudeE7, b.minLatitudeE7), minLongitudeE7: max(a.minLongitudeE7, b.minLongitudeE7),
                           maxLatitudeE7: min(a.maxLatitudeE7, b.maxLatitudeE7), maxLongitudeE7: min(a.maxLongitudeE7, b.maxLongitudeE7))
    }
}
