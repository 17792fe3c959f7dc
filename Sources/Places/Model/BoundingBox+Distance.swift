import GeoCore

extension BoundingBox {
    /// Metres from `p` to the nearest point of the box (0 inside it).
    func distanceMeters(to p: Coordinate) -> Double {
        contains(p) ? 0 : Geodesy.distanceMeters(p, Coordinate(
            latitudeE7: min(max(p.latitudeE7, minLatitudeE7), maxLatitudeE7),
            longitudeE7: min(max(p.longitudeE7, minLongitudeE7), maxLongitudeE7)))
    }
}
