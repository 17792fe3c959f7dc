import SQLite
import GeoCore

/// The names of the areas an address names (its suburb, city, county and state), so that an answer in
/// another language names them in that language, as Nominatim does ("Gardesstaden, Helsingfors" for
/// "Kaartinkaupunki, Helsinki" in Swedish). Read once when the index opens from what it already holds:
/// every administrative boundary and every locality (`place=*`) that has other names (`name:xx`,
/// `alt_name`, …). An address part is a name as the import wrote it; it stands for the area of that
/// name (or with that `name:xx`) nearest the place.
struct AreaNames: Sendable {
    struct Area: Sendable {
        var name: String
        var names: [String: String]
        var box: BoundingBox
    }

    /// A part stands for an area of its name at most this far from the place (from the area's box).
    static let reachMeters = 50_000.0

    /// Areas by folded name: the main name and each `name:xx`.
    private var byName: [String: [Area]] = [:]
    private(set) var count = 0

    init() {}

    init(database: Database) throws(SQLiteError) {
        let boundaries = try database.prepare("""
            SELECT b.name, b.other_names, r.min_lat, r.min_lon, r.max_lat, r.max_lon
            FROM boundary b JOIN boundary_rtree r ON r.id = b.id WHERE b.kind = 0 AND b.other_names IS NOT NULL
            """)
        while try boundaries.step() {
            add(Area(name: boundaries.text(0), names: PlaceRow.pairs(boundaries.nonEmptyText(1)),
                     box: BoundingBox(minLatitudeE7: boundaries.int32(2), minLongitudeE7: boundaries.int32(3),
                                      maxLatitudeE7: boundaries.int32(4), maxLongitudeE7: boundaries.int32(5))))
        }
        let localities = try database.prepare("""
            SELECT name, other_names, lat_e7, lon_e7 FROM place WHERE kind = \(PlaceKind.locality.rawValue) AND other_names IS NOT NULL
            """)
        while try localities.step() {
            let p = Coordinate(latitudeE7: localities.int32(2), longitudeE7: localities.int32(3))
            add(Area(name: localities.text(0), names: PlaceRow.pairs(localities.nonEmptyText(1)),
                     box: BoundingBox(minLatitudeE7: p.latitudeE7, minLongitudeE7: p.longitudeE7,
                                      maxLatitudeE7: p.latitudeE7, maxLongitudeE7: p.longitudeE7)))
        }
    }

    private mutating func add(_ area: Area) {
        guard !area.names.isEmpty else { return }
        count += 1
        var keys: Set<String> = [Self.key(area.name)]
        for (k, v) in area.names where k.hasPrefix("name:") { keys.insert(Self.key(v)) }
        for key in keys { byName[key, default: []].append(area) }
    }

    private static func key(_ name: String) -> String { name.lowercased() }

    /// The area called `name` nearest `p` (within `reachMeters`); one whose main name it is comes before
    /// one that has it only as a translation.
    func area(named name: String, near p: Coordinate) -> Area? {
        guard let candidates = byName[Self.key(name)] else { return nil }
        let near = candidates.compactMap { c -> (area: Area, meters: Double)? in
            let d = c.box.distanceMeters(to: p)
            return d <= Self.reachMeters ? (c, d) : nil
        }
        let own = near.filter { Self.key($0.area.name) == Self.key(name) }
        return (own.isEmpty ? near : own).min { $0.meters < $1.meters }?.area
    }

    /// `name` (an address part near `p`) in the wanted languages, with Nominatim's fallback: the area's
    /// `name:xx` for each language in turn, then its `name`. Unchanged when no area of that name is near.
    func localized(_ name: String, near p: Coordinate, _ languages: LanguagePreference) -> String {
        guard let area = area(named: name, near: p) else { return name }
        return languages.choose(from: area.names, main: area.name) ?? name
    }
}
