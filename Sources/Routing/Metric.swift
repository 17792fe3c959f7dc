public import RoadNetwork

/// What a metric's weights count.
public enum WeightUnit: String, Sendable {
    /// Travel time (fastest routes on graphs without rate penalties, time-dependent lower bounds).
    case milliseconds
    /// Travel time scaled by how much a road's speed is worth (fastest car routes by OSRM's rate
    /// penalties, quiet bicycle routes, thrilling routes by road class and curviness): not a duration.
    case weightedMilliseconds
    /// Length (shortest routes).
    case centimetres
    /// Fuel, with a little weight on time (eco routes).
    case microlitres

    /// What entering a road of restricted access from one open to all costs: more than any route
    /// (2²⁸ ms, 75 hours; 2 684 km on lengths), so a search enters as few runs of such roads as it
    /// can, and `RestrictedPassage` refuses a route that still passes through one. OSRM charges
    /// 3 276.7 s (car.lua's `max_turn_weight`) and so passes through when that saves an hour;
    /// the hierarchy's infinity (2³¹) leaves room for seven entries.
    public var restrictedEntryPenalty: UInt32 { 1 << 28 }

    /// What entering a softly avoided road costs: half an hour, 25 km, or 1.5 L.
    public var softAvoidancePenalty: UInt32 {
        switch self {
        case .milliseconds, .weightedMilliseconds: AvoidanceRules.softEntryPenaltyMs
        case .centimetres: 2_500_000
        case .microlitres: 1_500_000
        }
    }
}

/// Integer weights for one way of choosing routes (fastest, shortest, …) on one graph, in `unit`.
///
/// Searches run on the turn-expanded graph, so the weight of a turn `a → b` includes entering
/// and traversing arc `b`: `turnWeight[t] = turn cost + arcWeight[b]`. `arcWeight` alone is
/// needed for the partial arcs at the start and end of a route.
public struct Metric: Sendable {
    public var arcWeight: [UInt32]
    public var turnWeight: [UInt32]
    public let unit: WeightUnit

    public init(arcWeight: [UInt32], turnWeight: [UInt32], unit: WeightUnit) {
        self.arcWeight = arcWeight
        self.turnWeight = turnWeight
        self.unit = unit
    }

    /// Weight that makes an arc unusable.
    public static let infinite = UInt32.max

    /// Adds without wrapping; infinity stays infinity.
    @inlinable
    public static func add(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? infinite : sum
    }

    /// Free-flow travel time in milliseconds, each arc's divided by its way's rate share
    /// (`fastestWeight`), with the restricted-entry penalty (never part of a reported duration).
    public static func fastest(_ graph: RoadGraph) -> Metric {
        let arc = (0..<graph.arcCount).map { fastestWeight(graph, ArcID($0), ms: graph.arcDurationMs[$0]) }
        return withTurns(graph, unit: fastestUnit(graph), arcWeight: arc, turnWeight: { t, from, to in
            var w = graph.turnDurationMs[t]
            if restricted(graph, to) && !restricted(graph, from) { w = add(w, WeightUnit.milliseconds.restrictedEntryPenalty) }
            return w
        })
    }

    /// What a fastest route weighs `arc` at when it takes `ms` to drive: the time divided by the
    /// share of its speed the way is worth (`RoadGraph.ratePercent`), as OSRM's `routability`
    /// weight is the duration divided by the rate penalty. Turns weigh their duration, as in car.lua.
    /// Routes are chosen by this; every reported time is the sum of the real durations (`RouteTiming`).
    @inline(__always)
    public static func fastestWeight(_ graph: RoadGraph, _ arc: ArcID, ms: UInt32) -> UInt32 {
        let rate = graph.ratePercent(of: arc)
        guard rate < 100 else { return max(1, ms) }
        return UInt32(min(UInt64(UInt32.max / 4), max(1, (UInt64(ms) * 100 + UInt64(rate) / 2) / UInt64(rate))))
    }

    /// Fastest weights are durations only where no way has a rate penalty.
    public static func fastestUnit(_ graph: RoadGraph) -> WeightUnit {
        graph.hasRatePenalties ? .weightedMilliseconds : .milliseconds
    }

    /// Length in centimetres; turns cost nothing but restricted roads keep their entry penalty.
    public static func shortest(_ graph: RoadGraph) -> Metric {
        let arc = (0..<graph.arcCount).map { max(1, graph.lengthCm(of: ArcID($0))) }
        return withTurns(graph, unit: .centimetres, arcWeight: arc, turnWeight: { _, from, to in
            restricted(graph, to) && !restricted(graph, from) ? WeightUnit.centimetres.restrictedEntryPenalty : 0
        })
    }

    /// Whether `arc` lies in an area of restricted access: on a road for private use, destinations,
    /// deliveries or customers only, or in a pocket of open road reached only through one.
    @inline(__always)
    public static func restricted(_ graph: RoadGraph, _ arc: ArcID) -> Bool {
        graph.wayFlags[graph.way(of: arc).index].contains(.restrictedAccess) || graph.arcFlags[arc.index].contains(.restrictedPocket)
    }

    /// Combines per-arc weights with a per-turn extra into turn weights.
    public static func withTurns(_ graph: RoadGraph, unit: WeightUnit, arcWeight: [UInt32],
                                 turnWeight extra: (Int, ArcID, ArcID) -> UInt32) -> Metric {
        var turn = [UInt32](repeating: 0, count: graph.turnCount)
        for a in 0..<graph.arcCount {
            for t in graph.turns(from: ArcID(a)) {
                let to = graph.turnTarget[t]
                turn[t] = add(extra(t, ArcID(a), to), arcWeight[to.index])
            }
        }
        return Metric(arcWeight: arcWeight, turnWeight: turn, unit: unit)
    }
}
