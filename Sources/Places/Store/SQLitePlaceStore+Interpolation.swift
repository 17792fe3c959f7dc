import SQLite
import GeoCore

extension SQLitePlaceStore {
    /// How far along the street known numbers are looked for when interpolating.
    static let interpolationReachMeters = 300.0

    /// Known numbers of `street` near its nearest point, with where they are along the nearest segment
    /// (`t`, metres) and on which side of it.
    private func knownNumbers(on street: StreetHit, reach: Double,
                              session: PlaceSession) throws -> (frame: LocalFrame, known: [(t: Double, side: Int, number: Int, place: PlaceResult)])? {
        guard let name = street.place.address.streetName ?? Optional(street.place.name), !name.isEmpty else { return nil }
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
        var known: [(t: Double, side: Int, number: Int, place: PlaceResult)] = []
        while try s.step() {
            let p = PlaceRow.decode(s)
            guard let number = p.address.houseNumber.flatMap(Self.leadingNumber) else { continue }
            let t = frame.along(p.position)
            guard abs(t) <= reach else { continue }
            known.append((t, frame.side(p.position), number, p))
        }
        return (frame, known)
    }

    /// A house number for the query's point on `street`, between the nearest known numbers before and after
    /// it along the street, on the query's side when possible. Nil when there are no numbers on both sides.
    func interpolate(on street: StreetHit, query q: Coordinate, session: PlaceSession) throws -> PlaceResult? {
        guard let (frame, known) = try knownNumbers(on: street, reach: Self.interpolationReachMeters, session: session) else { return nil }
        let querySide = frame.side(q)
        typealias Known = (t: Double, number: Int, place: PlaceResult)
        func bracket(_ candidates: [(t: Double, side: Int, number: Int, place: PlaceResult)]) -> (before: Known, after: Known)? {
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
        address.streetName = street.place.address.streetName ?? street.place.name
        return PlaceResult(id: street.place.id, kind: .address, osmType: street.place.osmType, osmID: street.place.osmID, name: "",
                           address: address, position: street.point, osmKey: "place", osmValue: "house",
                           importance: street.place.importance, isInterpolated: true, streetNames: street.place.otherNames)
    }

    /// TomTom's `number`: where house `number` is on the street nearest `q` — its own address when mapped
    /// (within 1 km along the street), else placed between the known numbers around it — with the side of
    /// the street it is on and its point on the street.
    func position(ofNumber number: String, near q: Coordinate, maxMeters: Double, uses: Set<RoadAttributes.Use> = [],
                  session: PlaceSession) throws -> ReverseGeocodeResult? {
        guard let street = try nearestStreets(to: q, maxMeters: maxMeters, uses: uses, limit: 1, session: session).first else { return nil }
        guard let (frame, known) = try knownNumbers(on: street, reach: 1_000, session: session) else { return streetResult(street, q) }
        let wanted = number.lowercased().filter { $0 != " " }
        func onStreet(_ p: Coordinate) -> Coordinate { Geodesy.interpolate(street.a, street.b, Geodesy.project(p, ontoSegment: street.a, street.b).fraction) }
        func side(_ p: Coordinate) -> ReverseGeocodeResult.Side? {
            switch frame.side(p) { case 1: .left; case -1: .right; default: nil }
        }
        if let exact = known.filter({ $0.place.address.houseNumber?.lowercased().filter({ $0 != " " }) == wanted }).min(by: { abs($0.t) < abs($1.t) }) {
            var p = exact.place
            let d = Geodesy.distanceMeters(q, p.position)
            p.distanceMeters = d
            return ReverseGeocodeResult(matchType: .addressPoint, place: p, distanceMeters: d, road: street.road, side: side(p.position),
                                        offsetPosition: onStreet(p.position))
        }
        guard let n = Self.leadingNumber(number) else { return streetResult(street, q) }
        let sameParity = known.filter { ($0.number - n) % 2 == 0 }
        let pool = sameParity.count >= 2 ? sameParity : known
        let below = pool.filter { $0.number < n }.max { $0.number < $1.number }
        let above = pool.filter { $0.number > n }.min { $0.number < $1.number }
        guard let below, let above else { return streetResult(street, q) }
        let fraction = Double(n - below.number) / Double(above.number - below.number)
        let position = Geodesy.interpolate(below.place.position, above.place.position, fraction)
        var address = below.place.address
        address.houseNumber = number
        let place = PlaceResult(id: street.place.id, kind: .address, osmType: street.place.osmType, osmID: street.place.osmID, name: "",
                                address: address, position: position, osmKey: "place", osmValue: "house",
                                importance: street.place.importance, distanceMeters: Geodesy.distanceMeters(q, position),
                                isInterpolated: true, streetNames: street.place.otherNames)
        return ReverseGeocodeResult(matchType: .houseNumberRange, place: place, distanceMeters: Geodesy.distanceMeters(q, position),
                                    road: street.road, side: side(position), offsetPosition: onStreet(position))
    }

    /// "12" → 12, "12 A" → 12, "12-14" → 12; nil without leading digits.
    static func leadingNumber(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        return Int(digits)
    }
}
