public import Foundation
public import GeoCore
public import RoadNetwork
public import Routing
public import RoutePlanning

/// A reachable range or isochrone request as the service understands it, whatever it came from
/// (TomTom's query string, Valhalla's JSON, the CLI, the SDK).
public struct ReachQuery: Sendable {
    public typealias Budget = ReachRequest.Budget
    public typealias Mode = TravelMode
    public var origin: Coordinate
    public var mode: TravelMode = .car
    public var budget: ReachRequest.Budget = .time
    /// Seconds, metres or litres; one per contour.
    public var levels: [Double]
    /// The name of the parameter the levels came from (for errors).
    public var levelParameter = "timeBudgetInSec"
    public var departAt: Date?
    public var arriveAt: Date?
    public var reverse = false
    public var traffic = true
    public var routeType: RouteType = .fastest
    public var avoid: Set<Avoidance> = []
    public var strictAvoid = false
    public var denoise = 1.0
    public var generalizeMeters: Double?

    public init(origin: Coordinate, levels: [Double]) {
        self.origin = origin
        self.levels = levels
    }

    var request: ReachRequest {
        var r = ReachRequest(origin: origin, mode: mode, budget: budget, levels: levels)
        if let arriveAt { r.timing = .arriveBy(arriveAt.timeIntervalSince1970) } else if let departAt { r.timing = .departAt(departAt.timeIntervalSince1970) }
        r.reverse = reverse
        r.traffic = traffic
        r.routeType = routeType
        r.avoid = avoid
        r.strictAvoid = strictAvoid
        r.denoise = denoise
        r.generalizeMeters = generalizeMeters
        return r
    }
}

/// A matrix request as the service understands it (TomTom Matrix v2, OSRM's table, the SDK).
public struct MatrixQuery: Sendable {
    public var origins: [Coordinate]
    public var destinations: [Coordinate]
    public var mode: TravelMode = .car
    public var departAt: Date?
    public var arriveAt: Date?
    public var traffic = true
    public var routeType: RouteType = .fastest
    public var avoid: Set<Avoidance> = []
    /// Strict avoidance never uses avoided roads (OSRM's `exclude`); TomTom's avoid is soft.
    public var strictAvoid = false
    /// How each origin and destination meets the roads (OSRM's `radiuses`, `bearings`, `approaches`).
    public var originSnapping: [WaypointSnapping] = []
    public var destinationSnapping: [WaypointSnapping] = []
    /// The parameter names of the two lists (for errors): TomTom's `origins`/`destinations`, OSRM's `sources`/`destinations`.
    public var originsParameter = "origins"
    public var destinationsParameter = "destinations"

    public init(origins: [Coordinate], destinations: [Coordinate]) {
        self.origins = origins
        self.destinations = destinations
    }

    /// What the request costs: origins × destinations.
    public var cellCount: Int { origins.count * destinations.count }

    var request: MatrixRequest {
        var r = MatrixRequest(origins: origins, destinations: destinations, mode: mode)
        if let arriveAt { r.timing = .arriveBy(arriveAt.timeIntervalSince1970) } else if let departAt { r.timing = .departAt(departAt.timeIntervalSince1970) }
        r.traffic = traffic
        r.routeType = routeType
        r.avoid = avoid
        r.strictAvoid = strictAvoid
        r.originSnapping = originSnapping
        r.destinationSnapping = destinationSnapping
        return r
    }
}
