public import RoadNetwork

/// Exact earliest-arrival search for a leg leaving at a given time: time-dependent Dijkstra on
/// the turn-expanded graph (labels are milliseconds since `departure`), made goal-directed by
/// CH-potentials over lower-bound weights. FIFO arcs make it label-setting, hence exact.
///
/// Sources' `cost` is the time already spent when the leg starts (earlier legs), so legs chain.
public struct TimeDependentLegSearch: LegSearch {
    public let graph: RoadGraph
    public let table: TravelTimeTable
    /// Seconds since 1970 at which the whole route departs.
    public let departure: Double
    let potential: CCHPotential?
    let lowerBound: LowerBound?
    let scratch: TimeDependentScratch
    /// What the solves so far did.
    public private(set) var counts = SearchCounts()
    /// Milliseconds added (to the ordering cost, not to the clock) when entering an arc;
    /// `UInt32.max` forbids it. Empty = none. Used for soft avoidances and alternatives.
    public var penaltyMs: [UInt32] = []
    /// Where `potential`'s bounds stop holding and what holds after (nil: they always hold).
    public var expiry: PotentialExpiry?

    /// - Parameters:
    ///   - potential: built on a CCH customized with `lowerBound`'s turn weights; nil runs plain
    ///     time-dependent Dijkstra (the oracle).
    public init(graph: RoadGraph, table: TravelTimeTable, departure: Double, potential: CCHPotential?, lowerBound: LowerBound?,
                scratch: TimeDependentScratch? = nil) {
        self.graph = graph
        self.table = table
        self.departure = departure
        self.potential = potential
        self.lowerBound = lowerBound
        self.scratch = scratch ?? TimeDependentScratch(capacity: graph.arcCount)
    }

    /// Milliseconds to drive `fraction` of `arc` entered `elapsedMs` after departure.
    @inlinable
    func drive(_ arc: Int, elapsedMs: UInt32, fraction: Double = 1, endpoint: Bool = false) -> UInt32 {
        let ms = table.traverseMs(arc, entry: departure + Double(elapsedMs) / 1000, fraction: fraction, ignoringClosure: endpoint)
        return ms.isFinite ? UInt32(min(Double(UInt32.max / 2), (ms + 0.5).rounded(.down))) : UInt32.max
    }

