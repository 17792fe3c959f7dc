public import GeoCore

#if canImport(Glibc)
import Glibc
#endif

/// A position in Web Mercator world space, where the whole world is 2³² × 2³² units
/// (x grows east from 180°W, y grows south from 85.05°N).
///
/// One unit is about 9 mm at the equator. A tile at zoom `z` is 2^(32−z) units wide, so a
/// renderer turns a point into tile pixels with one subtraction and one multiplication.
@frozen
public struct MercatorPoint: Hashable, Sendable {
    public var x: UInt32
    public var y: UInt32

    @inlinable
    public init(x: UInt32, y: UInt32) {
        self.x = x
        self.y = y
    }

    /// The world size in units along each axis.
    public static let worldSize = 4_294_967_296.0

    public init(_ coordinate: Coordinate) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    public init(latitude: Double, longitude: Double) {
        let lat = max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, latitude)) * Double.pi / 180
        let fx = (longitude + 180) / 360
        let fy = (1 - log(tan(lat) + 1 / cos(lat)) / Double.pi) / 2
        x = Self.quantize(fx * Self.worldSize)
        y = Self.quantize(fy * Self.worldSize)
    }

    /// Rounds a world-space value to the nearest unit, clamped to the world.
    @inlinable
    public static func quantize(_ value: Double) -> UInt32 {
        guard value.isFinite else { return 0 }
        return UInt32(max(0, min(4_294_967_295, value.rounded())))
    }

    public var coordinate: Coordinate {
        let longitude = Double(x) / Self.worldSize * 360 - 180
        let n = Double.pi - 2 * Double.pi * Double(y) / Self.worldSize
        let latitude = 180 / Double.pi * atan(0.5 * (exp(n) - exp(-n)))
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// World units per pixel of a 256-pixel tile at `zoom`.
    @inlinable
    public static func unitsPerPixel(zoom: Int) -> Double {
        Double(UInt64(1) << UInt64(max(0, 24 - zoom))) / Double(UInt64(1) << UInt64(max(0, zoom - 24)))
    }
}
