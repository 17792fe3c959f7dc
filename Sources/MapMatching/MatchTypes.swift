public import GeoCore
public import RoadNetwork
public import Routing

/// One fix of a GPS trace.
public struct TracePoint: Sendable, Equatable {
    public var coordinate: Coordinate
    /// Seconds since 1970, when known.
    public var time: Double?
    /// The standard deviation of the fix's position in metres (its GPS accuracy), when known.
    public var accuracyMeters: Double?

    public init(_ coordinate: Coordinate, time: Double? = nil, accuracyMeters: Double? = nil) {
        self.coordinate = coordinate
        self.time = time
        self.accuracyMeters = accuracyMeters
    }
}

/// How a trace is matched (Newson and Krumm's model; OSRM's names in brackets).
public struct MatchParameters: Sendable {
    /// σ of a fix's position where the point gives none (`radiuses`; OSRM's default is 5 m).
    public var defaultAccuracyMeters = 5.0
    /// Roads within this many σ of a fix are its candidates, …
    public var searchRadiusFactor = 3.0
    /// … but at least this far and at most that far.
    public var minSearchRadiusMeters = 15.0
    public var maxSearchRadiusMeters = 150.0
    /// The nearest roads kept per fix (each road gives a state per usable direction).
    public var maxCandidates = 6
    /// A time gap longer than this, and than four of the trace's median intervals, starts a new
    /// matching (`gaps=split`); nil ignores gaps (`gaps=ignore`).
    public var splitGapSeconds: Double? = 60
    /// Drops fixes within this many metres of the previous kept one (`tidy=true`); nil keeps all.
    public var tidyMeters: Double?
    /// The extra length a turn-around in the middle of a road costs (a U-turn at a node the graph
    /// allows costs nothing extra).
    public var uTurnPenaltyMeters = 50.0
    /// Fastest plausible speed between two timed fixes (OSRM's is 180 km/h).
    public var maxSpeedMetersPerSecond = 50.0
    /// How much longer than the straight line between two fixes a route may be: the distance
    /// `maxSpeedMetersPerSecond` covers in the time between them (at least `minDetourMeters`), or
    /// `untimedDetourMeters` for fixes without times (OSRM prunes at the same limits).
    public var minDetourMeters = 50.0
    public var untimedDetourMeters = 2000.0
    /// The transition's scale: a route `β` metres longer (or shorter) than the straight line
    /// is e times less likely. β grows with the hop, `betaPerMeter` of the straight line, from
    /// `minBetaMeters`.
    public var minBetaMeters = 10.0
    public var betaPerMeter = 0.0
    /// States of a fix scoring this far (in log-likelihood) below its best are not extended.
    public var beamWidth = 30.0
    /// Fixes in a row that may be skipped as outliers (no candidate reachable) before the trace
    /// is split.
    public var maxOutliers = 3

    public init() {}

    func sigma(_ p: TracePoint) -> Double { p.accuracyMeters ?? defaultAccuracyMeters }
    func searchRadius(_ p: TracePoint) -> Double {
        min(maxSearchRadiusMeters, max(minSearchRadiusMeters, searchRadiusFactor * sigma(p)))
    }
    func maxRouteMeters(straight: Double, seconds: Double?) -> Double {
        straight + (seconds.map { max(minDetourMeters, $0 * maxSpeedMetersPerSecond) } ?? untimedDetourMeters)
    }
    /// How far behind the previous fix on the same road a fix may fall and still be read as
    /// noise along the road (the vehicle did not back up): twice its σ.
    func backtrackMeters(_ p: TracePoint) -> Double { 2 * sigma(p) }
    func beta(straight: Double) -> Double { max(minBetaMeters, betaPerMeter * straight) }
}

/// A trace matched to roads: one or more matchings (split at gaps and impossible moves) and,
/// for every input fix, where it was matched (nil for a fix dropped as an outlier, by `tidy`,
/// or far from every road).
public struct MatchResult: Sendable {
    public var matchings: [Matching]
    public var points: [MatchedPoint?]

    public init(matchings: [Matching], points: [MatchedPoint?]) {
        self.matchings = matchings
        self.points = points
    }
}

/// Where one fix was matched.
public struct MatchedPoint: Sendable {
    /// Index into `MatchResult.matchings`.
    public var matching: Int
    /// Index of the fix among its matching's points.
    public var waypoint: Int
    public var snap: Snap
    public var position: ArcPosition
    /// Other candidates the fix had.
    public var alternatives: Int
}

/// One continuous stretch of a trace on the network.
public struct Matching: Sendable {
    /// Input indices of the matched fixes, in order.
    public var points: [Int]
    public var snaps: [Snap]
    public var positions: [ArcPosition]
    /// `legs[i]` runs from fix `points[i]` to `points[i + 1]`.
    public var legs: [MatchedLeg]
    /// 0…1: how closely the matched length agrees with the straight-line length of the fixes
    /// (`(min + 10 m) / (max + 10 m)` of the two), times the share of this stretch's fixes matched.
    public var confidence: Double

    public var lengthMeters: Double { legs.reduce(0) { $0 + $1.lengthMeters } }
}

/// The arcs between two matched fixes: from `start` on the first arc to `end` on the last.
public struct MatchedLeg: Sendable {
    public var arcs: [ArcID]
    public var start: Double
    public var end: Double
    /// True when the leg turns around in the middle of a road (its single arc runs back).
    public var turnsAround: Bool
    public var lengthMeters: Double
}
