public import Foundation
public import GeoCore
public import RoadNetwork

/// A route request as the service understands it, whatever it came from (CLI flags, TomTom
/// query string, OSRM URL, SDK).
public struct RouteQuery: Sendable {
    public var waypoints: [Coordinate]
    public var mode: TravelMode = .car
    public var departAt: Date?
    public var includePoints = true

    public init(waypoints: [Coordinate], mode: TravelMode = .car) {
        self.waypoints = waypoints
        self.mode = mode
    }
}
