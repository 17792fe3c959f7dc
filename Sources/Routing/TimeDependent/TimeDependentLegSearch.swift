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
    let lowerBound: Metric?
    let scratch: TimeDependentScratch
    public private(set) var settled = 0
    /// Milliseconds added (to the ordering cost, not to the clock) when entering an arc;
    /// `UInt32.max` forbids it. Empty = none. Used for soft avoidances and alternatives.
    public var penaltyMs: [UInt32] = []

    /// - Parameters:
    ///   - potential: built on a CCH customized with `lowerBound`'s turn weights; nil runs plain
    ///     time-dependent Dijkstra (the oracle).
    public init(graph: RoadGraph, table: TravelTimeTable, departure: Double, potential: CCHPotential?, lowerBound: Metric?,
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
        return ms.isFinite ? UInt32(min(Double(UInt32.max / 2), ms.rounded())) : UInt32.max
    }

    public mutating func solve(_ problem: LegProblem) -> LegSolution {
        var best: [LegSolution.Path?] = Array(repeating: nil, count: problem.targets.count)
        // Same-arc answers.
        for (j, target) in problem.targets.enumerated() {
            for (i, source) in problem.sources.enumerated()
            where graph.arcOriginal[source.position.arc.index] == graph.arcOriginal[target.arc.index] && source.position.fraction <= target.fraction {
                let t = drive(source.position.arc.index, elapsedMs: source.cost, fraction: target.fraction - source.position.fraction, endpoint: true)
                let extra = penaltyMs.isEmpty ? 0 : penaltyMs[source.position.arc.index]
                guard t != UInt32.max, extra != UInt32.max else { continue }
                let cost = Metric.add(Metric.add(source.cost, t), extra)
                if best[j].map({ cost < $0.cost }) ?? true { best[j] = .init(cost: cost, source: i, arcs: [source.position.arc]) }
            }
        }
        let targetArcs = problem.targets.map { graph.arcOriginal[$0.arc.index] }
        if let potential, let lowerBound {
            var starts: [(arc: ArcID, offset: UInt32)] = []
            for (j, target) in problem.targets.enumerated() {
                let excess = lowerBound.remaining(target)
                let arcs = [targetArcs[j]] + (graph.restrictionCopies[targetArcs[j]] ?? [])
                for arc in arcs {
                    for i in graph.turns(into: arc) {
                        let t = Int(graph.turnReverseTurn[i])
                        let w = lowerBound.turnWeight[t]
                        if w != Metric.infinite { starts.append((graph.turnSource[t], w - excess)) }
                    }
                }
            }
            potential.prepare(starts)
        }
        let s = scratch.heap
        let labels = scratch.labels
        let extras = scratch.extras
        let penalties = penaltyMs
        s.reset()
        settled = 0
        var sourceOf: [Int: Int] = [:]
        func key(_ arc: Int, _ label: UInt32) -> UInt32 {
            guard let potential else { return label }
            let p = potential.value(ArcID(arc))
            return p == CCHPotential.infinity ? UInt32.max : Metric.add(label, p)
        }
        for (i, source) in problem.sources.enumerated() {
            let a = source.position.arc.index
            let t = drive(a, elapsedMs: source.cost, fraction: 1 - source.position.fraction, endpoint: true)
            guard t != UInt32.max else { continue }
            let label = Metric.add(source.cost, t)
            let k = key(a, label)
            guard k != UInt32.max else { continue }
            if s.relax(a, key: k, parent: SearchScratch.noParent) {
                labels[a] = label
                extras[a] = 0
                sourceOf[a] = i
            }
        }
        var lastFrom = [Int](repeating: -1, count: problem.targets.count)
        var lastArc = [ArcID](repeating: .none, count: problem.targets.count)
        func bound() -> UInt32 {
            var m: UInt32 = 0
            for b in best { guard let b else { return UInt32.max }; m = max(m, b.cost) }
            return m
        }
        var stopAt = bound()
        let turnFirstOut = graph.turnFirstOut, turnTarget = graph.turnTarget, turnDuration = graph.turnDurationMs
        let originals = graph.arcOriginal
        while let (u, keyU) = s.popMin() {
            if keyU >= stopAt { break }
            settled += 1
            let du = labels[u]
            let extraU = extras[u]
            for t in Int(turnFirstOut[u])..<Int(turnFirstOut[u + 1]) {
                let v = turnTarget[t].index
                let turnMs = turnDuration[t]
                let entry = Metric.add(du, turnMs)
                let penalty = penalties.isEmpty ? 0 : penalties[v]
                if penalty == UInt32.max { continue }
                let extraV = Metric.add(extraU, penalty)
                let original = originals[v]
                for j in targetArcs.indices where targetArcs[j] == original {
                    let partial = drive(v, elapsedMs: entry, fraction: problem.targets[j].fraction, endpoint: true)
                    guard partial != UInt32.max else { continue }
                    let candidate = Metric.add(Metric.add(entry, partial), extraV)
                    if best[j].map({ candidate < $0.cost }) ?? true {
                        best[j] = .init(cost: candidate, source: -1, arcs: [])
                        lastFrom[j] = u
                        lastArc[j] = ArcID(v)
                        stopAt = bound()
                    }
                }
                let travel = drive(v, elapsedMs: entry)
                guard travel != UInt32.max else { continue }
                let label = Metric.add(entry, travel)
                let k = key(v, Metric.add(label, extraV))
                guard k != UInt32.max else { continue }
                if s.relax(v, key: k, parent: UInt32(u)) { labels[v] = label; extras[v] = extraV }
            }
        }
        LegSolution.unpack(&best, lastFrom: lastFrom, lastArc: lastArc, sourceOf: sourceOf, parents: s)
        return LegSolution(paths: best)
    }
}

/// Heap and label memory for time-dependent searches (one per thread).
public final class TimeDependentScratch: @unchecked Sendable {
    let heap: SearchScratch
    let labels: UnsafeMutablePointer<UInt32>
    /// Penalty milliseconds accumulated on the way to each arc (ordering only).
    let extras: UnsafeMutablePointer<UInt32>

    public init(capacity: Int) {
        heap = SearchScratch(capacity: capacity)
        labels = .allocate(capacity: max(1, capacity))
        extras = .allocate(capacity: max(1, capacity))
    }

    deinit { labels.deallocate(); extras.deallocate() }
}
