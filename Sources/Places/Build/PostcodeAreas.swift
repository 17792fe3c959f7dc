import GeoCore

/// Postcodes as places: each `postal_code` boundary, and for a postcode without one, the area of the
/// addresses that carry it (their mean position and their box), as Nominatim does.
struct PostcodeAreas {
    private struct Sum {
        var latitude = 0.0, longitude = 0.0, count = 0
        var box = BoundingBox.empty
        var city: [String: Int] = [:]
    }

    private var sums: [String: Sum] = [:]

    /// Counts an address's postcode (within its country).
    mutating func add(_ r: PlaceRecord) {
        guard let code = r.postcode, code.count <= 20 else { return }
        let key = "\(r.countryCode ?? "")|\(code)"
        var s = sums[key] ?? Sum()
        s.latitude += r.position.latitude
        s.longitude += r.position.longitude
        s.count += 1
        s.box.formUnion(r.position)
        if let c = r.city { s.city[c, default: 0] += 1 }
        sums[key] = s
    }

    /// The postcode places: boundaries first, then the postcodes of addresses that no boundary covers.
    func records(boundaries: [Boundary]) -> [(record: PlaceRecord, shape: Shape?)] {
        var out: [(PlaceRecord, Shape?)] = []
        var fromBoundary = Set<String>()
        for b in boundaries {
            guard let code = b.postcode else { continue }
            var r = Self.record(code: code, position: Self.inside(b.shape) ?? b.bounds.center, box: b.bounds)
            r.osmType = .relation
            r.osmID = b.osmID
            r.countryCode = b.countryCode
            if b.name != code { r.otherNames["name"] = b.name }
            fromBoundary.insert(code)
            out.append((r, nil))
        }
        for key in sums.keys.sorted() {
            let s = sums[key]!
            let parts = key.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let code = String(parts[1])
            guard !fromBoundary.contains(code) else { continue }
            var r = Self.record(code: code, position: Coordinate(latitude: s.latitude / Double(s.count), longitude: s.longitude / Double(s.count)),
                                box: s.box)
            r.countryCode = parts[0].isEmpty ? nil : String(parts[0])
            r.city = s.city.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
            out.append((r, nil))
        }
        return out
    }

    private static func record(code: String, position: Coordinate, box: BoundingBox) -> PlaceRecord {
        var r = PlaceRecord(kind: .postcode, osmType: .node, osmID: 0, name: code, osmKey: "place", osmValue: "postcode", importance: 0.5)
        r.position = position
        r.extent = box
        r.postcode = code
        return r
    }

    /// A point inside the largest ring (its centroid when that lies inside).
    private static func inside(_ shape: Shape) -> Coordinate? {
        guard let ring = shape.rings.max(by: { $0.count < $1.count }), let c = PolygonGeometry.centroid(ofRing: ring) else { return nil }
        return shape.contains(c.point) ? c.point : nil
    }
}
