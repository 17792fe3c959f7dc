import GeoCore

/// Flat metres around a point on a segment: distance along the segment's direction and the side of it.
struct LocalFrame {
    let origin: Coordinate
    let ux: Double, uy: Double
    let cosLatitude: Double

    init(origin: Coordinate, a: Coordinate, b: Coordinate) {
        self.origin = origin
        cosLatitude = Geodesy.cosine(ofLatitude: origin.latitude)
        let dx = Double(b.longitudeE7 - a.longitudeE7) * cosLatitude, dy = Double(b.latitudeE7 - a.latitudeE7)
        let length = (dx * dx + dy * dy).squareRoot()
        (ux, uy) = length > 0 ? (dx / length, dy / length) : (1, 0)
    }

    private func offset(_ p: Coordinate) -> (x: Double, y: Double) {
        let k = 1e-7 * Geodesy.metersPerDegreeLatitude
        return (Double(p.longitudeE7 - origin.longitudeE7) * cosLatitude * k, Double(p.latitudeE7 - origin.latitudeE7) * k)
    }

    /// Signed metres along the segment direction.
    func along(_ p: Coordinate) -> Double {
        let o = offset(p)
        return o.x * ux + o.y * uy
    }

    /// -1 right of the direction, +1 left, 0 on the line (within 1 m).
    func side(_ p: Coordinate) -> Int {
        let o = offset(p)
        let cross = ux * o.y - uy * o.x
        return abs(cross) < 1 ? 0 : (cross > 0 ? 1 : -1)
    }
}
