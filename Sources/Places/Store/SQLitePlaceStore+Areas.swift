import SQLite
import GeoCore

extension SQLitePlaceStore {
    /// An area around a point with its Nominatim rank: a boundary containing it, a settlement node whose
    /// reach covers it, or a postcode.
    struct AreaHit {
        var rank: Int
        var place: PlaceResult
        /// A boundary (containing the point) rather than a node near it.
        var isBoundary: Bool
    }

    /// How far a settlement node answers for, by its `place` value (as the builder's enricher reads them).
    static let localityReachMeters: [String: Double] = [
        "city": 15_000, "town": 6_000, "village": 3_000, "hamlet": 1_000, "borough": 4_000, "city_district": 4_000,
        "suburb": 2_000, "quarter": 1_200, "neighbourhood": 800, "isolated_dwelling": 300, "island": 3_000,
    ]

    /// The finest area around `q` whose rank is at most `maxRank` (Nominatim's `zoom` below 16). Never a
    /// postcode: Nominatim gives postcodes no address rank, so no zoom answers with one.
    func area(at q: Coordinate, maxRank: Int, session: PlaceSession) throws -> ReverseGeocodeResult? {
        let hits = try areas(around: q, session: session).filter { $0.rank <= maxRank && $0.place.kind != .postcode }
        guard let best = hits.max(by: { ($0.rank, $0.isBoundary ? 1 : 0) < ($1.rank, $1.isBoundary ? 1 : 0) }) else { return nil }
        return areaResult(best, q, hits)
    }

    /// The finest area of TomTom's `entityType`s around `q`.
    func area(at q: Coordinate, types: [ReverseGeocodeQuery.AreaType], session: PlaceSession) throws -> ReverseGeocodeResult? {
        let hits = try areas(around: q, session: session)
        for type in types.sorted(by: { $0.rank > $1.rank }) {
            let matching = hits.filter { Self.areaType(of: $0) == type }
            if let best = matching.max(by: { ($0.isBoundary ? 1 : 0, $0.rank) < ($1.isBoundary ? 1 : 0, $1.rank) }) {
                return areaResult(best, q, hits)
            }
        }
        return nil
    }

    static func areaType(of hit: AreaHit) -> ReverseGeocodeQuery.AreaType? {
        if hit.place.kind == .postcode { return .postalCodeArea }
        switch hit.rank {
        case ...4: return .country
        case 5...9: return .countrySubdivision
        case 10...13: return .countrySecondarySubdivision
        case 14...19: return ["suburb", "borough", "city_district"].contains(hit.place.osmValue) ? .municipalitySubdivision : .municipality
        case 20...21: return .municipalitySubdivision
        default: return .neighbourhood
        }
    }

    private func areaResult(_ hit: AreaHit, _ q: Coordinate, _ all: [AreaHit]) -> ReverseGeocodeResult {
        var place = hit.place
        // The parts above it, from the other areas around the point.
        for other in all where other.rank < hit.rank && other.place.kind != .postcode {
            switch other.rank {
            case ...4: if place.address.countryCode == nil { place.address.countryCode = other.place.address.countryCode }
            case 5...9: place.address.countrySubdivision = place.address.countrySubdivision ?? other.place.name
            case 10...13: place.address.countrySecondarySubdivision = place.address.countrySecondarySubdivision ?? other.place.name
            case 14...19: if place.address.municipality == nil && other.place.name != place.name { place.address.municipality = other.place.name }
            default: break
            }
        }
        let d = Geodesy.distanceMeters(q, place.position)
        place.distanceMeters = d
        return ReverseGeocodeResult(matchType: .area, place: place, distanceMeters: d)
    }

