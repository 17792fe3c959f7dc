import Foundation
public import MapsAPI

/// A point on the Earth in WGS 84 degrees, as a route's waypoints and a place's position.
///
/// The SDK's own coordinate, so that the same code builds on Linux (no CoreLocation); on Apple
/// platforms it converts to and from `CLLocationCoordinate2D`.
public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, in -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, in -180...180.
    public var longitude: Double

    /// A coordinate from degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both degrees are finite and within range.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// `"latitude,longitude"` with 6 decimals (about 0.1 m).
    public var description: String { "\(Self.degrees(latitude, 6)),\(Self.degrees(longitude, 6))" }

    /// Parses `"latitude,longitude"` (spaces allowed); nil when it is not such a pair in range.
    public init?(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(latitude: lat, longitude: lon)
        guard isValid else { return nil }
    }

    /// Great-circle distance to `other` in metres (haversine, mean Earth radius).
    public func distanceMeters(to other: Coordinate) -> Double {
        let r = 6_371_008.8
        let p1 = latitude * .pi / 180, p2 = other.latitude * .pi / 180
        let dp = p2 - p1, dl = (other.longitude - longitude) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }

    /// The `lat,lon` text of a TomTom path or parameter, with 7 decimals (1 cm).
    var pathText: String { "\(Self.degrees(latitude, 7)),\(Self.degrees(longitude, 7))" }

    /// Fixed decimals without exponent notation ("0.0000001", never "1e-07").
    static func degrees(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

extension Coordinate {
    /// From the routing API's `{latitude, longitude}`.
    public init(_ point: LatLon) { self.init(latitude: point.latitude, longitude: point.longitude) }
    /// From the search API's `{lat, lon}`.
    public init(_ position: SearchPosition) { self.init(latitude: position.lat, longitude: position.lon) }
    /// The routing API's `{latitude, longitude}`.
    public var latLon: LatLon { LatLon(latitude: latitude, longitude: longitude) }
    /// The search API's `{lat, lon}`.
    public var searchPosition: SearchPosition { SearchPosition(lat: latitude, lon: longitude) }
}

/// A rectangle of latitudes and longitudes (not crossing the antimeridian).
public struct BoundingBox: Sendable, Hashable, Codable {
    /// Northern edge, degrees.
    public var north: Double
    /// Southern edge, degrees.
    public var south: Double
    /// Eastern edge, degrees.
    public var east: Double
    /// Western edge, degrees.
    public var west: Double

    /// A box from its four edges in degrees.
    public init(north: Double, south: Double, east: Double, west: Double) {
        self.north = north
        self.south = south
        self.east = east
        self.west = west
    }

    /// The smallest box holding every coordinate; nil for none.
    public init?(containing coordinates: some Sequence<Coordinate>) {
        var it = coordinates.makeIterator()
        guard let first = it.next() else { return nil }
        self.init(north: first.latitude, south: first.latitude, east: first.longitude, west: first.longitude)
        while let c = it.next() {
            north = max(north, c.latitude); south = min(south, c.latitude)
            east = max(east, c.longitude); west = min(west, c.longitude)
        }
    }

    /// The north-west corner (TomTom's `topLeft`).
    public var topLeft: Coordinate { Coordinate(latitude: north, longitude: west) }
    /// The south-east corner (TomTom's `btmRight`).
    public var bottomRight: Coordinate { Coordinate(latitude: south, longitude: east) }
    /// The middle of the box.
    public var center: Coordinate { Coordinate(latitude: (north + south) / 2, longitude: (east + west) / 2) }

    /// Whether `c` lies inside or on the edge.
    public func contains(_ c: Coordinate) -> Bool {
        (south...north).contains(c.latitude) && (west...east).contains(c.longitude)
    }
}

#if canImport(CoreLocation)
public import CoreLocation

extension Coordinate {
    /// From a Core Location coordinate.
    public init(_ coordinate: CLLocationCoordinate2D) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// As a Core Location coordinate, for MapKit overlays and annotations.
    public var clLocationCoordinate: CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }
}
#endif
