public import GeoCore
public import RoadNetwork
public import Routing

/// A route on the road graph timed from a departure: every arc driven, how much of it, when, for
/// how long and from which data that time comes. It knows no wire format; `MapsAPIMapping` makes
/// documents of it.
public struct TimedRoute: Sendable {
    public var mode: TravelMode
    public var legs: [Leg]
    public var waypoints: [Waypoint]
    /// Seconds since 1970.
    public var departure: Double
    /// Avoided kinds of road the route still uses (soft avoidance found no other way).
    public var usedAvoidances: [Avoidance] = []
    /// The same route's time under other assumptions (free flow, history only, live).
    public var comparison: TimeComparison
    /// Fuel a mid-size petrol car burns on it (`FuelModel`), for modes that use traffic.
    public var fuelLiters: Double?
    /// Roads closed by live traffic near the route when it was planned (the route avoids them).
    public var closuresNearby: Int
    /// Where the weekly profiles of the arcs driven come from (empty: none has one).
    public var profileOrigins: TravelTimeTable.ProfileOrigin = []

    /// The sources of the route's times that were in force: free flow always, then live traffic
    /// where an arc's time came from it, and each kind of weekly profile the arcs have.
    public var timeSources: [String] {
        Self.timeSourceNames(live: legs.contains(where: { $0.arcs.contains { $0.source == .live } }), profiles: profileOrigins)
    }

    /// The names of time sources, as routes and `/health` give them: free flow always, then live
    /// traffic and each kind of weekly profile.
    public static func timeSourceNames(live: Bool, profiles: TravelTimeTable.ProfileOrigin) -> [String] {
        var names = ["freeFlow"]
        if live { names.append("live") }
        if profiles.contains(.imported) { names.append("importedProfiles") }
        if profiles.contains(.learned) { names.append("learnedProfiles") }
        if profiles.contains(.demo) { names.append("demoCongestion") }
        return names
    }

    /// One leg, between consecutive waypoints.
    public struct Leg: Sendable {
        public var arcs: [Arc]
        /// The leg's line, from its first arc's start fraction to its last arc's end fraction.
        public var points: [Coordinate]
        /// The leg's seconds with historical speeds only, and with live traffic as well (the route's
        /// `comparison` leg by leg); nil when closed then or for modes without traffic.
        public var historicalSeconds: Double?
        public var liveSeconds: Double?
        /// Metres of the leg where live traffic makes the road slower than its history says.
        public var liveDelayedMeters = 0.0

        public var lengthMeters: Double { arcs.reduce(0) { $0 + $1.lengthMeters } }
        public var durationSeconds: Double { arcs.reduce(0) { $0 + $1.durationSeconds } }
    }

    /// The part of one arc a leg drives.
    public struct Arc: Sendable {
        public var arc: ArcID
        public var fromFraction: Double
        public var toFraction: Double
        public var lengthMeters: Double
        /// Seconds to drive it, the turn into it included.
        public var durationSeconds: Double
        /// Seconds of that the turn into it costs.
        public var turnSeconds: Double
        /// Seconds to drive it on empty roads (the turn excluded).
        public var freeFlowSeconds: Double
        /// Which data the time comes from.
        public var source: TimeSource
        /// Closed by live traffic when planned (a route may leave or reach its own point on a closed road,
        /// and a closure may end before the arc is reached).
        public var isClosed: Bool
        /// Index in the leg's `points` where it starts.
        public var firstPoint: Int

        public var coveredFraction: Double { max(0, toFraction - fromFraction) }
    }

    /// A waypoint as given and as snapped onto the road.
    public struct Waypoint: Sendable {
        public var input: Coordinate
        public var snapped: Coordinate
        public var distanceMeters: Double
        /// The name of the road it snapped to ("" when unnamed).
        public var roadName: String
        /// Moved to the large part of the network because its own road is reached only over roads
        /// the mode may not drive (`RouteEndpoint.movedOffUnreachablePiece`).
        public var movedOffUnreachablePiece = false
    }

    public var lengthMeters: Double { legs.reduce(0) { $0 + $1.lengthMeters } }
    public var durationSeconds: Double { legs.reduce(0) { $0 + $1.durationSeconds } }
    public var arrival: Double { departure + durationSeconds }

    /// The whole line, legs joined.
    public var points: [Coordinate] {
        var all: [Coordinate] = []
        for leg in legs { all.append(contentsOf: all.last == leg.points.first ? Array(leg.points.dropFirst()) : leg.points) }
        return all
    }

    /// The arcs and fractions driven, without their times: what re-timing needs (and what a watch keeps).
    public var path: RoutePath {
        RoutePath(mode: mode, legs: legs.map { leg in leg.arcs.map { RoutePath.Piece(arc: $0.arc.index, from: $0.fromFraction, to: $0.toFraction) } },
                  lengthMeters: lengthMeters)
    }
}

/// Where the time of an arc comes from.
public enum TimeSource: String, Sendable, Codable {
    /// Free-flow speed: no traffic data for this mode, arc or moment.
    case freeFlow
    /// The arc's weekly profile (imported, learned, or demo congestion) at that quarter-hour.
    case historical
    /// A live speed (fading into history after ten minutes).
    case live
}

/// A route's travel time under other assumptions than the one it was timed with.
public struct TimeComparison: Sendable {
    /// Seconds on empty roads.
    public var freeFlowSeconds: Double
    /// Seconds without live traffic (weekly profiles where the arcs have them, free flow elsewhere);
    /// nil when closed then or for modes without traffic.
    public var historicalSeconds: Double?
    /// Seconds with live traffic as well; nil when closed then or for modes without traffic.
    public var liveSeconds: Double?
    /// Metres where live traffic makes the road slower than its history says.
    public var liveDelayedMeters: Double
    /// Whether some arc of the route has a weekly profile (only then is `historicalSeconds` a
    /// historical time rather than free flow).
    public var profilesApply = false
}

/// A route as the arcs it drives, legs apart: enough to time it again at another moment, and
/// small enough to store. Arc ids belong to one import of a dataset: `PlanningEngine.fits`
/// tells whether they still describe a connected route on the graph in use.
public struct RoutePath: Sendable, Codable, Equatable {
    public struct Piece: Sendable, Codable, Equatable {
        public var arc: Int
        public var from: Double
        public var to: Double
        public init(arc: Int, from: Double, to: Double) {
            self.arc = arc
            self.from = from
            self.to = to
        }
    }

    public var mode: TravelMode
    public var legs: [[Piece]]
    /// The length when planned, to tell a path that no longer fits the graph.
    public var lengthMeters: Double

    public init(mode: TravelMode, legs: [[Piece]], lengthMeters: Double) {
        self.mode = mode
        self.legs = legs
        self.lengthMeters = lengthMeters
    }
}
