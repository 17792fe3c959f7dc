public import Foundation
public import GeoCore
public import RoadNetwork
public import Routing
public import RoutePlanning

/// A route request as the service understands it, whatever it came from (CLI flags, a TomTom
/// query string or body, an OSRM URL, the SDK).
public struct RouteQuery: Sendable {
    public enum Representation: String, Sendable { case polyline, encodedPolyline, summaryOnly, none }
    public enum InstructionsMode: String, Sendable { case coded, text, tagged }
    public typealias Mode = TravelMode

    public var waypoints: [Coordinate]
    public var mode: TravelMode = .car
    /// Leave at this moment (exact time-dependent route). Nil with `arriveAt` nil: leave now.
    public var departAt: Date?
    /// Arrive by this moment: the latest departure that makes it.
    public var arriveAt: Date?
    /// Use live traffic (TomTom's `traffic`); false: historical speeds only.
    public var traffic = true
    public var routeType: RouteType = .fastest
    public var avoid: Set<Avoidance> = []
    /// Strict avoidance never uses avoided roads (TomTom's avoid is soft).
    public var strictAvoid = false
    public var windingness: Windingness = .normal
    public var maxAlternatives = 0
    public var computeBestOrder = false
    public var instructions: InstructionsMode?
    public var language = "en-GB"
    /// OSRM's `continue_straight`: true keeps a route going the way it arrived at intermediate
    /// waypoints (turning back only where nothing else leaves), false lets it turn back freely;
    /// nil turns back at the cost of a U-turn.
    public var continueStraight: Bool?
    public var imperialUnits = false
    public var representation: Representation = .polyline
    /// Heading of a moving origin, degrees clockwise from north.
    public var vehicleHeading: Double?
    /// TomTom `sectionType` values to report besides TRAVEL_MODE (toll, ferry, motorway, traffic, …).
    public var sectionTypes: Set<String> = []
    /// The route's time without traffic, with history only and with live traffic beside its own
    /// (TomTom's `computeTravelTimeFor=all`).
    public var travelTimesForAll = true
    /// Waypoints the route passes without a leg ending there (TomTom's `circle(lat,lon,radius)`),
    /// by index, with the radius in metres within which passing counts.
    public var passThrough: [Int: Double] = [:]
    /// The vehicle's top speed in km/h (TomTom's `vehicleMaxSpeed`); 0: the roads' own speeds.
    public var vehicleMaxSpeedKmh = 0
    /// Points the route is reconstructed along (TomTom's `supportingPoints`), in driving order.
    public var supportingPoints: [Coordinate] = []
    /// How each waypoint meets the roads (OSRM's `radiuses`, `bearings`, `approaches`, `snapping`);
    /// empty: the default for all.
    public var snapping: [WaypointSnapping] = []

    public init(waypoints: [Coordinate], mode: TravelMode = .car) {
        self.waypoints = waypoints
        self.mode = mode
    }

    /// Kept for the first CLI and benchmark callers: false is `representation = .none`.
    public var includePoints: Bool {
        get { representation == .polyline || representation == .encodedPolyline }
        set { representation = newValue ? .polyline : .none }
    }

    /// Departure and arrival times the travel-time model can represent.
    public static let timeRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)
}

extension RouteQuery {
    /// What the planning engine is asked (the rest of the query is presentation).
    public var planRequest: PlanRequest {
        var r = PlanRequest(waypoints: waypoints, mode: mode)
        if let arriveAt {
            r.timing = .arriveBy(arriveAt.timeIntervalSince1970)
        } else if let departAt {
            r.timing = .departAt(departAt.timeIntervalSince1970)
        }
        r.traffic = traffic
        r.routeType = routeType
        r.avoid = avoid
        r.strictAvoid = strictAvoid
        r.windingness = windingness
        r.vehicleMaxSpeedKmh = vehicleMaxSpeedKmh
        r.maxAlternatives = maxAlternatives
        r.computeBestOrder = computeBestOrder
        r.vehicleHeading = vehicleHeading
        r.snapping = snapping
        r.waypointUTurns = continueStraight.map { $0 ? .avoided : .free } ?? .penalized
        return r
    }
}
