import SQLite
import GeoCore

extension SQLitePlaceStore {
    /// An address this close always wins over a street.
    static let addressPreferredWithinMeters = 25.0
    /// An address wins over a nearer street when it is at most this much farther.
    static let addressToleranceMeters = 15.0
    /// How far along the street known numbers are looked for when interpolating.
    static let interpolationReachMeters = 300.0

    public func reverseGeocode(_ query: ReverseGeocodeQuery) throws -> ReverseGeocodeResult? {
        let radius = min(max(query.radiusMeters, 1), 10_000)
        let q = query.position
        return try withSession { session in
            let address = try nearestAddress(to: q, maxMeters: radius, session: session)
            let street = query.allowStreet ? try nearestStreet(to: q, maxMeters: radius, session: session) : nil
            if let address, street == nil || address.distanceMeters ?? 0 <= Self.addressPreferredWithinMeters
                || (address.distanceMeters ?? 0) <= (street?.distance ?? 0) + Self.addressToleranceMeters {
                return ReverseGeocodeResult(matchType: .addressPoint, place: Self.finish(address, language: query.language),
                                            distanceMeters: address.distanceMeters ?? 0)
            }
            if let street {
                if var estimated = try interpolate(on: street, query: q, session: session) {
                    estimated.name = PlaceRow.displayName(estimated, language: query.language)
                    let d = Geodesy.distanceMeters(q, estimated.position)
                    estimated.distanceMeters = d
                    return ReverseGeocodeResult(matchType: .houseNumberRange, place: estimated, distanceMeters: d)
                }
                var place = Self.finish(street.place, language: query.language)
                place.position = street.point
                place.distanceMeters = street.distance
                return ReverseGeocodeResult(matchType: .street, place: place, distanceMeters: street.distance)
            }
            if let address {
                return ReverseGeocodeResult(matchType: .addressPoint, place: Self.finish(address, language: query.language),
                                            distanceMeters: address.distanceMeters ?? 0)
            }
            return nil
        }
    }

