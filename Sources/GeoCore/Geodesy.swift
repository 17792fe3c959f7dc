#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances and bearings on a spherical Earth (mean radius), which is what OSRM and Valhalla use too.
public enum Geodesy {
    public static let earthRadiusMeters = 6_371_008.8
    public static let metersPerDegreeLatitude = earthRadiusMeters * Double.pi / 180

    @inlinable static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

    public static func cosine(ofLatitude latitude: Double) -> Double { cos(radians(latitude)) }

    /// Great-circle (haversine) distance in metres.
    public static func distanceMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let lat1 = radians(a.latitude), lat2 = radians(b.latitude)
        let dLat = lat2 - lat1, dLon = radians(b.longitude - a.longitude)
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusMeters * asin(min(1, sqrt(h)))
    }

    /// Initial bearing from `a` to `b` in degrees, 0 = north, clockwise, in 0..<360.
    public static func bearingDegrees(from a: Coordinate, to b: Coordinate) -> Double {
        let lat1 = radians(a.latitude), lat2 = radians(b.latitude)
        let dLon = radians(b.longitude - a.longitude)
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) * 180 / Double.pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Signed smallest difference `to - from` of two bearings, in -180...180 (positive = clockwise = right turn).
    public static func turnAngle(from incoming: Double, to outgoing: Double) -> Double {
        var d = outgoing - incoming
        while d > 180 { d -= 360 }
        while d <= -180 { d += 360 }
        return d
    }

    /// The closest point to `p` on segment `a`–`b` and its fraction along the segment (0...1),
    /// using a local equirectangular projection (exact enough for segments of a few km).
    public static func project(_ p: Coordinate, ontoSegment a: Coordinate, _ b: Coordinate) -> (point: Coordinate, fraction: Double) {
        let k = cosine(ofLatitude: (a.latitude + b.latitude) / 2)
        let ax = Double(a.longitudeE7) * k, ay = Double(a.latitudeE7)
        let bx = Double(b.longitudeE7) * k, by = Double(b.latitudeE7)
        let px = Double(p.longitudeE7) * k, py = Double(p.latitudeE7)
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
        t = min(1, max(0, t))
        return (interpolate(a, b, t), t)
    }

    /// Metres from `p` to the nearest point of the polyline `line` (to its only point, or +∞ when empty).
    public static func distanceMeters(_ p: Coordinate, toLine line: [Coordinate]) -> Double {
        guard line.count > 1 else { return line.first.map { distanceMeters(p, $0) } ?? .infinity }
        var best = Double.infinity
        for k in 1..<line.count { best = min(best, distanceMeters(p, project(p, ontoSegment: line[k - 1], line[k]).point)) }
        return best
    }

    /// The point at `fraction` (0...1) of the straight segment `a`–`b`.
    public static func interpolate(_ a: Coordinate, _ b: Coordinate, _ fraction: Double) -> Coordinate {
        Coordinate(latitudeE7: Int32((Double(a.latitudeE7) + (Double(b.latitudeE7) - Double(a.latitudeE7)) * fraction).rounded()),
                   longitudeE7: Int32((Double(a.longitudeE7) + (Double(b.longitudeE7) - Double(a.longitudeE7)) * fraction).rounded()))
    }

    /// Fast planar distance approximation in metres for nearby points (used for ranking, not reporting).
    @inlinable
    public static func approximateDistanceMeters(_ a: Coordinate, _ b: Coordinate, cosLatitude: Double) -> Double {
        let dx = Double(a.longitudeE7 &- b.longitudeE7) * cosLatitude
        let dy = Double(a.latitudeE7 &- b.latitudeE7)
        return (dx * dx + dy * dy).squareRoot() * 1e-7 * metersPerDegreeLatitude
    }
}
