public import RoadNetwork

/// Integer weights for one way of choosing routes (fastest, shortest, …) on one graph.
///
/// Searches run on the turn-expanded graph, so the weight of a turn `a → b` includes entering
/// and traversing arc `b`: `turnWeight[t] = turn cost + arcWeight[b]`. `arcWeight` alone is
/// needed for the partial arcs at the start and end of a route.
public struct Metric: Sendable {
    public var arcWeight: [UInt32]
    public var turnWeight: [UInt32]

    public init(arcWeight: [UInt32], turnWeight: [UInt32]) {
        self.arcWeight = arcWeight
        self.turnWeight = turnWeight
    }

    /// Weight that makes an arc unusable.
    public static let infinite = UInt32.max

    /// Adds without wrapping; infinity stays infinity.
    @inlinable
    public static func add(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? infinite : sum
    }

    /// Travel time in milliseconds, with OSRM's rule that entering a destination-only road from a
    /// road open to all costs `restrictedEntryPenaltyMs` (so it is used to reach places on it,
    /// never as a shortcut); the reported duration never includes that penalty.
    public static func fastest(_ graph: RoadGraph, restrictedEntryPenaltyMs: UInt32 = 3_600_000) -> Metric {
        var arc = Array(graph.arcDurationMs)
        for a in 0..<arc.count where arc[a] == 0 { arc[a] = 1 }
        return withTurns(graph, arcWeight: arc, turnWeight: { t, from, to in
            var w = graph.turnDurationMs[t]
            if restricted(graph, to) && !restricted(graph, from) { w = add(w, restrictedEntryPenaltyMs) }
            return w
        })
    }

    /// Length in centimetres; turns cost nothing but restricted roads keep their entry penalty.
    public static func shortest(_ graph: RoadGraph) -> Metric {
        let arc = (0..<graph.arcCount).map { max(1, graph.lengthCm(of: ArcID($0))) }
        return withTurns(graph, arcWeight: arc, turnWeight: { _, from, to in
            restricted(graph, to) && !restricted(graph, from) ? 100_000_000 : 0
        })
    }

    static func restricted(_ graph: RoadGraph, _ arc: ArcID) -> Bool {
        graph.wayFlags[graph.way(of: arc).index].contains(.restrictedAccess)
    }

    /// Combines per-arc weights with a per-turn extra into turn weights.
    public static func withTurns(_ graph: RoadGraph, arcWeight: [UInt32],
                                 turnWeight extra: (Int, ArcID, ArcID) -> UInt32) -> Metric {
        var turn = [UInt32](repeating: 0, count: graph.turnCount)
        for a in 0..<graph.arcCount {
            for t in graph.turns(from: ArcID(a)) {
                let to = graph.turnTarget[t]
                turn[t] = add(extra(t, ArcID(a), to), arcWeight[to.index])
            }
        }
        return Metric(arcWeight: arcWeight, turnWeight: turn)
    }
}
