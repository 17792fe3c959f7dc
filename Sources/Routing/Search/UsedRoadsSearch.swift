public import RoadNetwork

/// A search that takes extra costs for entering arcs (added to its ordering, never to its clock).
public protocol EntryPenalizedSearch: LegSearch {
    var graph: RoadGraph { get }
    /// Added when entering an arc; `Metric.infinite` forbids it. Empty = none.
    var entryPenalty: [UInt32] { get set }
}

extension AStarLegSearch: EntryPenalizedSearch {
    public var entryPenalty: [UInt32] {
        get { penalty }
        set { penalty = newValue }
    }
}

extension TimeDependentLegSearch: EntryPenalizedSearch {
    public var entryPenalty: [UInt32] {
        get { penaltyMs }
        set { penaltyMs = newValue }
    }
}

/// Wraps a search so that, leg after leg, roads already driven get a heavy penalty (TomTom's
/// `avoid=alreadyUsedRoads`): `AvoidanceRules.softEntryPenaltyMs` units of weight on entering
/// them (half an hour on travel-time weights), or never with strict. Static searches (A* on a
/// metric) and time-dependent ones (depart-at) alike.
public struct UsedRoadsSearch<Inner: EntryPenalizedSearch>: LegSearch {
    public var inner: Inner
    public let penalizeUsed: Bool
    public let strict: Bool

    public init(inner: Inner, penalizeUsed: Bool, strict: Bool) {
        self.inner = inner
        self.penalizeUsed = penalizeUsed
        self.strict = strict
    }

    public mutating func solve(_ problem: LegProblem) -> LegSolution {
        guard penalizeUsed else { return inner.solve(problem) }
        // Every target's path marks the roads later legs avoid, so every target needs its best.
        var problem = problem
        problem.slack = nil
        let solution = inner.solve(problem)
        let graph = inner.graph
        var penalty = inner.entryPenalty
        if penalty.isEmpty { penalty = [UInt32](repeating: 0, count: graph.arcCount) }
        for path in solution.paths.compactMap({ $0 }) {
            UsedRoads.forEachRoadDriven(path.arcs, graph: graph) { a in
                penalty[a.index] = strict ? Metric.infinite : Metric.add(penalty[a.index], AvoidanceRules.softEntryPenaltyMs)
            }
        }
        inner.entryPenalty = penalty
        return solution
    }
}

extension UsedRoads {
    /// Calls `body` with each arc a leg over `arcs` counts as used, either way: every arc but its
    /// first and last (where the leg only starts or ends), as originals with their twins.
    public static func forEachRoadDriven(_ arcs: some Collection<ArcID>, graph: RoadGraph, _ body: (ArcID) -> Void) {
        for arc in arcs.dropFirst().dropLast() {
            let original = graph.arcOriginal[arc.index]
            for a in [original, graph.twin(of: original)] where !a.isNone { body(a) }
        }
    }
}

/// What a route may do with roads its earlier legs drove.
public enum UsedRoads: Sendable, Equatable {
    case allowed
    /// Avoided where another way exists (`avoid=alreadyUsedRoads`).
    case avoided
    /// Never driven again (the same with strict avoidance).
    case forbidden
}
