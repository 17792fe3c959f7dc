import SQLite
import GeoCore

extension SQLitePlaceStore {
    /// An address this close always wins over a street.
    static let addressPreferredWithinMeters = 25.0
    /// An address wins over a nearer street when it is at most this much farther.
    static let addressToleranceMeters = 15.0
    /// When the street is nearer, a number on it this close to where the point meets it answers.
    static let numberOnStreetReachMeters = 60.0

    /// The answer, finest first: the building containing the point (its address), else the nearest
    /// address point (an entrance, a POI's own address, an address node, an interpolated number), unless
    /// a street is clearly nearer — then a number of that street near the point, a number estimated
    /// between its known ones, or the street itself. `maxRank` below 28 asks for a street only, below 26
    /// for an area; `areaTypes` for TomTom's geography types; `houseNumber` for a number's place on the street.
    public func reverseGeocode(_ query: ReverseGeocodeQuery) throws -> ReverseGeocodeResult? {
        let radius = min(max(query.radiusMeters, 1), 10_000)
        let q = query.position
        return try withSession { session -> ReverseGeocodeResult? in
            var result: ReverseGeocodeResult?
            if !query.areaTypes.isEmpty {
                result = try area(at: q, types: query.areaTypes, session: session)
            } else if query.maxRank <= 25 {
                result = try area(at: q, maxRank: query.maxRank, session: session)
            } else if let number = query.houseNumber {
                result = try position(ofNumber: number, near: q, maxMeters: radius, uses: query.roadUses, session: session)
            } else if query.maxRank <= 27 || !query.roadUses.isEmpty {
                result = try nearestStreets(to: q, maxMeters: radius, majorOnly: query.maxRank <= 26, uses: query.roadUses,
                                            session: session).first.map { streetResult($0, q) }
            } else {
                result = try address(at: q, maxMeters: radius, allowStreet: query.allowStreet, withRoad: query.includeRoad, session: session)
            }
            guard var found = result else { return nil }
            found.place = finish(found.place, language: query.language)
            return found
        }
    }

    private func address(at q: Coordinate, maxMeters: Double, allowStreet: Bool, withRoad: Bool,
                         session: PlaceSession) throws -> ReverseGeocodeResult? {
        let address = try nearestAddress(to: q, maxMeters: maxMeters, session: session)
        // A close address answers whatever the streets are; they are looked up only for its road's attributes.
        if let address, address.meters <= Self.addressPreferredWithinMeters, !withRoad { return addressResult(address.place, q, []) }
        let streets = allowStreet || address != nil ? try nearestStreets(to: q, maxMeters: max(maxMeters, 100), session: session) : []
        let street = streets.first.flatMap { $0.distance <= maxMeters ? $0 : nil }
        if let address, street == nil || address.meters <= Self.addressPreferredWithinMeters
            || address.meters <= (street?.distance ?? 0) + Self.addressToleranceMeters {
            return addressResult(address.place, q, streets)
        }
        guard let street else { return address.map { addressResult($0.place, q, streets) } }
        if let name = street.place.address.streetName ?? Optional(street.place.name),
           let onStreet = try nearestAddress(to: street.point, maxMeters: Self.numberOnStreetReachMeters, street: name, session: session) {
            return addressResult(onStreet.place, q, streets)
        }
        if !allowStreet { return address.map { addressResult($0.place, q, streets) } }
        if var estimated = try interpolate(on: street, query: q, session: session) {
            let d = Geodesy.distanceMeters(q, estimated.position)
            estimated.distanceMeters = d
            return ReverseGeocodeResult(matchType: .houseNumberRange, place: estimated, distanceMeters: d, road: street.road)
        }
        return streetResult(street, q)
    }