    public mutating func solve(_ problem: LegProblem) -> LegSolution {
        var best: [LegSolution.Path?] = Array(repeating: nil, count: problem.targets.count)
        // Same-arc answers.
        for (j, target) in problem.targets.enumerated() {
            for (i, source) in problem.sources.enumerated()
            where graph.arcOriginal[source.position.arc.index] == graph.arcOriginal[target.arc.index] && source.position.fraction <= target.fraction {
                let t = drive(source.position.arc.index, elapsedMs: source.elapsedMs, fraction: target.fraction - source.position.fraction, endpoint: true)
                let extra = penaltyMs.isEmpty ? 0 : penaltyMs[source.position.arc.index]
                guard t != UInt32.max, extra != UInt32.max else { continue }
                let cost = Metric.add(Metric.add(source.cost, t), extra)
                if best[j].map({ cost < $0.cost }) ?? true {
                    best[j] = .init(cost: cost, source: i, arcs: [source.position.arc], extraMs: Metric.add(source.extraMs, extra))
                }
            }
        }
        let targetArcs = problem.targets.map { graph.arcOriginal[$0.arc.index] }
        // Keys above `prune` lead to no needed target (`upperBound`); nor do the week's bounds
        // matter when the band's hold until past it.
        var prune = UInt32.max
        var weekNeeded = true
        if let potential, let lowerBound {
            potential.prepare(graph.potentialStarts(towards: problem.targets, bound: lowerBound))
            if let slack = problem.slack, let (cost, path, j) = upperBound(problem, potential: potential, bound: lowerBound) {
                prune = Metric.add(cost, slack)
                if best[j].map({ cost < $0.cost }) ?? true { best[j] = path }
                weekNeeded = prune >= (self.expiry?.limitMs(from: departure, forward: true) ?? UInt32.max)
            }
        }
        let expiry = weekNeeded ? self.expiry : nil
        if potential != nil, let expiry { expiry.potential.prepare(graph.potentialStarts(towards: problem.targets, bound: expiry.lowerBound)) }
        let limitMs = expiry?.limitMs(from: departure, forward: true) ?? UInt32.max
        var potentialCalls = 0, relaxed = 0, settled = 0, pruned = 0
        let charge = Self.entryCharge(graph, into: problem.targets.map(\.arc))
        /// The potential of `arc` reached with `label` (infinity: no target beyond it).
        func bound(_ arc: Int, _ label: UInt32) -> UInt32 {
            guard let potential else { return 0 }
            potentialCalls += 1
            var p = potential.value(ArcID(arc))
            if let expiry { p = PotentialExpiry.combine(band: p, labelMs: label, limitMs: limitMs) { expiry.potential.value(ArcID(arc)) } }
            return charge == 0 || p == CCHPotential.infinity || Metric.restricted(graph, ArcID(arc)) ? p : Metric.add(p, charge)
        }
        let h = scratch.heap
        let extras = scratch.extras
        let penalties = penaltyMs
        // Entering a restricted road from an open one costs what it costs in static searches.
        let restrictedEntry = graph.hasRestrictedAccess
        // Labels are clock times; what earlier legs charged beyond driving rides along as extras.
        let penalized = !penalties.isEmpty || restrictedEntry || problem.sources.contains { $0.extraMs > 0 }
        h.reset()
        var sourceOf: [Int: Int] = [:]
        for (i, source) in problem.sources.enumerated() {
            let a = source.position.arc.index
            let t = drive(a, elapsedMs: source.elapsedMs, fraction: 1 - source.position.fraction, endpoint: true)
            guard t != UInt32.max else { continue }
            let label = Metric.add(source.elapsedMs, t)
            let p = bound(a, label)
            let k = p == CCHPotential.infinity ? UInt32.max : Metric.add(Metric.add(label, source.extraMs), p)
            guard k != UInt32.max, k <= prune else { continue }
            if h.push(a, key: k, label: label, parent: LabelHeap.noParent) {
                if penalized { extras[a] = source.extraMs }
                sourceOf[a] = i
            }
        }
        // Every arc that stands for a target's arc (restriction copies too), with its target.
        var targetArcIDs: [(arc: Int, target: Int)] = []
        for (j, original) in targetArcs.enumerated() {
            for arc in [original] + (graph.restrictionCopies[original] ?? []) { targetArcIDs.append((arc.index, j)) }
        }
        var lastFrom = [Int](repeating: -1, count: problem.targets.count)
        var lastArc = [ArcID](repeating: .none, count: problem.targets.count)
        func stop() -> UInt32 { SearchStop.key(best.map { $0?.cost }, slack: problem.slack, prune: prune) }
        var stopAt = stop()
        let turnFirstOut = graph.turnFirstOut, turnTarget = graph.turnTarget, turnDuration = graph.turnDurationMs
        // Conditional turns and arcs are asked about only in graphs that have any, and then only
        // when their bit is set: the moment is the one the route reaches them.
        let conditionals = graph.conditionals, gated = !conditionals.isEmpty, offset = table.utcOffsetSeconds
        while let (u, keyU) = h.popMin() {
            if keyU >= stopAt { break }
            settled += 1
            let du = h.label(u)
            let extraU = penalized ? extras[u] : 0
            relaxed += Int(turnFirstOut[u + 1] - turnFirstOut[u])
            for t in Int(turnFirstOut[u])..<Int(turnFirstOut[u + 1]) {
                let v = turnTarget[t].index
                if gated && conditionals.blocksTurn(t, at: departure + Double(du) / 1000, utcOffsetSeconds: offset) { continue }
                let entry = Metric.add(du, turnDuration[t])
                var extraV = extraU
                if !penalties.isEmpty {
                    let penalty = penalties[v]
                    if penalty == UInt32.max { continue }
                    extraV = Metric.add(extraU, penalty)
                }
                if restrictedEntry && Metric.restricted(graph, ArcID(v)) && !Metric.restricted(graph, ArcID(u)) {
                    extraV = Metric.add(extraV, WeightUnit.milliseconds.restrictedEntryPenalty)
                }
                for (arc, j) in targetArcIDs where arc == v {
                    let partial = drive(v, elapsedMs: entry, fraction: problem.targets[j].fraction, endpoint: true)
                    guard partial != UInt32.max else { continue }
                    let candidate = Metric.add(Metric.add(entry, partial), extraV)
                    if best[j].map({ candidate < $0.cost }) ?? true {
                        best[j] = .init(cost: candidate, source: -1, arcs: [], extraMs: extraV)
                        lastFrom[j] = u
                        lastArc[j] = ArcID(v)
                        stopAt = stop()
                    }
                }
                if h.isSettled(v) { continue }
                if gated && conditionals.blocksArc(v, at: departure + Double(entry) / 1000, utcOffsetSeconds: offset) { continue }
                let travel = drive(v, elapsedMs: entry)
                guard travel != UInt32.max else { continue }
                let label = Metric.add(entry, travel)
                let p = bound(v, label)
                if p == CCHPotential.infinity { continue }
                let k = Metric.add(Metric.add(label, extraV), p)
                if k > prune { pruned += 1; continue }
                if k != UInt32.max, h.push(v, key: k, label: label, parent: UInt32(u)), penalized { extras[v] = extraV }
            }
        }
        counts.settled += settled
        counts.relaxed += relaxed
        counts.potentialCalls += potentialCalls
        counts.pruned += pruned
        LegSolution.unpack(&best, lastFrom: lastFrom, lastArc: lastArc, sourceOf: sourceOf, parents: h)
        return LegSolution(paths: best)
    }
}

extension RoadGraph {
    /// Where a potential towards `targets` starts: the arcs turning into each target's arc (and
    /// its restriction copies), with the turn and the target arc up to the point.
    public func potentialStarts(towards targets: [ArcPosition], bound: LowerBound) -> [(arc: ArcID, offset: UInt32)] {
        var starts: [(arc: ArcID, offset: UInt32)] = []
        for target in targets {
            let original = arcOriginal[target.arc.index]
            let toPoint = bound.covered(target)
            for arc in [original] + (restrictionCopies[original] ?? []) {
                for i in turns(into: arc) {
                    let t = Int(turnReverseTurn[i])
                    starts.append((turnSource[t], Metric.add(turnDurationMs[t], toPoint)))
                }
            }
        }
        return starts
    }

}

/// Heap and label memory for time-dependent and A* searches (one per thread).
public final class TimeDependentScratch: @unchecked Sendable {
    let heap: LabelHeap
    /// Penalty milliseconds accumulated on the way to each arc (ordering only).
    let extras: UnsafeMutablePointer<UInt32>

    public init(capacity: Int) {
        heap = LabelHeap(capacity: capacity)
        extras = .allocate(capacity: max(1, capacity))
    }

    deinit { extras.deallocate() }
}
