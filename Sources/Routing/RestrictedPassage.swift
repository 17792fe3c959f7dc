public import RoadNetwork

/// Roads of restricted access (private, destination, delivery or customers only) as Valhalla's
/// "not thru" rule has them: a run of such roads joined to one another is one area, which a leg
/// may drive through to reach its end inside it, or to leave its start inside it, but never pass
/// through from open road to open road. The entry charge (`WeightUnit.restrictedEntryPenalty`)
/// makes searches enter as few runs as they can; this refuses what is left.
public enum RestrictedPassage {
    /// The first leg of `route` that passes through a restricted area it neither starts nor ends in.
    public static func legPassingThrough(_ route: Route, graph: RoadGraph) -> Int? {
        guard graph.hasRestrictedAccess else { return nil }
        // A piece of no length is a point the leg starts or ends at (a junction node), not a road driven.
        return route.legs.indices.first { leg in
            passesThrough(route.legs[leg].pieces.filter { $0.toFraction > $0.fromFraction }.map(\.arc), graph: graph)
        }
    }

    /// Whether a leg driving `arcs` enters a restricted run from open road and leaves it for open
    /// road again, the run not in the area of the leg's first or last arc.
    public static func passesThrough(_ arcs: [ArcID], graph: RoadGraph) -> Bool {
        var middle: [ArcID] = []  // first arc of each run entered from open road and left for it
        var runStart: ArcID?
        for (i, arc) in arcs.enumerated() {
            let restricted = Metric.restricted(graph, arc)
            if restricted && runStart == nil && i > 0 { runStart = arc }
            if !restricted, let start = runStart {
                middle.append(start)
                runStart = nil
            }
        }
        guard !middle.isEmpty else { return false }
        var own = Set<Int>()
        for end in [arcs.first, arcs.last] {
            if let end, Metric.restricted(graph, end), !own.contains(end.index) { own.formUnion(area(of: end, graph: graph)) }
        }
        return middle.contains { !own.contains($0.index) }
    }

    /// Whether a one-to-many label whose cost carries `restrictedEntryPenalty` per entry (a static
    /// search's metric) stands for a route the rule admits: one that entered no restricted run
    /// from open road, or one whose only entry is into the run it ends in (`endsRestricted`: the
    /// arc reached, forward, or the point reached from it, backward, lies on a restricted road).
    /// The entry charge outweighs any route, so the least-cost label enters as few runs as any.
    public static func admits(cost: UInt32, endsRestricted: Bool) -> Bool {
        let entries = cost / WeightUnit.milliseconds.restrictedEntryPenalty
        return entries == 0 || (entries == 1 && endsRestricted)
    }

    /// The heap key of a time-dependent one-to-many label: routes that entered a restricted run come
    /// after all that did not, as the static searches' entry charge orders them, so each arc keeps
    /// the route the rule admits.
    @inline(__always)
    public static func key(_ key: UInt32, entered: Bool) -> UInt32 {
        entered ? min(UInt32.max - 1, Metric.add(key, WeightUnit.milliseconds.restrictedEntryPenalty)) : key
    }

    /// One step of a time-dependent one-to-many search, whose labels keep whether the route
    /// entered a restricted run from open road (it then stays inside: the run is where it ends).
    /// Forward, from `from` (entered or not) onto `to`; backward (`to` the arc already labelled,
    /// `entered` for the part after it), whether the route from `from` has entered one.
    /// Nil: the step passes through, or enters a second run. `endsRestricted` is the backward
    /// search's point: a route ending on open road may enter none.
    @inline(__always)
    public static func step(_ graph: RoadGraph, from: ArcID, to: ArcID, entered: Bool, forward: Bool,
                            endsRestricted: Bool = true) -> Bool? {
        step(fromRestricted: Metric.restricted(graph, from), toRestricted: Metric.restricted(graph, to), entered: entered,
             forward: forward, endsRestricted: endsRestricted)
    }

    /// The same step from whether its two arcs are restricted (`Metric.restricted`), for searches
    /// that keep those bits at hand.
    @inline(__always)
    public static func step(fromRestricted: Bool, toRestricted: Bool, entered: Bool, forward: Bool,
                            endsRestricted: Bool = true) -> Bool? {
        let entry = toRestricted && !fromRestricted
        if forward {
            if entered && !toRestricted { return nil }
            return entered || entry
        }
        if entry && (entered || !endsRestricted) { return nil }
        return entered || entry
    }

    /// The arcs of the restricted area `arc` lies in: both directions of restricted roads joined
    /// by turns either way.
    static func area(of arc: ArcID, graph: RoadGraph) -> Set<Int> {
        var seen: Set<Int> = [arc.index]
        var stack = [arc]
        while let a = stack.popLast() {
            let e = graph.edge(of: a).index
            var next: [ArcID] = [graph.edgeArcs[2 * e], graph.edgeArcs[2 * e + 1]].filter { !$0.isNone }
            for t in graph.turns(from: a) { next.append(graph.turnTarget[t]) }
            for i in graph.turns(into: a) { next.append(graph.turnSource[Int(graph.turnReverseTurn[i])]) }
            for v in next where !seen.contains(v.index) && Metric.restricted(graph, v) {
                seen.insert(v.index)
                stack.append(v)
            }
        }
        return seen
    }
}
