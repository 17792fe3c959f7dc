public import RoadNetwork

/// What a metric's weights count.
public enum WeightUnit: String, Sendable {
    /// Travel time (fastest routes, time-dependent lower bounds).
    case milliseconds
    /// Travel time scaled by road class and curviness (thrilling routes): not a duration.
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

    /// Free-flow travel time in milliseconds, with the restricted-entry penalty (never part of a
    /// reported duration).
    public static func fastest(_ graph: RoadGraph) -> Metric {
        var arc = Array(graph.arcDurationMs)
        for a in 0..<arc.count where arc[a] == 0 { arc[a] = 1 }
        return withTurns(graph, unit: .milliseconds, arcWeight: arc, turnWeight: { t, from, to in
            var w = graph.turnDurationMs[t]
            if restricted(graph, to) && !restricted(graph, from) { w = add(w, WeightUnit.milliseconds.restrictedEntryPenalty) }
            return w
        })
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
