import GeoCore

/// The addresses of an extract as compact columns (interned strings), for completing other records.
struct AddressTable {
    private(set) var strings = StringTable()
    private(set) var positions: [Coordinate] = []
    private(set) var streetKey: [UInt32] = []
    private(set) var street: [UInt32] = []
    private(set) var number: [UInt32] = []
    private(set) var postcode: [UInt32] = []
    private(set) var city: [UInt32] = []
    /// The city was inferred, not tagged: it does not spread to neighbours.
    private(set) var inferredCity: [Bool] = []

    var count: Int { positions.count }

    mutating func add(_ r: PlaceRecord) {
        positions.append(r.position)
        streetKey.append(strings.intern(r.street?.lowercased() ?? ""))
        street.append(strings.intern(r.street ?? ""))
        number.append(strings.intern(r.houseNumber ?? ""))
        postcode.append(strings.intern(r.postcode ?? ""))
        city.append(strings.intern(r.city ?? ""))
        inferredCity.append(r.flags.contains(.inferredCity))
    }

    /// Fills the postcode or city of address `i` from a later copy of it.
    mutating func fill(_ i: Int, postcode p: String?, city c: String?) {
        if postcode[i] == 0, let p { postcode[i] = strings.intern(p) }
        if city[i] == 0, let c { city[i] = strings.intern(c) }
    }

    func text(_ column: [UInt32], _ i: Int) -> String? {
        let v = column[i]
        return v == 0 ? nil : strings[v]
    }
}

/// Completes records from their surroundings, as Nominatim does: a POI node with no `addr:*` of its own
/// takes the address of the building around it; any other POI without `addr:street` only its nearest
/// street (a neighbour's house number is not its own). The municipality boundary around a place names its
/// city, whatever `addr:city` says (another `addr:city` becomes the district, unless a boundary names
/// one: in Andorra a village in its parish); without one, a missing city, district or postcode comes from the
/// nearest address that has one or the nearest locality node; county, state and country come from
/// boundaries. An address gets the other names of its street.
struct AddressEnricher {
    /// How far a locality's name reaches, by `place` value.
    static let municipalityReachMeters: [String: Double] = ["city": 25_000, "town": 10_000, "village": 4_000, "hamlet": 1_500]
    static let districtReachMeters: [String: Double] = [
        "borough": 6_000, "city_district": 6_000, "suburb": 3_000, "quarter": 1_500, "neighbourhood": 1_000,
    ]
    /// `admin_level`s read as the municipality, in order of preference.
    static let municipalityLevels = [8, 7]
    static let districtLevels = [9, 10]

    let addresses: AddressTable
    private let addressGrid: SpatialGrid
    private let localities: [(position: Coordinate, name: String, place: String)]
    private let localityGrid: SpatialGrid
    let boundaries: BoundaryIndex
    let defaultCountryCode: String?
    /// Names of areas below a municipality (`admin_level` 9–10 boundaries, suburbs, quarters, …) that no
    /// municipality has: an `addr:city` naming one ("Monte-Carlo" in Monaco) does not name the city.
    private let districtNames: Set<String>
    /// The street nearest a point within a distance (the index's street geometry answers it).
    var nearestStreet: (Coordinate, Double) throws -> String? = { _, _ in nil }
    /// The address of the smallest building outline (with an address) containing a point.
    var enclosingAddress: (Coordinate) throws -> PlaceAddress? = { _ in nil }
    /// Other names of streets by lower-cased name, with the box each street covers.
    var streetNames: [String: [(box: BoundingBox, names: [String: String])]] = [:]

    init(addresses: AddressTable, localities: [(position: Coordinate, name: String, place: String)], boundaries: BoundaryIndex,
         defaultCountryCode: String?) {
        self.addresses = addresses
        self.localities = localities
        self.boundaries = boundaries
        self.defaultCountryCode = defaultCountryCode
        let municipalities = Set(boundaries.boundaries.filter { Self.municipalityLevels.contains($0.adminLevel ?? 0) }.map(\.name))
            .union(localities.filter { Self.municipalityReachMeters[$0.place] != nil }.map(\.name))
        districtNames = Set(boundaries.boundaries.filter { Self.districtLevels.contains($0.adminLevel ?? 0) }.map(\.name))
            .union(localities.filter { Self.districtReachMeters[$0.place] != nil }.map(\.name)).subtracting(municipalities)
        let latitude = addresses.positions.first?.latitude ?? localities.first?.position.latitude ?? 0
        addressGrid = SpatialGrid(addresses.positions, cellMeters: 150, referenceLatitude: latitude)
        localityGrid = SpatialGrid(localities.map(\.position), cellMeters: 2_000, referenceLatitude: latitude)
    }

