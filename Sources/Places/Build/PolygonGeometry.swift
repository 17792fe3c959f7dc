import GeoCore

/// Representative points of lines and rings.
enum PolygonGeometry {
    /// The area-weighted centroid of a ring and its area in squared E7-degree units (local equirectangular);
    /// nil when the ring is degenerate.
    static func centroid(ofRing ring: [Coordinate]) -> (point: Coordinate, area: Double)? {
        guard ring.count >= 3 else { return nil }
        let k = Geodesy.cosine(ofLatitude: ring[0].latitude)
        let x0 = Double(ring[0].longitudeE7), y0 = Double(ring[0].latitudeE7)
        var area2 = 0.0, cx = 0.0, cy = 0.0
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let ax = (Double(a.longitudeE7) - x0) * k, ay = Double(a.latitudeE7) - y0
            let bx = (Double(b.longitudeE7) - x0) * k, by = Double(b.latitudeE7) - y0
            let cross = ax * by - bx * ay
            area2 += cross
            cx += (ax + bx) * cross
            cy += (ay + by) * cross
        }
        guard abs(area2) > 1e-6 else { return nil }
        let px = cx / (3 * area2) / k + x0, py = cy / (3 * area2) + y0
        return (Coordinate(latitudeE7: Int32(py.rounded()), longitudeE7: Int32(px.rounded())), abs(area2) / 2)
    }

    /// The point halfway along a line, and the line's length in metres.
    static func midpoint(ofLine line: [Coordinate]) -> (point: Coordinate, lengthMeters: Double)? {
        guard let first = line.first else { return nil }
        guard line.count >= 2 else { return (first, 0) }
        var lengths: [Double] = []
        lengths.reserveCapacity(line.count - 1)
        var total = 0.0
        for i in 1..<line.count {
            let d = Geodesy.distanceMeters(line[i - 1], line[i])
            lengths.append(d)
            total += d
        }
        guard total > 0 else { return (first, 0) }
        var remaining = total / 2
        for i in 0..<lengths.count {
            if remaining <= lengths[i] {
                let f = lengths[i] > 0 ? remaining / lengths[i] : 0
                return (Geodesy.interpolate(line[i], line[i + 1], f), total)
            }
            remaining -= lengths[i]
        }
        return (line[line.count - 1], total)
    }

    static func bounds(_ points: [Coordinate]) -> BoundingBox {
        var box = BoundingBox.empty
        for p in points { box.formUnion(p) }
        return box
    }

    /// A representative point of a way: the centroid of a ring (when it falls inside the box), else the middle of the line.
    static func representativePoint(_ points: [Coordinate], closed: Bool) -> Coordinate? {
        if closed, let c = centroid(ofRing: Array(points.dropLast())), bounds(points).contains(c.point) { return c.point }
        return midpoint(ofLine: points)?.point
    }
}
