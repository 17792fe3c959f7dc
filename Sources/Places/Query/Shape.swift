import GeoCore

/// The outline of an area (a building, a boundary): closed rings, outer and inner alike, read with
/// the even–odd rule. Stored as little-endian bytes: ring count, then per ring its point count and
/// its points as E7 latitude/longitude pairs.
struct Shape: Equatable {
    var rings: [[Coordinate]]

    var isEmpty: Bool { rings.allSatisfy { $0.count < 3 } }

    var bounds: BoundingBox {
        var box = BoundingBox.empty
        for ring in rings { for p in ring { box.formUnion(p) } }
        return box
    }

    /// Whether `p` lies inside (even–odd over every ring).
    func contains(_ p: Coordinate) -> Bool {
        var inside = false
        let x = Int64(p.longitudeE7), y = Int64(p.latitudeE7)
        for ring in rings where ring.count >= 3 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let xi = Int64(ring[i].longitudeE7), yi = Int64(ring[i].latitudeE7)
                let xj = Int64(ring[j].longitudeE7), yj = Int64(ring[j].latitudeE7)
                if (yi > y) != (yj > y) {
                    // x < xi + (y - yi) * (xj - xi) / (yj - yi), without division.
                    let lhs = (x - xi) * (yj - yi), rhs = (y - yi) * (xj - xi)
                    if (yj - yi > 0) ? lhs < rhs : lhs > rhs { inside.toggle() }
                }
                j = i
            }
        }
        return inside
    }

    /// Metres from `p` to the area: 0 inside, else to the nearest edge.
    func distanceMeters(from p: Coordinate) -> Double {
        if contains(p) { return 0 }
        var best = Double.infinity
        for ring in rings where ring.count >= 2 {
            for i in 0..<ring.count {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                best = min(best, Geodesy.distanceMeters(p, Geodesy.project(p, ontoSegment: a, b).point))
            }
        }
        return best
    }

    /// Area in square metres of the largest ring (enough to tell a building from the block around it).
    var areaSquareMeters: Double {
        guard let first = rings.first?.first else { return 0 }
        let k = Geodesy.cosine(ofLatitude: first.latitude) * Geodesy.metersPerDegreeLatitude * 1e-7
        let m = Geodesy.metersPerDegreeLatitude * 1e-7
        var areas: [Double] = []
        for ring in rings where ring.count >= 3 {
            var a2 = 0.0
            for i in 0..<ring.count {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                a2 += Double(p.longitudeE7 - first.longitudeE7) * k * Double(q.latitudeE7 - first.latitudeE7) * m
                    - Double(q.longitudeE7 - first.longitudeE7) * k * Double(p.latitudeE7 - first.latitudeE7) * m
            }
            areas.append(abs(a2) / 2)
        }
        return areas.max() ?? 0
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.varint(UInt64(rings.count))
        for ring in rings {
            w.varint(UInt64(ring.count))
            for p in ring {
                w.int32(p.latitudeE7)
                w.int32(p.longitudeE7)
            }
        }
        return w.bytes
    }

    init(rings: [[Coordinate]]) { self.rings = rings }

    init?(encoded bytes: [UInt8]) {
        var r = ByteReader(bytes)
        let count = Int(r.varint())
        guard count <= bytes.count else { return nil }
        var rings: [[Coordinate]] = []
        for _ in 0..<count {
            let n = Int(r.varint())
            guard n <= bytes.count else { return nil }
            var ring: [Coordinate] = []
            ring.reserveCapacity(n)
            for _ in 0..<n { ring.append(Coordinate(latitudeE7: r.int32(), longitudeE7: r.int32())) }
            rings.append(ring)
        }
        guard !r.failed else { return nil }
        self.rings = rings
    }
}