    private func addressResult(_ place: PlaceResult, _ q: Coordinate, _ streets: [StreetHit]) -> ReverseGeocodeResult {
        var p = place
        let d = Geodesy.distanceMeters(q, p.position)
        p.distanceMeters = d
        let key = place.address.streetName?.lowercased()
        let road = streets.first { ($0.place.address.streetName ?? $0.place.name).lowercased() == key && $0.distance <= 100 }?.road
        return ReverseGeocodeResult(matchType: place.isInterpolated ? .houseNumberRange : .addressPoint, place: p, distanceMeters: d, road: road)
    }

    func streetResult(_ street: StreetHit, _ q: Coordinate) -> ReverseGeocodeResult {
        var place = street.place
        place.position = street.point
        place.distanceMeters = street.distance
        return ReverseGeocodeResult(matchType: .street, place: place, distanceMeters: street.distance, road: street.road)
    }

    /// Where no building contains the point, an address node, entrance or POI with its own address this
    /// close to it answers before a building's outline that is nearer still ("the entrance at the point").
    static let entranceReachMeters = 5.0

    /// The address at `q`: the building containing it (the smallest, when several do), unless a point-like
    /// address within `entranceReachMeters` stands inside that building (a shop on the corner that carries the
    /// other street's number); else such a point-like address (a node, an entrance, an interpolated number,
    /// a POI that carries its own address); else the nearest of those and of the buildings, measured to their
    /// outlines, within `maxMeters`. With `street`, only numbers of that street. Searches 50 m first, then the
    /// whole distance.
    func nearestAddress(to q: Coordinate, maxMeters: Double, street: String? = nil,
                        session: PlaceSession) throws -> (place: PlaceResult, meters: Double)? {
        let addresses = try session.database.cachedStatement("""
            SELECT \(PlaceRow.columns), s.shape, r.min_lat, r.max_lat, r.min_lon, r.max_lon
            FROM address_rtree r JOIN place p ON p.id = r.id LEFT JOIN place_shape s ON s.id = p.id
            WHERE r.max_lat >= ?1 AND r.min_lat <= ?2 AND r.max_lon >= ?3 AND r.min_lon <= ?4
            """)
        let pois = try session.database.cachedStatement("""
            SELECT \(PlaceRow.columns) FROM poi_rtree r JOIN place p ON p.id = r.id
            WHERE r.max_lat >= ?1 AND r.min_lat <= ?2 AND r.max_lon >= ?3 AND r.min_lon <= ?4 AND (p.flags & \(PlaceRecord.Flags.ownAddress.rawValue)) != 0
            """)
        defer {
            addresses.reset()
            pois.reset()
        }
        let key = street?.lowercased()
        var reach = min(maxMeters, 50)
        while true {
            let box = Self.box(around: q, meters: reach)
            let bounds: [SQLiteValue] = [.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                                         .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7))]
            // The nearest point-like address (node, entrance, own-address POI) and the nearest by outline.
            var point: (place: PlaceResult, meters: Double)?
            var best: (place: PlaceResult, meters: Double, area: Double, outline: Shape?)?
            func consider(_ s: Statement, shapeColumn: Bool) {
                if let key, s.optionalText(12)?.lowercased() != key { return }
                let d = Geodesy.distanceMeters(q, Coordinate(latitudeE7: s.int32(5), longitudeE7: s.int32(6)))
                var byOutline = d, area = Double.infinity, outline: Shape?
                let c = PlaceRow.columnCount
                if shapeColumn, !s.isNull(c) {
                    // No nearer than the outline's box: skip reading the outline when that is already too far.
                    let nearest = Coordinate(latitudeE7: min(max(q.latitudeE7, s.int32(c + 1)), s.int32(c + 2)),
                                             longitudeE7: min(max(q.longitudeE7, s.int32(c + 3)), s.int32(c + 4)))
                    let lower = Geodesy.distanceMeters(q, nearest)
                    if lower > reach || lower > (best?.meters ?? .infinity) { return }
                }
                if shapeColumn, !s.isNull(c), let shape = Shape(encoded: s.blob(c)) {
                    byOutline = min(d, shape.distanceMeters(from: q))
                    area = shape.areaSquareMeters
                    outline = shape
                } else if d < (point?.meters ?? .infinity) && d <= reach {
                    var p = PlaceRow.decode(s)
                    p.distanceMeters = d
                    point = (p, d)
                }
                guard byOutline <= reach else { return }
                if let b = best, (byOutline, area) >= (b.meters, b.area) { return }
                var p = PlaceRow.decode(s)
                p.distanceMeters = byOutline
                best = (p, byOutline, area, outline)
            }
            addresses.reset()
            try addresses.bind(bounds)
            while try addresses.step() { consider(addresses, shapeColumn: true) }
            pois.reset()
            try pois.bind(bounds)
            while try pois.step() { consider(pois, shapeColumn: false) }
            let atPoint = point.flatMap { $0.meters <= Self.entranceReachMeters ? $0 : nil }
            if let best, best.meters == 0 {
                if let atPoint, best.outline?.contains(atPoint.place.position) == true,
                   atPoint.place.address.streetNameAndNumber?.lowercased() != best.place.address.streetNameAndNumber?.lowercased() {
                    return atPoint
                }
                return (best.place, 0)
            }
            if let atPoint { return atPoint }
            if let best { return (best.place, best.meters) }
            if reach >= maxMeters { return nil }
            reach = maxMeters
        }
    }

    struct StreetHit {
        var place: PlaceResult
        /// The query projected onto the nearest segment.
        var point: Coordinate
        var distance: Double
        var a: Coordinate
        var b: Coordinate
        var road: RoadAttributes
    }

    /// The streets nearest `q` within `maxMeters`, nearest first, each with its nearest point (searching
    /// `firstMeters`, then the whole distance); `majorOnly` keeps Nominatim's major streets (`RoadAttributes.nominatimMajorStreets`).
    func nearestStreets(to q: Coordinate, maxMeters: Double, firstMeters: Double = 50, majorOnly: Bool = false,
                        uses: Set<RoadAttributes.Use> = [], limit: Int = 4, session: PlaceSession) throws -> [StreetHit] {
        let s = try session.database.cachedStatement("""
            SELECT street_id, road, points FROM street_rtree WHERE max_lat >= ?1 AND min_lat <= ?2 AND max_lon >= ?3 AND min_lon <= ?4
            """)
        var reach = min(maxMeters, firstMeters)
        var best: [Int64: (point: Coordinate, distance: Double, a: Coordinate, b: Coordinate, road: RoadAttributes)] = [:]
        while true {
            let box = Self.box(around: q, meters: reach)
            s.reset()
            try s.bind([.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                        .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7))])
            while try s.step() {
                let road = RoadAttributes(code: s.int64(1))
                if majorOnly && !RoadAttributes.nominatimMajorStreets.contains(road.highway) { continue }
                if !uses.isEmpty && !uses.contains(road.use) { continue }
                let hit = StreetPiece.nearest(to: q, on: StreetPiece.points(s.blob(2)))
                let id = s.int64(0)
                if hit.meters <= reach && hit.meters < (best[id]?.distance ?? .infinity) { best[id] = (hit.point, hit.meters, hit.a, hit.b, road) }
            }
            s.reset()
            if !best.isEmpty || reach >= maxMeters { break }
            reach = maxMeters
        }
        let row = try session.database.cachedStatement("SELECT \(PlaceRow.columns) FROM place p WHERE p.id = ?1")
        defer { row.reset() }
        var out: [StreetHit] = []
        for (id, b) in best.sorted(by: { ($0.value.distance, $0.key) < ($1.value.distance, $1.key) }).prefix(limit) {
            row.reset()
            try row.bind(id, at: 1)
            guard try row.step() else { continue }
            out.append(StreetHit(place: PlaceRow.decode(row), point: b.point, distance: b.distance, a: b.a, b: b.b, road: b.road))
        }
        return out
    }
}
