public import GeoCore
public import RoadNetwork
public import Routing

/// Travel times and lengths from every origin to every destination: TomTom's Matrix Routing and
/// OSRM's table, in no wire format.
public struct MatrixRequest: Sendable {
    public var origins: [Coordinate]
    public var destinations: [Coordinate]
    public var mode: TravelMode
    /// Leave now (the weights in force), or leave at / arrive by a moment: then every cell is an
    /// exact time-dependent route (fastest route type only).
    public var timing: PlanRequest.Timing = .leaveNow
    public var traffic = true
    public var routeType: RouteType = .fastest
    public var avoid: Set<Avoidance> = []
    public var strictAvoid = false
    /// How each origin and destination meets the roads (empty: the default for all).
    public var originSnapping: [WaypointSnapping] = []
    public var destinationSnapping: [WaypointSnapping] = []
    /// Worker threads for large matrices.
    public var threads = 2

    public init(origins: [Coordinate], destinations: [Coordinate], mode: TravelMode = .car) {
        self.origins = origins
        self.destinations = destinations
        self.mode = mode
    }

    /// What a request costs: its number of cells (origins × destinations).
    public var cellCount: Int { origins.count * destinations.count }

    /// Whether cells are timed exactly at their moment (departAt / arriveBy on the fastest routes of
    /// a mode with traffic).
    public var isTimeDependent: Bool {
        guard routeType == .fastest, mode.usesTraffic else { return false }
        if case .leaveNow = timing { return false }
        return true
    }
}

/// One cell of a matrix.
public enum MatrixCell: Sendable, Equatable {
    /// Seconds and metres of the route, and when it leaves and arrives (seconds since 1970).
    case route(seconds: Double, meters: Double, departure: Double, arrival: Double)
    /// The origin (or destination) is not near any road the mode can use.
    case noSegment(origin: Bool)
    /// No route joins the two.
    case noRoute
}

public struct Matrix: Sendable {
    /// `[origin][destination]`.
    public var cells: [[MatrixCell]]
    /// Each point on its road; nil where no road is near.
    public var origins: [NearbyRoad?]
    public var destinations: [NearbyRoad?]
    /// Seconds spent in the search.
    public var searchSeconds: Double
}
