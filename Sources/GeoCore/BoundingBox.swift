/// An axis-aligned box in fixed-point degrees; `empty` grows with `formUnion`.
@frozen
public struct BoundingBox: Hashable, Sendable {
    public var minLatitudeE7: Int32
    public var minLongitudeE7: Int32
    public var maxLatitudeE7: Int32
    public var maxLongitudeE7: Int32

    public init(minLatitudeE7: Int32, minLongitudeE7: Int32, maxLatitudeE7: Int32, maxLongitudeE7: Int32) {
        self.minLatitudeE7 = minLatitudeE7
        self.minLongitudeE7 = minLongitudeE7
        self.maxLatitudeE7 = maxLatitudeE7
        self.maxLongitudeE7 = maxLongitudeE7
    }

    public init(south: Double, west: Double, north: Double, east: Double) {
        let sw = Coordinate(latitude: south, longitude: west)
        let ne = Coordinate(latitude: north, longitude: east)
        self.init(minLatitudeE7: sw.latitudeE7, minLongitudeE7: sw.longitudeE7,
                  maxLatitudeE7: ne.latitudeE7, maxLongitudeE7: ne.longitudeE7)
    }

    public static let empty = BoundingBox(minLatitudeE7: .max, minLongitudeE7: .max,
                                          maxLatitudeE7: .min, maxLongitudeE7: .min)

    public var isEmpty: Bool { minLatitudeE7 > maxLatitudeE7 || minLongitudeE7 > maxLongitudeE7 }

    @inlinable
    public mutating func formUnion(_ c: Coordinate) {
        minLatitudeE7 = Swift.min(minLatitudeE7, c.latitudeE7)
        maxLatitudeE7 = Swift.max(maxLatitudeE7, c.latitudeE7)
        minLongitudeE7 = Swift.min(minLongitudeE7, c.longitudeE7)
        maxLongitudeE7 = Swift.max(maxLongitudeE7, c.longitudeE7)
    }

    public mutating func formUnion(_ other: BoundingBox) {
        guard !other.isEmpty else { return }
        formUnion(other.southWest)
        formUnion(other.northEast)
    }

    @inlinable
    public func contains(_ c: Coordinate) -> Bool {
        c.latitudeE7 >= minLatitudeE7 && c.latitudeE7 <= maxLatitudeE7
            && c.longitudeE7 >= minLongitudeE7 && c.longitudeE7 <= maxLongitudeE7
    }

    public func intersects(_ other: BoundingBox) -> Bool {
        !(other.minLatitudeE7 > maxLatitudeE7 || other.maxLatitudeE7 < minLatitudeE7
            || other.minLongitudeE7 > maxLongitudeE7 || other.maxLongitudeE7 < minLongitudeE7)
    }

    public var southWest: Coordinate { Coordinate(latitudeE7: minLatitudeE7, longitudeE7: minLongitudeE7) }
    public var northEast: Coordinate { Coordinate(latitudeE7: maxLatitudeE7, longitudeE7: maxLongitudeE7) }
    public var center: Coordinate {
        Coordinate(latitudeE7: Int32((Int64(minLatitudeE7) + Int64(maxLatitudeE7)) / 2),
                   longitudeE7: Int32((Int64(minLongitudeE7) + Int64(maxLongitudeE7)) / 2))
    }

    /// The box grown by `meters` on every side (approximate, fine away from the poles), clamped
    /// to the valid range of degrees: near a pole or the antimeridian it stops at the edge (a
    /// coordinate past ±180° would not even fit the fixed-point representation).
    public func expanded(byMeters meters: Double) -> BoundingBox {
        guard !isEmpty else { return self }
        let dLat = meters / Geodesy.metersPerDegreeLatitude
        let cosLat = max(0.01, Geodesy.cosine(ofLatitude: center.latitude))
        let dLon = meters / (Geodesy.metersPerDegreeLatitude * cosLat)
        return BoundingBox(south: Swift.max(-90, southWest.latitude - dLat), west: Swift.max(-180, southWest.longitude - dLon),
                           north: Swift.min(90, northEast.latitude + dLat), east: Swift.min(180, northEast.longitude + dLon))
    }
}
