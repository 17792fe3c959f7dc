import SQLite
import GeoCore

/// The `place` columns every query selects, and how a row becomes a `PlaceResult`.
enum PlaceRow {
    /// Select list with the `p` alias; `decode` reads it starting at a column offset.
    static let columns = """
        p.id, p.kind, p.osm_type, p.osm_id, p.name, p.lat_e7, p.lon_e7, p.min_lat_e7, p.min_lon_e7, p.max_lat_e7, p.max_lon_e7, \
        p.housenumber, p.street, p.postcode, p.city, p.district, p.country_code, p.categories, p.osm_key, p.osm_value, \
        p.phone, p.website, p.opening_hours, p.brand, p.cuisine, p.other_names, p.importance, p.flags, \
        p.county, p.state, p.street_names, p.extra_tags
        """
    static let columnCount: Int32 = 32

    /// "key\tvalue" lines as a dictionary.
    static func pairs(_ text: String?) -> [String: String] {
        var out: [String: String] = [:]
        guard let text else { return out }
        for line in text.split(separator: "\n") {
            let kv = line.split(separator: "\t", maxSplits: 1)
            if kv.count == 2 { out[String(kv[0])] = String(kv[1]) }
        }
        return out
    }

    static func decode(_ s: Statement, at o: Int32 = 0) -> PlaceResult {
        let extent: BoundingBox? = s.isNull(o + 7) ? nil
            : BoundingBox(minLatitudeE7: s.int32(o + 7), minLongitudeE7: s.int32(o + 8), maxLatitudeE7: s.int32(o + 9), maxLongitudeE7: s.int32(o + 10))
        let flags = s.int(o + 27)
        return PlaceResult(
            id: s.int64(o), kind: PlaceKind(rawValue: UInt8(clamping: s.int(o + 1))) ?? .poi,
            osmType: OSMObjectType(rawValue: UInt8(clamping: s.int(o + 2))) ?? .node, osmID: s.int64(o + 3),
            name: s.text(o + 4), categories: s.nonEmptyText(o + 17)?.split(separator: ";").map(String.init) ?? [],
            address: PlaceAddress(houseNumber: s.nonEmptyText(o + 11), streetName: s.nonEmptyText(o + 12), postcode: s.nonEmptyText(o + 13),
                                  municipality: s.nonEmptyText(o + 14), municipalitySubdivision: s.nonEmptyText(o + 15),
                                  countrySecondarySubdivision: s.nonEmptyText(o + 28), countrySubdivision: s.nonEmptyText(o + 29),
                                  countryCode: s.nonEmptyText(o + 16)),
            position: Coordinate(latitudeE7: s.int32(o + 5), longitudeE7: s.int32(o + 6)), extent: extent,
            phone: s.nonEmptyText(o + 20), website: s.nonEmptyText(o + 21), openingHours: s.nonEmptyText(o + 22),
            brand: s.nonEmptyText(o + 23), cuisine: s.nonEmptyText(o + 24), osmKey: s.text(o + 18), osmValue: s.text(o + 19),
            importance: s.double(o + 26), isInterpolated: flags & 1 != 0, otherNames: pairs(s.nonEmptyText(o + 25)),
            streetNames: pairs(s.nonEmptyText(o + 30)), extraTags: pairs(s.nonEmptyText(o + 31)),
            hasShape: flags & Int(PlaceRecord.Flags.hasShape.rawValue) != 0)
    }
}
