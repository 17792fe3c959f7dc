import OSMPBF
import GeoCore

/// Decides what an OSM object is for search: an address, a POI, a locality (and for ways, a street),
/// and turns its tags into `PlaceRecord`s without a position.
struct TagClassifier {
    let taxonomy: CategoryTaxonomy

    /// `place=*` values indexed as localities, with their importance.
    static let localityImportance: [String: Double] = [
        "country": 0.97, "state": 0.93, "region": 0.91, "province": 0.91, "county": 0.88, "city": 0.9, "town": 0.8, "village": 0.65, "borough": 0.62, "city_district": 0.62, "suburb": 0.6,
        "quarter": 0.55, "neighbourhood": 0.5, "hamlet": 0.45, "island": 0.45, "square": 0.42, "locality": 0.4,
        "islet": 0.38, "city_block": 0.36, "isolated_dwelling": 0.35,
    ]

    /// Keys that make a named object a POI even without a mapped category, in priority order.
    static let poiKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "healthcare", "historic", "emergency",
                          "aeroway", "railway", "public_transport", "man_made", "natural", "club", "landuse", "building"]

    /// POI key values that say nothing worth searching for by name.
    static let ignoredValues: Set<String> = [
        "railway=rail", "railway=tram", "railway=subway", "railway=platform", "railway=abandoned", "railway=disused",
        "railway=switch", "railway=level_crossing", "railway=crossing", "railway=buffer_stop", "railway=signal",
        "public_transport=stop_position", "public_transport=stop_area",
        "natural=tree", "natural=coastline", "natural=tree_row", "landuse=residential", "landuse=commercial",
        "landuse=retail", "landuse=industrial", "landuse=construction", "landuse=grass", "landuse=farmland",
        "man_made=pipeline", "man_made=embankment", "man_made=cutline", "building=no", "amenity=parking_space",
        "amenity=bench", "amenity=waste_basket", "emergency=fire_hydrant",
    ]

    /// POI key values searched for only by a name with a letter in it (a named platform is a stop people
    /// look up, and Nominatim indexes it with its address; an unnamed one, or "2", is a kerb).
    static let ignoredUnlessNamed: Set<String> = ["public_transport=platform"]

    /// Categories that make a POI more important than an ordinary shop.
    static let majorCategories: Set<String> = [
        "railway_station", "airport", "hospital", "museum", "attraction", "university", "mall", "stadium", "theatre",
        "ferry_terminal", "bus_station", "department_store", "government", "zoo", "theme_park", "casino",
    ]

    /// Highway values whose named ways are not streets.
    static let nonStreetHighways: Set<String> = [
        "platform", "bus_stop", "proposed", "construction", "abandoned", "elevator", "services", "rest_area",
        "traffic_signals", "crossing", "street_lamp", "corridor", "emergency_access_point",
    ]

    // MARK: Names

    /// True for keys whose value is a searchable name of the object.
    static func isNameKey(_ key: String) -> Bool {
        for base in ["name", "alt_name", "official_name", "short_name", "old_name", "loc_name", "int_name", "reg_name", "nat_name"] {
            if key == base { return true }
            if key.hasPrefix(base + ":") {
                let suffix = key.dropFirst(base.count + 1)
                return suffix.count <= 10 && suffix.allSatisfy { $0.isLetter || $0 == "-" || $0 == "_" }
                    && !suffix.contains("etymology") && !suffix.contains("pronunciation") && !suffix.contains("prefix")
                    && !suffix.contains("suffix")
            }
        }
        return false
    }

    /// The main name and every other name key with its value.
    static func names(_ tags: Tags) -> (name: String?, others: [String: String]) {
        var name: String?
        var others: [String: String] = [:]
        for (key, value) in tags where isNameKey(key) {
            let v = String(value.trimmedSpaces)
            guard !v.isEmpty, v.count <= 300 else { continue }
            if key == "name" { name = v } else { others[key] = v }
        }
        if name == nil {
            name = others["name:en"] ?? others.sorted { $0.key < $1.key }.first { $0.key.hasPrefix("name:") }?.value
        }
        return (name, others)
    }

    /// Keys never worth returning as extra tags (editing notes, import bookkeeping).
    static let noiseKeyPrefixes = ["source", "note", "fixme", "FIXME", "created_by", "attribution", "import", "check_date", "tiger:", "gnis:"]

    /// Tags beyond names and the address, as Nominatim returns them in `extratags` (at most 40, values ≤ 255 characters).
    static func extraTags(_ tags: Tags) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        for (key, value) in tags {
            guard !isNameKey(key), !key.hasPrefix("addr:"), !noiseKeyPrefixes.contains(where: { key.hasPrefix($0) }),
                  let v = clean(String(value)), v.count <= 255 else { continue }
            out.append((String(key), v))
            if out.count == 40 { break }
        }
        return out.sorted { $0.key < $1.key }
    }

    static func clean(_ value: String?) -> String? {
        guard let value else { return nil }
        let trimmed = String(value.trimmedSpaces)
        guard !trimmed.isEmpty, trimmed.count <= 500 else { return nil }
        return trimmed
    }

    // MARK: Records

    /// Every record an object yields: a POI and/or a locality, plus an address when it has `addr:*`.
    func records(_ tags: Tags, type: OSMObjectType, id: Int64) -> [PlaceRecord] {
        var out: [PlaceRecord] = []
        let named = Self.names(tags)
        if let locality = locality(tags, named: named, type: type, id: id) { out.append(locality) }
        let poi = self.poi(tags, named: named, type: type, id: id)
        if let poi { out.append(poi) }
        if var address = address(tags, type: type, id: id) {
            if poi != nil { address.flags.insert(.fromPOI) }
            out.append(address)
        }
        return out
    }

    func locality(_ tags: Tags, named: (name: String?, others: [String: String]), type: OSMObjectType, id: Int64) -> PlaceRecord? {
        guard let place = tags["place"], let importance = Self.localityImportance[place], let name = named.name else { return nil }
        var r = PlaceRecord(kind: .locality, osmType: type, osmID: id, name: name, otherNames: named.others,
                            osmKey: "place", osmValue: place, importance: importance)
        r.postcode = Self.clean(tags["addr:postcode"] ?? tags["postal_code"])
        r.countryCode = Self.clean(tags["addr:country"] ?? tags["is_in:country_code"])?.uppercased()
        if let population = tags["population"].flatMap({ Int($0.filter(\.isNumber)) }), population > 0 {
            r.importance += min(0.05, Double(population) / 20_000_000)
        }
        r.extraTags = Self.extraTags(tags)
        return r
    }

    func poi(_ tags: Tags, named: (name: String?, others: [String: String]), type: OSMObjectType, id: Int64) -> PlaceRecord? {
        let categories = taxonomy.categories(for: tags)
        var mainTag: (key: String, value: String)?
        for key in Self.poiKeys {
            if let value = tags[key], value != "no", !Self.ignoredValues.contains("\(key)=\(value)"),
               named.name?.contains(where: \.isLetter) == true || !Self.ignoredUnlessNamed.contains("\(key)=\(value)") {
                mainTag = (key, value)
                break
            }
        }
        if categories.isEmpty {
            // Without a category only named objects with a POI key count (a named building, a named office).
            guard named.name != nil, let main = mainTag else { return nil }
            if main.key == "building" && (tags["highway"] != nil || tags["place"] != nil) { return nil }
            if main.key == "landuse" && !["recreation_ground", "cemetery", "religious", "allotments"].contains(main.value) { return nil }
        }
        let brand = Self.clean(tags["brand"])
        let operatorName = Self.clean(tags["operator"])
        let firstCategory = categories.first.flatMap { taxonomy.category(id: $0) }
        guard let name = named.name ?? brand ?? operatorName ?? firstCategory?.name else { return nil }
        let (key, value) = mainTag ?? firstCategoryTag(tags, categories) ?? ("amenity", "yes")
        var r = PlaceRecord(kind: .poi, osmType: type, osmID: id, name: name, otherNames: named.others,
                            categories: categories, osmKey: key, osmValue: value, importance: 0.3)
        r.phone = Self.clean(tags["phone"] ?? tags["contact:phone"] ?? tags["phone:mobile"] ?? tags["contact:mobile"])
        r.website = Self.clean(tags["website"] ?? tags["contact:website"] ?? tags["url"])
        r.openingHours = Self.clean(tags["opening_hours"])
        r.brand = brand
        r.cuisine = Self.clean(tags["cuisine"])
        fillAddress(&r, tags)
        if r.houseNumber != nil && r.street != nil { r.flags.insert(.ownAddress) }
        var keywords: [String] = []
        if let cuisine = r.cuisine { keywords += cuisine.split(separator: ";").map { $0.trimmedSpaces.replacingUnderscores } }
        if let brand, brand != name { keywords.append(brand) }
        if let operatorName, operatorName != name { keywords.append(operatorName) }
        r.keywords = keywords
        r.extraTags = Self.extraTags(tags)
        if tags["wikidata"] != nil || tags["wikipedia"] != nil { r.importance += 0.1 }
        if categories.contains(where: Self.majorCategories.contains) { r.importance += 0.05 }
        if r.phone != nil || r.website != nil || r.openingHours != nil { r.importance += 0.02 }
        if named.name == nil { r.importance -= 0.1 }
        return r
    }

    private func firstCategoryTag(_ tags: Tags, _ categories: [String]) -> (String, String)? {
        guard let first = categories.first, let category = taxonomy.category(id: first) else { return nil }
        for rule in category.osmRules {
            let c = rule.conditions[0]
            if let v = tags[c.key] { return (c.key, v) }
        }
        return nil
    }

    func address(_ tags: Tags, type: OSMObjectType, id: Int64) -> PlaceRecord? {
        guard let number = Self.clean(tags["addr:housenumber"] ?? tags["addr:housename"]),
              let street = Self.clean(tags["addr:street"] ?? tags["addr:place"]) else { return nil }
        var r = PlaceRecord(kind: .address, osmType: type, osmID: id, name: "", osmKey: "place", osmValue: "house", importance: 0.25)
        fillAddress(&r, tags)
        r.houseNumber = number
        r.street = street
        return r
    }

    /// Copies `addr:*` into the record (street, number, postcode, city, district, country).
    func fillAddress(_ r: inout PlaceRecord, _ tags: Tags) {
        r.houseNumber = Self.clean(tags["addr:housenumber"]) ?? r.houseNumber
        r.street = Self.clean(tags["addr:street"] ?? tags["addr:place"]) ?? r.street
        r.postcode = Self.clean(tags["addr:postcode"] ?? tags["postal_code"]) ?? r.postcode
        r.city = Self.clean(tags["addr:city"] ?? tags["addr:municipality"] ?? tags["addr:town"] ?? tags["addr:village"]) ?? r.city
        r.district = Self.clean(tags["addr:suburb"] ?? tags["addr:district"] ?? tags["addr:quarter"] ?? tags["addr:neighbourhood"]) ?? r.district
        r.countryCode = Self.clean(tags["addr:country"])?.uppercased() ?? r.countryCode
    }

    /// A named way usable as a street: its name and other names, its highway class, speed limit and roundabout-ness.
    func street(_ tags: Tags) -> (name: String, others: [String: String], highway: String, road: RoadAttributes, postcode: String?)? {
        guard let highway = tags["highway"], !Self.nonStreetHighways.contains(highway), tags["area"] != "yes" || highway == "pedestrian" else {
            return nil
        }
        let named = Self.names(tags)
        guard let name = named.name else { return nil }
        let speed = Self.speedKmh(tags["maxspeed"])
        return (name, named.others, highway,
                RoadAttributes(highway: highway, isRoundabout: tags["junction"] == "roundabout", speedLimitKmh: speed > 0 ? speed : nil),
                Self.clean(tags["addr:postcode"] ?? tags["postal_code"]))
    }

    /// `maxspeed` in km/h: "50", "30 mph", "walk"; 0 when absent or unreadable.
    static func speedKmh(_ text: String?) -> Int {
        guard let text = text?.trimmedSpaces.lowercased(), !text.isEmpty else { return 0 }
        if text == "walk" { return 5 }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard let value = Int(digits), value > 0, value < 400 else { return 0 }
        return text.hasSuffix("mph") ? Int((Double(value) * 1.609344).rounded()) : value
    }

    /// What a boundary relation is: an administrative area (with its `admin_level`) or a postcode area.
    enum BoundaryKind: Equatable {
        case administrative(level: Int)
        case postalCode(String)
    }

    func boundary(_ tags: Tags) -> (kind: BoundaryKind, name: String, others: [String: String], countryCode: String?)? {
        let named = Self.names(tags)
        switch tags["boundary"] {
        case "administrative":
            guard let level = tags["admin_level"].flatMap({ Int($0) }), (2...10).contains(level), let name = named.name else { return nil }
            let code = Self.clean(tags["ISO3166-1:alpha2"] ?? tags["ISO3166-1"] ?? tags["country_code"])?.uppercased()
            return (.administrative(level: level), name, named.others, level == 2 && code?.count == 2 ? code : nil)
        case "postal_code":
            guard let code = Self.clean(tags["postal_code"] ?? tags["ref"] ?? tags["name"]) else { return nil }
            return (.postalCode(code), named.name ?? code, named.others, nil)
        default:
            return nil
        }
    }

    /// Extra importance of a street by road class.
    static func streetImportance(highway: String, lengthMeters: Double) -> Double {
        let bonus: Double = switch highway {
        case "motorway", "trunk": 0.1
        case "primary": 0.09
        case "secondary": 0.07
        case "tertiary": 0.05
        case "residential", "unclassified", "living_street", "pedestrian": 0.03
        default: 0
        }
        return 0.35 + bonus + min(0.05, lengthMeters / 40_000)
    }

    static func highwayRank(_ highway: String) -> Int {
        ["motorway": 9, "trunk": 8, "primary": 7, "secondary": 6, "tertiary": 5, "unclassified": 4, "residential": 4,
         "living_street": 3, "pedestrian": 3, "service": 2][highway] ?? 1
    }
}

extension Substring {
    var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
