public import RoadNetwork

/// A route that is feasible but not necessarily best, found for the price of a walk: from a source,
/// follow a prepared lower-bound potential downhill (at each arc the turn whose weight plus the
/// potential beyond it is smallest). CH-potentials are exact distances in the lower-bound metric,
/// so the walk is a shortest path in that metric and never needs a search.
///
/// Driven with the travel-time table, it gives an upper bound of the trip's real duration: the
/// best route ends no later, so the hours it can use are known before the exact search starts.
public struct FeasibleRoute: Sendable {
    /// Arcs from the source's arc to the target's arc (search arcs: restriction copies as they are).
    public var arcs: [ArcID]
    public var sourceFraction: Double
    public var targetFraction: Double
    /// Which of the targets it reaches.
    public var reached: Int

    /// The walk from `source` down `potential` (prepared towards `targets` with `bound`'s weights);
    /// nil when it gets stuck (no target beyond the source, or a plateau of zero weights).
    public static func descend(from source: ArcPosition, to targets: [ArcPosition], graph: RoadGraph, potential: CCHPotential,
                               bound: LowerBound) -> FeasibleRoute? {
        var targetOf: [Int: Int] = [:]
        for (j, target) in targets.enumerated() {
            let original = graph.arcOriginal[target.arc.index]
            for arc in [original] + (graph.restrictionCopies[original] ?? []) where targetOf[arc.index] == nil { targetOf[arc.index] = j }
        }
        var arcs = [source.arc]
        var u = source.arc.index
        guard potential.value(source.arc) != CCHPotential.infinity else { return nil }
        // Every step lowers the potential left, or keeps it on zero-weight turns: a cap stops plateaus.
        for _ in 0..<max(1, graph.arcCount) {
            var next = -1, nextValue = CCHPotential.infinity, reached = -1, reachedTurn = -1, reachedValue = CCHPotential.infinity
            for t in graph.turns(from: ArcID(u)) {
                let v = graph.turnTarget[t].index
                if let j = targetOf[v] {
                    let cost = Metric.add(graph.turnDurationMs[t], bound.covered(targets[j]))
                    if cost < reachedValue { reached = j; reachedTurn = t; reachedValue = cost }
                }
                let beyond = potential.value(ArcID(v))
                guard beyond != CCHPotential.infinity else { continue }
                let cost = Metric.add(bound.turnWeight(t), beyond)
                if cost < nextValue { next = v; nextValue = cost }
            }
            if reached >= 0 && reachedValue <= nextValue {
                arcs.append(graph.turnTarget[reachedTurn])
                return FeasibleRoute(arcs: arcs, sourceFraction: source.fraction, targetFraction: targets[reached].fraction, reached: reached)
            }
            guard next >= 0 else { return nil }
            arcs.append(ArcID(next))
            u = next
        }
        return nil
    }

    /// The turn from `u` to `v`.
    static func turn(from u: ArcID, to v: ArcID, graph: RoadGraph) -> Int? {
        graph.turns(from: u).first { graph.turnTarget[$0] == v }
    }

    /// The share of the `i`-th arc the route drives.
    func fraction(_ i: Int) -> Double {
        if arcs.count == 1 { return max(0, targetFraction - sourceFraction) }
        return i == 0 ? 1 - sourceFraction : i == arcs.count - 1 ? targetFraction : 1
    }

    /// When the route ends if it starts at `start` (seconds since 1970); nil when an arc on the
    /// way is closed when reached.
    public func arrival(leaving start: Double, graph: RoadGraph, table: TravelTimeTable) -> Double? {
        var time = start
        for (i, arc) in arcs.enumerated() {
            if i > 0 {
                guard let t = Self.turn(from: arcs[i - 1], to: arc, graph: graph) else { return nil }
                time += Double(graph.turnDurationMs[t]) / 1000
            }
            let ms = table.traverseMs(arc.index, entry: time, fraction: fraction(i), ignoringClosure: i == 0 || i == arcs.count - 1)
            guard ms.isFinite else { return nil }
            time += ms / 1000
        }
        return time
    }
}
