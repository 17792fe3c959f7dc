import RoadNetwork

/// Pruning with an upper bound, exactly.
///
/// Before the search, the walk down the potential (`FeasibleRoute`) from the most promising source
/// gives a route, costed here as the search itself would cost it (the same rounding, turn times,
/// closures, conditional rules and ordering extras). The best target costs no more, so with the
/// problem's `slack` a label whose key (label + extras + admissible potential) exceeds that cost
/// plus the slack leads to no target that is needed: it is not queued, and the search stops when
/// the smallest key left is past it. Keys never fall along an arc (the potentials are consistent),
/// so the labels popped below the bound, and the answers below it, are those of the search without
/// it; the walk's route itself stands as an answer, so the bound can never leave the best target
/// unanswered.
///
/// The bound also tells how long the route can take: when the band's bounds hold until after it,
/// the week's bounds (`PotentialExpiry`) are never needed and are not prepared.
///
/// Why this and not TD-CCH/CATCHUp: see `TimeDependentPotentials`. The exact search keeps one
/// label per arc and one number per shortcut per band; the bound costs one walk and one drive.
extension TimeDependentLegSearch {
    /// The entry charge still ahead of an open arc when every target lies on a restricted road: a
    /// route from open roads to such a target enters restricted access at least once, so adding the
    /// charge to the potential of open arcs keeps it admissible, and consistent (it comes off
    /// exactly where the charge is paid). Without it, a search towards a private road settles
    /// every arc whose key is below the charge, which is all of them.
    static func entryCharge(_ graph: RoadGraph, into targets: [ArcID]) -> UInt32 {
        guard graph.hasRestrictedAccess, !targets.isEmpty, targets.allSatisfy({ Metric.restricted(graph, $0) }) else { return 0 }
        return WeightUnit.milliseconds.restrictedEntryPenalty
    }

    /// The walk's route from the best source and its cost in this search's units; nil when the
    /// walk gets stuck or the route is blocked on the way.
    func upperBound(_ problem: LegProblem, potential: CCHPotential, bound: LowerBound) -> (cost: UInt32, path: LegSolution.Path, target: Int)? {
        var first = -1, firstKey = UInt32.max
        for (i, source) in problem.sources.enumerated() {
            let p = potential.value(source.position.arc)
            guard p != CCHPotential.infinity else { continue }
            let key = Metric.add(Metric.add(source.cost, p), bound.remaining(source.position))
            if key < firstKey { first = i; firstKey = key }
        }
        guard first >= 0 else { return nil }
        let source = problem.sources[first]
        guard let walk = FeasibleRoute.descend(from: source.position, to: problem.targets, graph: graph, potential: potential, bound: bound),
              let (cost, extraMs) = cost(of: walk.arcs, from: source, to: problem.targets[walk.reached]) else { return nil }
        return (cost, LegSolution.Path(cost: cost, source: first, arcs: walk.arcs, extraMs: extraMs), walk.reached)
    }

    /// What the search charges for driving `arcs` from `source` to `target`: the arrival there
    /// plus the ordering extras on the way (the source's too), and those extras; nil when
    /// something on the way is closed or forbidden.
    func cost(of arcs: [ArcID], from source: LegProblem.Source, to target: ArcPosition) -> (cost: UInt32, extraMs: UInt32)? {
        guard arcs.count >= 2 else { return nil }
        let conditionals = graph.conditionals, gated = !conditionals.isEmpty, offset = table.utcOffsetSeconds
        let start = drive(arcs[0].index, elapsedMs: source.elapsedMs, fraction: 1 - source.position.fraction, endpoint: true)
        guard start != UInt32.max else { return nil }
        var label = Metric.add(source.elapsedMs, start)
        var extra = source.extraMs
        for i in 1..<arcs.count {
            let u = arcs[i - 1], v = arcs[i]
            guard let t = FeasibleRoute.turn(from: u, to: v, graph: graph) else { return nil }
            if gated && conditionals.blocksTurn(t, at: departure + Double(label) / 1000, utcOffsetSeconds: offset) { return nil }
            let entry = Metric.add(label, graph.turnDurationMs[t])
            if !penaltyMs.isEmpty {
                guard penaltyMs[v.index] != UInt32.max else { return nil }
                extra = Metric.add(extra, penaltyMs[v.index])
            }
            if graph.hasRestrictedAccess && Metric.restricted(graph, v) && !Metric.restricted(graph, u) {
                extra = Metric.add(extra, WeightUnit.milliseconds.restrictedEntryPenalty)
            }
            if i == arcs.count - 1 {
                let partial = drive(v.index, elapsedMs: entry, fraction: target.fraction, endpoint: true)
                return partial == UInt32.max ? nil : (Metric.add(Metric.add(entry, partial), extra), extra)
            }
            if gated && conditionals.blocksArc(v.index, at: departure + Double(entry) / 1000, utcOffsetSeconds: offset) { return nil }
            let travel = drive(v.index, elapsedMs: entry)
            guard travel != UInt32.max else { return nil }
            label = Metric.add(entry, travel)
        }
        return nil
    }
}

/// The key at which a search over several targets may stop.
enum SearchStop {
    /// Past the worst target's best key every target is answered; with a slack, past the best
    /// one's plus the slack the others are not needed; past `prune` no key leads to a needed one.
    static func key(_ best: [UInt32?], slack: UInt32?, prune: UInt32) -> UInt32 {
        var worst: UInt32 = 0, first = UInt32.max
        for b in best {
            guard let b else { worst = UInt32.max; continue }
            worst = max(worst, b)
            first = min(first, b)
        }
        var stop = min(worst, prune == UInt32.max ? prune : prune + 1)
        if let slack, first != UInt32.max { stop = min(stop, Metric.add(Metric.add(first, slack), 1)) }
        return stop
    }
}
