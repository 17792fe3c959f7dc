import GeoCore

/// Completes addresses from the surroundings: a POI without `addr:street` gets the nearest address
/// or street; a missing city, district or postcode comes from the nearest address that has one, or
/// from the nearest locality node.
struct AddressEnricher {
    /// How far a locality's name reaches, by `place` value.
    static let municipalityReachMeters: [String: Double] = ["city": 25_000, "town": 10_000, "village": 4_000, "hamlet": 1_500]
    static let districtReachMeters: [String: Double] = [
        "borough": 6_000, "city_district": 6_000, "suburb": 3_000, "quarter": 1_500, "neighbourhood": 1_000,
    ]

    private var addressGrid: SpatialGrid
    private var addresses: [PlaceRecord] = []
    private var localityGrid: SpatialGrid
    private var localities: [PlaceRecord] = []
    private var segmentGrid: SpatialGrid
    private var segmentStreet: [(name: String, a: Coordinate, b: Coordinate)] = []
    let defaultCountryCode: String?

    init(records: [PlaceRecord], streets: [MergedStreet], defaultCountryCode: String?) {
        let latitude = records.first?.position.latitude ?? streets.first?.position.latitude ?? 0
        addressGrid = SpatialGrid(cellMeters: 150, referenceLatitude: latitude)
        localityGrid = SpatialGrid(cellMeters: 2_000, referenceLatitude: latitude)
        segmentGrid = SpatialGrid(cellMeters: 100, referenceLatitude: latitude)
        self.defaultCountryCode = defaultCountryCode
        for r in records {
            switch r.kind {
            case .address:
                addressGrid.insert(r.position)
                addresses.append(r)
            case .locality:
                localityGrid.insert(r.position)
                localities.append(r)
            default: break
            }
        }
        for s in streets {
            for (a, b) in s.segments {
                // Index each segment at points every ~50 m, so that a grid lookup finds long segments too.
                let length = Geodesy.distanceMeters(a, b)
                let pieces = max(1, min(200, Int(length / 50)))
                for k in 0...pieces {
                    segmentGrid.insert(Geodesy.interpolate(a, b, Double(k) / Double(pieces)))
                    segmentStreet.append((s.name, a, b))
                }
            }
        }
    }

    /// Fills what `record` lacks.
    func complete(_ r: inout PlaceRecord) {
        if r.countryCode == nil { r.countryCode = defaultCountryCode }
        if r.kind == .poi && r.street == nil {
            if let near = addressGrid.nearest(to: r.position, maxMeters: 40) {
                let a = addresses[Int(near.id)]
                r.street = a.street
                r.houseNumber = a.houseNumber
                if r.postcode == nil { r.postcode = a.postcode }
                if r.city == nil { r.city = a.city }
            } else if let street = nearestStreet(to: r.position, maxMeters: 100) {
                r.street = street
            }
        }
        if r.kind == .locality {
            if ["suburb", "quarter", "neighbourhood", "borough", "city_district", "square", "locality", "isolated_dwelling"].contains(r.osmValue),
               r.city == nil {
                r.city = locality(near: r.position, reach: Self.municipalityReachMeters)
            }
            return
        }
        if r.city == nil {
            if let near = addressGrid.nearest(to: r.position, maxMeters: 1_000, accept: { addresses[Int($0)].city != nil && !addresses[Int($0)].flags.contains(.inferredCity) }) {
                r.city = addresses[Int(near.id)].city
            } else {
                r.city = locality(near: r.position, reach: Self.municipalityReachMeters)
            }
            if r.city != nil { r.flags.insert(.inferredCity) }
        }
        if r.district == nil {
            r.district = locality(near: r.position, reach: Self.districtReachMeters)
        }
        if r.postcode == nil {
            let street = r.street?.lowercased()
            if let street, let near = addressGrid.nearest(to: r.position, maxMeters: 400, accept: {
                addresses[Int($0)].postcode != nil && addresses[Int($0)].street?.lowercased() == street
            }) {
                r.postcode = addresses[Int(near.id)].postcode
            } else if let near = addressGrid.nearest(to: r.position, maxMeters: 150, accept: { addresses[Int($0)].postcode != nil }) {
                r.postcode = addresses[Int(near.id)].postcode
            }
        }
    }

    /// The name of the locality whose reach (by type) covers `p` best.
    private func locality(near p: Coordinate, reach: [String: Double]) -> String? {
        let maxReach = reach.values.max() ?? 0
        var best: (name: String, ratio: Double)?
        for (id, meters) in localityGrid.within(p, meters: maxReach) {
            let l = localities[Int(id)]
            guard let r = reach[l.osmValue], meters <= r else { continue }
            let ratio = meters / r
            if ratio < (best?.ratio ?? .infinity) { best = (l.name, ratio) }
        }
        return best?.name
    }

    /// The name of the street nearest to `p`, within `maxMeters`.
    func nearestStreet(to p: Coordinate, maxMeters: Double) -> String? {
        var best: (name: String, meters: Double)?
        for (id, _) in segmentGrid.within(p, meters: maxMeters + 60) {
            let s = segmentStreet[Int(id)]
            let projected = Geodesy.project(p, ontoSegment: s.a, s.b).point
            let d = Geodesy.distanceMeters(p, projected)
            if d <= maxMeters && d < (best?.meters ?? .infinity) { best = (s.name, d) }
        }
        return best?.name
    }

    /// Postcode and city for a street: the most common among its own addresses, else from its middle.
    func context(forStreet street: MergedStreet) -> (postcode: String?, city: String?, district: String?) {
        let key = street.name.lowercased()
        var postcodes: [String: Int] = [:], cities: [String: Int] = [:]
        let reach = Geodesy.distanceMeters(street.extent.southWest, street.extent.northEast) / 2 + 100
        for (id, _) in addressGrid.within(street.extent.center, meters: min(reach, 20_000)) {
            let a = addresses[Int(id)]
            guard a.street?.lowercased() == key else { continue }
            if let p = a.postcode { postcodes[p, default: 0] += 1 }
            if let c = a.city { cities[c, default: 0] += 1 }
        }
        var probe = PlaceRecord(kind: .street, osmType: .way, osmID: street.osmID, name: street.name, osmKey: "highway",
                                osmValue: street.highway, importance: 0)
        probe.position = street.position
        probe.street = street.name
        probe.postcode = postcodes.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        probe.city = cities.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        complete(&probe)
        return (probe.postcode, probe.city, probe.district)
    }
}