    /// The nearest address point within `maxMeters` (searching 50 m, then the whole radius).
    func nearestAddress(to q: Coordinate, maxMeters: Double, session: PlaceSession) throws -> PlaceResult? {
        let s = try session.database.cachedStatement("""
            SELECT \(PlaceRow.columns) FROM address_rtree r JOIN place p ON p.id = r.id
            WHERE r.max_lat >= ?1 AND r.min_lat <= ?2 AND r.max_lon >= ?3 AND r.min_lon <= ?4
            """)
        defer { s.reset() }
        var reach = min(maxMeters, 50)
        while true {
            let box = Self.box(around: q, meters: reach)
            s.reset()
            try s.bind([.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                        .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7))])
            var best: PlaceResult?
            while try s.step() {
                let position = Coordinate(latitudeE7: s.int32(5), longitudeE7: s.int32(6))
                let d = Geodesy.distanceMeters(q, position)
                guard d <= reach, d < (best?.distanceMeters ?? .infinity) else { continue }
                var p = PlaceRow.decode(s)
                p.distanceMeters = d
                best = p
            }
            if best != nil || reach >= maxMeters { return best }
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
    }

    /// The nearest street segment within `maxMeters` (searching 50 m, then the whole radius).
    func nearestStreet(to q: Coordinate, maxMeters: Double, session: PlaceSession) throws -> StreetHit? {
        let s = try session.database.cachedStatement("""
            SELECT street_id, lat1, lon1, lat2, lon2 FROM street_rtree
            WHERE max_lat >= ?1 AND min_lat <= ?2 AND max_lon >= ?3 AND min_lon <= ?4
            """)
        var reach = min(maxMeters, 50)
        var best: (id: Int64, point: Coordinate, distance: Double, a: Coordinate, b: Coordinate)?
        while true {
            let box = Self.box(around: q, meters: reach)
            s.reset()
            try s.bind([.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                        .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7))])
            while try s.step() {
                let a = Coordinate(latitudeE7: s.int32(1), longitudeE7: s.int32(2))
                let b = Coordinate(latitudeE7: s.int32(3), longitudeE7: s.int32(4))
                let point = Geodesy.project(q, ontoSegment: a, b).point
                let d = Geodesy.distanceMeters(q, point)
                if d <= reach && d < (best?.distance ?? .infinity) { best = (s.int64(0), point, d, a, b) }
            }
            s.reset()
            if best != nil || reach >= maxMeters { break }
            reach = maxMeters
        }
        guard let best else { return nil }
        let row = try session.database.cachedStatement("SELECT \(PlaceRow.columns) FROM place p WHERE p.id = ?1")
        defer { row.reset() }
        try row.bind(best.id, at: 1)
        guard try row.step() else { return nil }
        return StreetHit(place: PlaceRow.decode(row), point: best.point, distance: best.distance, a: best.a, b: best.b)
    }

    /// A house number for the query's point on `street`, between the nearest known numbers before and after
    /// it along the street, on the query's side when possible. Nil when there are no numbers on both sides.
    func interpolate(on street: StreetHit, query q: Coordinate, session: PlaceSession) throws -> PlaceResult? {
        guard let name = street.place.address.streetName ?? Optional(street.place.name), !name.isEmpty else { return nil }
        let reach = Self.interpolationReachMeters
        let box = Self.box(around: street.point, meters: reach)
        let s = try session.database.cachedStatement("""
            SELECT \(PlaceRow.columns) FROM address_rtree r JOIN place p ON p.id = r.id
            WHERE r.max_lat >= ?1 AND r.min_lat <= ?2 AND r.max_lon >= ?3 AND r.min_lon <= ?4 AND p.street = ?5
            """)
        defer { s.reset() }
        try s.bind([.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                    .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7)), .text(name)])
        // A local metric frame along the segment: t = metres along, side = which side of the street.
        let frame = LocalFrame(origin: street.point, a: street.a, b: street.b)
        let querySide = frame.side(q)
        var known: [(t: Double, side: Int, number: Int, place: PlaceResult)] = []
        while try s.step() {
            let p = PlaceRow.decode(s)
            guard let number = p.address.houseNumber.flatMap(Self.leadingNumber) else { continue }
            let t = frame.along(p.position)
            guard abs(t) <= reach else { continue }
            known.append((t, frame.side(p.position), number, p))
        }
        func bracket(_ candidates: [(t: Double, side: Int, number: Int, place: PlaceResult)]) -> (before: (t: Double, number: Int, place: PlaceResult), after: (t: Double, number: Int, place: PlaceResult))? {
            let before = candidates.filter { $0.t <= 0 }.max { $0.t < $1.t }
            let after = candidates.filter { $0.t > 0 }.min { $0.t < $1.t }
            guard let before, let after, before.number != after.number else { return nil }
            return ((before.t, before.number, before.place), (after.t, after.number, after.place))
        }
        let sameSide = querySide == 0 ? known : known.filter { $0.side == querySide || $0.side == 0 }
        guard let (before, after) = bracket(sameSide) ?? bracket(known) else { return nil }
        let span = after.t - before.t
        let fraction = span > 0 ? -before.t / span : 0
        var number = Double(before.number) + Double(after.number - before.number) * fraction
        let difference = after.number - before.number
        var estimate: Int
        if difference % 2 == 0 {
            // Same parity on both ends (one side of the street): keep it.
            let steps = ((number - Double(before.number)) / 2).rounded()
            estimate = before.number + Int(steps) * 2
        } else {
            number.round()
            estimate = Int(number)
        }
        estimate = min(max(estimate, min(before.number, after.number)), max(before.number, after.number))
        let nearer = abs(before.t) <= abs(after.t) ? before.place : after.place
        var address = nearer.address
        address.houseNumber = String(estimate)
        address.streetName = name
        return PlaceResult(id: street.place.id, kind: .address, osmType: street.place.osmType, osmID: street.place.osmID, name: "",
                           address: address, position: street.point, osmKey: "place", osmValue: "house",
                           importance: street.place.importance, isInterpolated: true)
    }

    /// "12" → 12, "12 A" → 12, "12-14" → 12; nil without leading digits.
    static func leadingNumber(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        return Int(digits)
    }
}
