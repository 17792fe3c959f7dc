public import GeoCore
public import RoadNetwork
public import Routing

/// How far one gets from a point (or from where one can reach it) within one or more budgets:
/// TomTom's reachable range and Valhalla's isochrones, in no wire format.
public struct ReachRequest: Sendable {
    /// What the budget counts.
    public enum Budget: Sendable, Equatable {
        /// Seconds of travel (turns, traffic and the time of day included).
        case time
        /// Metres driven.
        case distance
        /// Litres of fuel by the model eco routes use.
        case fuel

        var measure: ReachMeasure {
            switch self {
            case .time: .time
            case .distance: .length
            case .fuel: .fuel
            }
        }

        /// Measure units (ms, cm, µL) per budget unit (s, m, L).
        var unitsPerBudgetUnit: Double {
            switch self {
            case .time: 1000
            case .distance: 100
            case .fuel: 1_000_000
            }
        }
    }

    public var origin: Coordinate
    public var mode: TravelMode
    public var budget: Budget
    /// The contours: budget values in seconds, metres or litres, each > 0.
    public var levels: [Double]
    /// Leave now, leave at a moment (exact time-dependent reach), or arrive by one (where one can
    /// start from to get here in time).
    public var timing: PlanRequest.Timing = .leaveNow
    /// Towards the point instead of away from it (implied by `arriveBy`).
    public var reverse = false
    public var traffic = true
    public var routeType: RouteType = .fastest
    public var avoid: Set<Avoidance> = []
    public var strictAvoid = false
    /// Drop polygons smaller than this share of a contour's largest (1 keeps only the largest; Valhalla's `denoise`).
    public var denoise = 1.0
    /// Douglas–Peucker tolerance in metres; nil: the grid's own spacing.
    public var generalizeMeters: Double?

    public init(origin: Coordinate, mode: TravelMode = .car, budget: Budget, levels: [Double]) {
        self.origin = origin
        self.mode = mode
        self.budget = budget
        self.levels = levels
    }

    /// Whether the time of day decides the answer: time budgets on the fastest routes of a mode
    /// with traffic. Others use the weights in force.
    public var isTimeDependent: Bool {
        guard budget == .time, routeType == .fastest, mode.usesTraffic else { return false }
        if case .leaveNow = timing { return false }
        return true
    }
}

/// A polygon on the map: an outer ring (counter-clockwise) and holes (clockwise), rings closed.
public struct GeoPolygon: Sendable {
    public var outer: [Coordinate]
    public var holes: [[Coordinate]]
}

/// One contour: the area reachable within `level` (seconds, metres or litres).
public struct ReachContour: Sendable {
    public var level: Double
    /// Largest first.
    public var polygons: [GeoPolygon]
}

public struct Reach: Sendable {
    /// The point on the road the reach starts from (or ends at).
    public var center: Coordinate
    /// Ascending by level; each lies within the next.
    public var contours: [ReachContour]
    /// Graph arcs reached within the largest level (whole or in part).
    public var reachedArcs: Int
    /// The grid spacing of the contours, metres.
    public var gridMeters: Double
    /// CPU seconds spent searching and drawing (the calling thread's).
    public var searchSeconds: Double
    public var contourSeconds: Double
}

public enum ReachOutcome: Sendable {
    case found(Reach)
    /// No road the mode can use is near the point.
    case noSegment
    /// The dataset has no hierarchy for this mode (an old import).
    case unavailable
}
