#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A slippy-map tile (z/x/y) in the Web Mercator scheme used by OSM and Leaflet.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var zoom: Int
    public var x: Int
    public var y: Int

    /// Nil when the zoom is outside 0...22 or x/y fall outside the zoom's grid.
    public init?(zoom: Int, x: Int, y: Int) {
        guard (0...22).contains(zoom), x >= 0, y >= 0, x < (1 << zoom), y < (1 << zoom) else { return nil }
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// The tile's extent in degrees.
    public var bounds: BoundingBox {
        let nw = WebMercator.coordinate(pixelX: Double(x) * 256, pixelY: Double(y) * 256, zoom: zoom)
        let se = WebMercator.coordinate(pixelX: Double(x + 1) * 256, pixelY: Double(y + 1) * 256, zoom: zoom)
        return BoundingBox(south: se.latitude, west: nw.longitude, north: nw.latitude, east: se.longitude)
    }
}

/// Web Mercator (EPSG:3857) in global pixel space of 256 × 2^zoom pixels.
public enum WebMercator {
    public static let maxLatitude = 85.05112878

    public static func pixel(_ c: Coordinate, zoom: Int) -> (x: Double, y: Double) {
        pixel(latitude: c.latitude, longitude: c.longitude, zoom: zoom)
    }

    public static func pixel(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let size = 256.0 * Double(1 << zoom)
        let lat = max(-maxLatitude, min(maxLatitude, latitude)) * Double.pi / 180
        let x = (longitude + 180) / 360 * size
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / Double.pi) / 2 * size
        return (x, y)
    }

    public static func coordinate(pixelX: Double, pixelY: Double, zoom: Int) -> Coordinate {
        let size = 256.0 * Double(1 << zoom)
        let longitude = pixelX / size * 360 - 180
        let n = Double.pi - 2 * Double.pi * pixelY / size
        let latitude = 180 / Double.pi * atan(0.5 * (exp(n) - exp(-n)))
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Metres covered by one pixel at `latitude` and `zoom`.
    public static func metersPerPixel(latitude: Double, zoom: Int) -> Double {
        cos(latitude * Double.pi / 180) * 2 * Double.pi * Geodesy.earthRadiusMeters / (256 * Double(1 << zoom))
    }
}