    /// Fills what `r` lacks.
    func complete(_ r: inout PlaceRecord) throws {
        let around = boundaries.containing(r.position)
        if r.countryCode == nil { r.countryCode = around.first { $0.countryCode != nil }?.countryCode ?? defaultCountryCode }
        if r.state == nil { r.state = BoundaryIndex.name(in: around, levels: [4]) }
        if r.county == nil { r.county = BoundaryIndex.name(in: around, levels: [6]) }
        if r.kind == .poi && r.street == nil {
            let hasAddress = r.houseNumber != nil || r.postcode != nil || r.city != nil
            if r.osmType == .node, !hasAddress, let building = try enclosingAddress(r.position), building.streetName != nil {
                r.street = building.streetName
                r.houseNumber = building.houseNumber
                r.postcode = building.postcode
                r.city = building.municipality
            } else if let street = try nearestStreet(r.position, 100) {
                r.street = street
            }
        }
        if let street = r.street, r.kind != .street, r.kind != .locality { r.streetNames = names(ofStreet: street, at: r.position) }
        if r.kind == .locality {
            if ["suburb", "quarter", "neighbourhood", "borough", "city_district", "square", "locality", "isolated_dwelling", "city_block"]
                .contains(r.osmValue), r.city == nil {
                r.city = BoundaryIndex.name(in: around, levels: Self.municipalityLevels).flatMap { $0 == r.name ? nil : $0 }
                    ?? locality(near: r.position, reach: Self.municipalityReachMeters)
            }
            if r.osmValue == "city_block", r.district == nil {
                r.district = BoundaryIndex.name(in: around, levels: Self.districtLevels) ?? locality(near: r.position, reach: Self.districtReachMeters)
            }
            return
        }
        // `addr:city` naming something else than the municipality around (a village, a quarter) stays as the
        // district unless a boundary names that; one naming a quarter never names the city.
        var otherCity: String?
        if let tagged = r.city, districtNames.contains(tagged) {
            otherCity = tagged
            r.city = nil
        }
        if let city = BoundaryIndex.name(in: around, levels: Self.municipalityLevels) {
            if let tagged = r.city, tagged != city { otherCity = tagged }
            if r.city != city { r.flags.insert(.inferredCity) }
            r.city = city
        } else if r.city == nil {
            if let near = addressGrid.nearest(to: r.position, maxMeters: 1_000, accept: {
                addresses.city[Int($0)] != 0 && !addresses.inferredCity[Int($0)] && !districtNames.contains(addresses.strings[addresses.city[Int($0)]])
            }) {
                r.city = addresses.text(addresses.city, Int(near.id))
            } else {
                r.city = locality(near: r.position, reach: Self.municipalityReachMeters)
            }
            if r.city != nil { r.flags.insert(.inferredCity) }
        }
        if r.district == nil {
            r.district = BoundaryIndex.name(in: around, levels: Self.districtLevels) ?? otherCity
                ?? locality(near: r.position, reach: Self.districtReachMeters)
        }
        if r.postcode == nil {
            r.postcode = around.first { $0.postcode != nil }?.postcode
        }
        if r.postcode == nil {
            let key = r.street?.lowercased()
            if let key, let near = addressGrid.nearest(to: r.position, maxMeters: 400, accept: {
                addresses.postcode[Int($0)] != 0 && addresses.strings[addresses.streetKey[Int($0)]] == key
            }) {
                r.postcode = addresses.text(addresses.postcode, Int(near.id))
            } else if let near = addressGrid.nearest(to: r.position, maxMeters: 150, accept: { addresses.postcode[Int($0)] != 0 }) {
                r.postcode = addresses.text(addresses.postcode, Int(near.id))
            }
        }
    }

    /// The other names of the street called `street` nearest to `p` (within 1 km of its box).
    func names(ofStreet street: String, at p: Coordinate) -> [String: String] {
        guard let candidates = streetNames[street.lowercased()] else { return [:] }
        var best: (names: [String: String], meters: Double)?
        for c in candidates {
            let d = c.box.distanceMeters(to: p)
            if d <= 1_000 && d < (best?.meters ?? .infinity) { best = (c.names, d) }
        }
        return best?.names ?? [:]
    }

    /// The name of the locality whose reach (by type) covers `p` best.
    private func locality(near p: Coordinate, reach: [String: Double]) -> String? {
        let maxReach = reach.values.max() ?? 0
        var best: (name: String, ratio: Double)?
        for (id, meters) in localityGrid.within(p, meters: maxReach) {
            let l = localities[Int(id)]
            guard let r = reach[l.place], meters <= r else { continue }
            let ratio = meters / r
            if ratio < (best?.ratio ?? .infinity) { best = (l.name, ratio) }
        }
        return best?.name
    }

    /// Postcode, city and the rest for a street: the most common among its own addresses, else from its middle.
    func context(forStreet street: MergedStreet) throws -> PlaceRecord {
        let key = street.name.lowercased()
        var postcodes: [String: Int] = [:], cities: [String: Int] = [:]
        let reach = Geodesy.distanceMeters(street.extent.southWest, street.extent.northEast) / 2 + 100
        for (id, _) in addressGrid.within(street.extent.center, meters: min(reach, 20_000)) {
            let i = Int(id)
            guard addresses.strings[addresses.streetKey[i]] == key else { continue }
            if let p = addresses.text(addresses.postcode, i) { postcodes[p, default: 0] += 1 }
            if let c = addresses.text(addresses.city, i) { cities[c, default: 0] += 1 }
        }
        var r = PlaceRecord(kind: .street, osmType: .way, osmID: street.osmID, name: street.name, otherNames: street.otherNames,
                            osmKey: "highway", osmValue: street.highway,
                            importance: TagClassifier.streetImportance(highway: street.highway, lengthMeters: street.lengthMeters))
        r.position = street.position
        r.extent = street.extent
        r.street = street.name
        r.postcode = street.postcode ?? postcodes.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        r.city = cities.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        try complete(&r)
        return r
    }
}
