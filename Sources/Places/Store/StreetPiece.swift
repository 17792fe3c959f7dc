import GeoCore

/// A few consecutive points of a street's line, as one entry of the nearest-street R*Tree stores them
/// (E7 latitude/longitude pairs, little-endian).
enum StreetPiece {
    static func encode(_ points: [Coordinate]) -> [UInt8] {
        var w = ByteWriter()
        for p in points {
            w.int32(p.latitudeE7)
            w.int32(p.longitudeE7)
        }
        return w.bytes
    }

    static func points(_ bytes: [UInt8]) -> [Coordinate] {
        var r = ByteReader(bytes)
        var out: [Coordinate] = []
        out.reserveCapacity(bytes.count / 8)
        for _ in 0..<(bytes.count / 8) { out.append(Coordinate(latitudeE7: r.int32(), longitudeE7: r.int32())) }
        return out
    }

    /// The point of the line nearest `p`, its distance, and the segment it lies on.
    static func nearest(to p: Coordinate, on line: [Coordinate]) -> (point: Coordinate, meters: Double, a: Coordinate, b: Coordinate) {
        guard line.count >= 2 else {
            let only = line.first ?? p
            return (only, Geodesy.distanceMeters(p, only), only, only)
        }
        var best = (point: line[0], meters: Double.infinity, a: line[0], b: line[1])
        for i in 1..<line.count {
            let q = Geodesy.project(p, ontoSegment: line[i - 1], line[i]).point
            let d = Geodesy.distanceMeters(p, q)
            if d < best.meters { best = (q, d, line[i - 1], line[i]) }
        }
        return best
    }
}