    /// Every area around `q`: boundaries containing it, settlement nodes covering it, its postcode.
    func areas(around q: Coordinate, session: PlaceSession) throws -> [AreaHit] {
        var hits: [AreaHit] = []
        let s = try session.database.cachedStatement("""
            SELECT b.id, b.kind, b.admin_level, b.name, b.other_names, b.postcode, b.country_code, b.osm_id, b.shape,
                   r.min_lat, r.min_lon, r.max_lat, r.max_lon
            FROM boundary_rtree r JOIN boundary b ON b.id = r.id
            WHERE r.min_lat <= ?1 AND r.max_lat >= ?1 AND r.min_lon <= ?2 AND r.max_lon >= ?2
            """)
        try s.bind([.integer(Int64(q.latitudeE7)), .integer(Int64(q.longitudeE7))])
        var countryCode: String?
        while try s.step() {
            guard let shape = Shape(encoded: s.blob(8)), shape.contains(q) else { continue }
            let box = BoundingBox(minLatitudeE7: s.int32(9), minLongitudeE7: s.int32(10), maxLatitudeE7: s.int32(11), maxLongitudeE7: s.int32(12))
            let isPostcode = s.int(1) == 1
            let level = s.isNull(2) ? 0 : s.int(2)
            if level == 2, let c = s.nonEmptyText(6) { countryCode = c }
            let place = PlaceResult(
                id: -s.int64(0), kind: isPostcode ? .postcode : .locality, osmType: .relation, osmID: s.int64(7), name: s.text(3),
                address: PlaceAddress(postcode: s.nonEmptyText(5), countryCode: s.nonEmptyText(6)), position: box.center, extent: box,
                osmKey: "boundary", osmValue: isPostcode ? "postal_code" : "administrative",
                otherNames: PlaceRow.pairs(s.nonEmptyText(4)), extraTags: level > 0 ? ["admin_level": String(level)] : [:])
            hits.append(AreaHit(rank: isPostcode ? 21 : min(25, 2 * level), place: place, isBoundary: true))
        }
        s.reset()
        // Settlement nodes whose reach covers the point.
        let reach = Self.localityReachMeters.values.max() ?? 0
        let box = Self.box(around: q, meters: reach)
        let l = try session.database.cachedStatement("""
            SELECT \(PlaceRow.columns) FROM place p WHERE p.kind = 3 AND p.lat_e7 BETWEEN ?1 AND ?2 AND p.lon_e7 BETWEEN ?3 AND ?4
            """)
        try l.bind([.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                    .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7))])
        var nearestOfRank: [Int: (ratio: Double, place: PlaceResult)] = [:]
        while try l.step() {
            var p = PlaceRow.decode(l)
            guard let r = Self.localityReachMeters[p.osmValue] else { continue }
            let d = Geodesy.distanceMeters(q, p.position)
            guard d <= r else { continue }
            if p.address.countryCode == nil { p.address.countryCode = countryCode }
            let rank = p.addressRank
            if d / r < (nearestOfRank[rank]?.ratio ?? .infinity) { nearestOfRank[rank] = (d / r, p) }
        }
        l.reset()
        for (rank, n) in nearestOfRank { hits.append(AreaHit(rank: rank, place: n.place, isBoundary: false)) }
        // The postcode: its boundary (above), else the postcode place of the nearest address that has one.
        if !hits.contains(where: { $0.place.kind == .postcode }),
           let near = try nearestAddress(to: q, maxMeters: 500, session: session), let code = near.place.address.postcode {
            let p = try session.database.cachedStatement("SELECT \(PlaceRow.columns) FROM place p WHERE p.kind = 4 AND p.postcode = ?1 LIMIT 1")
            try p.bind(code, at: 1)
            if try p.step() { hits.append(AreaHit(rank: 21, place: PlaceRow.decode(p), isBoundary: false)) }
            p.reset()
        }
        // A country is known even without its boundary in the extract.
        let indexCountry = try session.database.scalarText("SELECT value FROM meta WHERE key = 'country_code'").flatMap { $0.isEmpty ? nil : $0 }
        if !hits.contains(where: { $0.rank <= 4 }), let code = countryCode ?? hits.compactMap({ $0.place.address.countryCode }).first ?? indexCountry {
            let place = PlaceResult(id: 0, kind: .locality, osmType: .relation, osmID: 0, name: code,
                                    address: PlaceAddress(countryCode: code), position: q, osmKey: "place", osmValue: "country")
            hits.append(AreaHit(rank: 4, place: place, isBoundary: false))
        }
        return hits
    }
}
