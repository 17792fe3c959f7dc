public import GeoCore
public import RoadNetwork
public import Routing

/// A trip to plan, in no wire format: where, how, and when.
public struct PlanRequest: Sendable {
    /// When the trip happens.
    public enum Timing: Sendable, Equatable {
        /// Leave at the planner's "now": the CCH on the weights in force, then timed exactly.
        case leaveNow
        /// Leave at this moment (seconds since 1970): an exact time-dependent search for the fastest
        /// route while traffic is in force, the static route otherwise (`RouteCalculation.searchesByTime`).
        case departAt(Double)
        /// Arrive by this moment (seconds since 1970): the latest departure that makes it.
        case arriveBy(Double)
    }

    public var waypoints: [Coordinate]
    public var mode: TravelMode
    public var timing: Timing = .leaveNow
    /// Live traffic counts (TomTom's `traffic`); false: historical speeds only.
    public var traffic = true
    public var routeType: RouteType = .fastest
    public var avoid: Set<Avoidance> = []
    /// Strict avoidance never uses avoided roads; soft (the default) uses them only when nothing else reaches.
    public var strictAvoid = false
    public var windingness: Windingness = .normal
    /// The vehicle's top speed in km/h (TomTom's `vehicleMaxSpeed`): the route is chosen and timed
    /// with no arc faster than it; 0: the roads' own speeds.
    public var vehicleMaxSpeedKmh = 0
    /// Alternatives besides the best route (at most `PlanningEngine.maxAlternatives`).
    public var maxAlternatives = 0
    /// Visit the intermediate waypoints in the best order (origin and destination stay).
    public var computeBestOrder = false
    /// Heading of a moving origin, degrees clockwise from north.
    public var vehicleHeading: Double?
    /// Whether the route may turn back at intermediate waypoints (OSRM's `continue_straight`).
    public var waypointUTurns = RoutePlanner.WaypointUTurns.penalized
    /// How each waypoint meets the roads (empty: the default for all of them).
    public var snapping: [WaypointSnapping] = []

    public init(waypoints: [Coordinate], mode: TravelMode = .car) {
        self.waypoints = waypoints
        self.mode = mode
    }
}

/// What planning a trip ended in. Expected outcomes are values, not errors (as OSRM's `NoRoute`
/// and `NoSegment` are answers, not failures).
public enum PlanOutcome: Sendable {
    case found(Plan)
    /// Waypoint `waypoint` is further than the snapping limit from any road the mode can use.
    case noSegment(waypoint: Int)
    /// No route joins waypoint `leg` to waypoint `leg + 1` (with strict avoidance: none that avoids).
    case noRoute(leg: Int)
    /// No order of the waypoints can be driven.
    case noWaypointOrder
    /// The route found is closed at the moment it would be driven.
    case closed
    /// The arrival time is not after now.
    case arrivalPassed
    /// No departure from now on arrives in time: the latest departure that would (in the past),
    /// or nil when not even that exists on the route found.
    case arrivalUnmeetable(latestDeparture: Double?)

    public var plan: Plan? {
        if case .found(let p) = self { return p }
        return nil
    }
}

/// The routes of a found plan: the best first, then alternatives.
public struct Plan: Sendable {
    public var routes: [TimedRoute]
    /// With `computeBestOrder`: the waypoints' given indices in visiting order.
    public var waypointOrder: [Int]?

    public var best: TimedRoute { routes[0] }
}
