import SQLite
import GeoCore

extension SQLitePlaceStore {
    public func nearby(_ query: NearbyQuery) throws -> [PlaceResult] {
        let limit = min(max(query.limit, 1), 100), offset = min(max(query.offset, 0), 1_900)
        guard query.radiusMeters > 0 else { return [] }
        return try withSession { session in
            let codes = categoryCodes(query.categories, session)
            if let codes, codes.isEmpty { return [] }
            var fts: String?
            if let text = query.text {
                let words = session.words(text)
                if !words.isEmpty {
                    fts = QueryWord.ftsQuery(words.enumerated().map { QueryWord(text: $0.element, isPrefix: $0.offset == words.count - 1) })
                }
            }
            let found = try nearbyPlaces(around: query.center, radiusMeters: query.radiusMeters, codes: codes, ftsQuery: fts, box: nil,
                                         needed: offset + limit, session: session)
            return found.dropFirst(offset).prefix(limit).map { p in
                var place = finish(p, language: query.language)
                place.score = ((1 / (1 + (p.distanceMeters ?? 0) / 1_000)) * 1000).rounded() / 1000
                return place
            }
        }
    }

    private static let nearbySQL = """
        SELECT \(PlaceRow.columns) FROM poi_rtree r JOIN place p ON p.id = r.id
        WHERE r.max_lat >= ?1 AND r.min_lat <= ?2 AND r.max_lon >= ?3 AND r.min_lon <= ?4
          AND (?5 IS NULL OR EXISTS (SELECT 1 FROM place_category c
                                     WHERE c.code IN (SELECT value FROM json_each(?5)) AND c.place_id = p.id))
          AND (?6 IS NULL OR p.id IN (SELECT rowid FROM place_fts WHERE place_fts MATCH ?6))
        """

    /// POIs within `radiusMeters` of `center`, nearest first, with `distanceMeters` set. Searches a small
    /// box first and widens it (×4) until `needed` are found or the radius is reached.
    func nearbyPlaces(around center: Coordinate, radiusMeters: Double, codes: [Int64]?, ftsQuery: String?, box: BoundingBox?,
                      needed: Int, session: PlaceSession) throws -> [PlaceResult] {
        if let codes, try categorySize(codes, session: session) <= Self.smallCategory {
            return try categoryMembers(codes, around: center, radiusMeters: radiusMeters, ftsQuery: ftsQuery, box: box, session: session)
        }
        let s = try session.database.cachedStatement(Self.nearbySQL)
        defer { s.reset() }
        var reach = min(radiusMeters, 400)
        while true {
            guard let searchBox = Self.intersection(Self.box(around: center, meters: reach), box), !searchBox.isEmpty else { return [] }
            s.reset()
            try s.bind([.integer(Int64(searchBox.minLatitudeE7)), .integer(Int64(searchBox.maxLatitudeE7)),
                        .integer(Int64(searchBox.minLongitudeE7)), .integer(Int64(searchBox.maxLongitudeE7)),
                        codes.map { .text(Self.jsonArray($0)) } ?? .null, ftsQuery.map { .text($0) } ?? .null])
            var found: [PlaceResult] = []
            while try s.step() {
                var p = PlaceRow.decode(s)
                let d = Geodesy.distanceMeters(center, p.position)
                guard d <= reach else { continue }
                p.distanceMeters = d
                found.append(p)
            }
            if found.count >= needed || reach >= radiusMeters {
                found.sort { ($0.distanceMeters ?? 0, $0.id) < ($1.distanceMeters ?? 0, $1.id) }
                return found
            }
            reach = min(radiusMeters, reach * 4)
        }
    }

    /// Categories with at most this many places are read whole rather than searched through the R*Tree.
    static let smallCategory = 2_000

    /// How many places the categories hold, counting at most `smallCategory + 1`.
    func categorySize(_ codes: [Int64], session: PlaceSession) throws -> Int {
        let s = try session.database.cachedStatement("""
            SELECT COUNT(*) FROM (SELECT 1 FROM place_category WHERE code IN (SELECT value FROM json_each(?1)) LIMIT ?2)
            """)
        defer { s.reset() }
        try s.bind([.text(Self.jsonArray(codes)), .integer(Int64(Self.smallCategory + 1))])
        return try s.step() ? s.int(0) : 0
    }

    /// Every place of small categories within the radius, nearest first.
    func categoryMembers(_ codes: [Int64], around center: Coordinate, radiusMeters: Double, ftsQuery: String?, box: BoundingBox?,
                         session: PlaceSession) throws -> [PlaceResult] {
        guard let area = Self.intersection(Self.box(around: center, meters: radiusMeters), box), !area.isEmpty else { return [] }
        let s = try session.database.cachedStatement("""
            SELECT \(PlaceRow.columns) FROM place p
            WHERE p.id IN (SELECT place_id FROM place_category WHERE code IN (SELECT value FROM json_each(?1)))
              AND p.lat_e7 BETWEEN ?2 AND ?3 AND p.lon_e7 BETWEEN ?4 AND ?5
              AND (?6 IS NULL OR p.id IN (SELECT rowid FROM place_fts WHERE place_fts MATCH ?6))
            """)
        defer { s.reset() }
        try s.bind([.text(Self.jsonArray(codes)), .integer(Int64(area.minLatitudeE7)), .integer(Int64(area.maxLatitudeE7)),
                    .integer(Int64(area.minLongitudeE7)), .integer(Int64(area.maxLongitudeE7)), ftsQuery.map { .text($0) } ?? .null])
        var found: [PlaceResult] = []
        while try s.step() {
            var p = PlaceRow.decode(s)
            let d = Geodesy.distanceMeters(center, p.position)
            guard d <= radiusMeters else { continue }
            p.distanceMeters = d
            found.append(p)
        }
        found.sort { ($0.distanceMeters ?? 0, $0.id) < ($1.distanceMeters ?? 0, $1.id) }
        return found
    }
}
