public import RoadNetwork

/// Latest departure for a leg that must end by given deadlines: the backward counterpart of
/// `TimeDependentLegSearch`. Labels are the latest moment one may *enter* an arc and still make
/// it; a turn and an arc are undone with the exact inverse of the travel-time model
/// (`TravelTimeTable.latestEntry`), so the answer is exact under FIFO.
///
/// The heap key is `reference − label` (smaller = later = better) plus a lower bound of the time
/// from the sources to the arc (CH-potentials over lower-bound weights, towards the sources).
public struct ArriveBySearch {
    public let graph: RoadGraph
    public let table: TravelTimeTable
    let potential: CCHPotential?
    let lowerBound: LowerBound?
    let scratch: TimeDependentScratch
    /// Where `potential`'s bounds stop holding (going back in time) and what holds before them.
    public var expiry: PotentialExpiry?
    /// What the solves so far did.
    public private(set) var counts = SearchCounts()

    public init(graph: RoadGraph, table: TravelTimeTable, potential: CCHPotential?, lowerBound: LowerBound?,
                scratch: TimeDependentScratch? = nil) {
        self.graph = graph
        self.table = table
        self.potential = potential
        self.lowerBound = lowerBound
        self.scratch = scratch ?? TimeDependentScratch(capacity: graph.arcCount)
    }

    public struct Target: Sendable {
        public var position: ArcPosition
        /// Seconds since 1970 by which this position must be reached.
        public var deadline: Double
        public init(position: ArcPosition, deadline: Double) { self.position = position; self.deadline = deadline }
    }

    public struct Departure: Sendable {
        /// Seconds since 1970: the latest moment to leave this source.
        public var time: Double
        /// Which target the path ends at.
        public var target: Int
        public var arcs: [ArcID]
    }

    /// For each source position, the latest departure that reaches one of the targets by its deadline.
    public mutating func solve(sources: [ArcPosition], targets: [Target]) -> [Departure?] {
        var best: [Departure?] = Array(repeating: nil, count: sources.count)
        // Entering a restricted road from an open one costs what it costs in the forward searches
        // (ordering only): `score` is the departure less those charges, what the search maximises.
        var score = [Double](repeating: -.infinity, count: sources.count)
        let restrictedEntry = graph.hasRestrictedAccess
        let extras = scratch.extras
        let reference = (targets.map(\.deadline).max() ?? 0) + 1
        func key(_ time: Double) -> UInt32 { UInt32(min(Double(UInt32.max - 1), max(0, (reference - time) * 1000))) }
        // Same-arc answers.
        for (i, source) in sources.enumerated() {
            for (j, target) in targets.enumerated()
            where graph.arcOriginal[source.arc.index] == graph.arcOriginal[target.position.arc.index] && source.fraction <= target.position.fraction {
                if let t = table.latestEntry(source.arc.index, exit: target.deadline, fraction: target.position.fraction - source.fraction, ignoringClosure: true),
                   best[i].map({ t > $0.time }) ?? true {
                    best[i] = Departure(time: t, target: j, arcs: [source.arc])
                    score[i] = t
                }
            }
        }
        if let potential, let lowerBound {
            potential.prepare(sources.map { ($0.arc, lowerBound.remaining($0)) })
            if let expiry { expiry.potential.prepare(sources.map { ($0.arc, expiry.lowerBound.remaining($0)) }) }
        }
        let limitMs = expiry?.limitMs(from: reference, forward: false) ?? UInt32.max
        let s = scratch.heap  // labels: (reference − latest entry) in ms
        s.reset()
        var targetOf: [Int: Int] = [:]
        /// A lower bound of the time from a source to the *start* of `arc` (infinity: none reaches it).
        func toStart(_ potential: CCHPotential, _ bound: LowerBound, _ arc: Int) -> UInt32 {
            let toEnd = potential.value(ArcID(arc))
            if toEnd == CCHPotential.infinity { return toEnd }
            return toEnd > bound.arcWeight[arc] ? toEnd - bound.arcWeight[arc] : 0
        }
        /// The heap key: lateness, the entry charges on the way (`extra`), and the potential.
        var potentialCalls = 0, relaxed = 0, settled = 0
        func potentialKey(_ arc: Int, _ lateness: UInt32, extra: UInt32 = 0) -> UInt32 {
            guard let potential, let lowerBound else { return Metric.add(lateness, extra) }
            potentialCalls += 1
            var p = toStart(potential, lowerBound, arc)
            if let expiry {
                p = PotentialExpiry.combine(band: p, labelMs: lateness, limitMs: limitMs) { toStart(expiry.potential, expiry.lowerBound, arc) }
            }
            return p == CCHPotential.infinity ? UInt32.max : Metric.add(Metric.add(lateness, extra), p)
        }
        for (j, target) in targets.enumerated() {
            let original = graph.arcOriginal[target.position.arc.index]
            for arc in [original] + (graph.restrictionCopies[original] ?? []) {
                guard let entry = table.latestEntry(arc.index, exit: target.deadline, fraction: target.position.fraction, ignoringClosure: true) else { continue }
                let lateness = key(entry)
                let k = potentialKey(arc.index, lateness)
                guard k != UInt32.max else { continue }
                if s.push(arc.index, key: k, label: lateness, parent: LabelHeap.noParent) {
                    targetOf[arc.index] = j
                    extras[arc.index] = 0
                }
            }
        }
        let sourceArcs = sources.map { graph.arcOriginal[$0.arc.index] }
        var lastTo = [Int](repeating: -1, count: sources.count)
        var lastArc = [ArcID](repeating: .none, count: sources.count)
        func bound() -> UInt32 {
            var m: UInt32 = 0
            for i in best.indices { guard best[i] != nil else { return UInt32.max }; m = max(m, key(score[i])) }
            return m
        }
        var stopAt = bound()
        // Conditional turns and arcs, at the moment the route would reach them (`ConditionalRules`).
        let conditionals = graph.conditionals, gated = !conditionals.isEmpty, offset = table.utcOffsetSeconds
        while let (b, keyB) = s.popMin() {
            if keyB >= stopAt { break }
            settled += 1
            let entryB = reference - Double(s.label(b)) / 1000
            let extraB = restrictedEntry ? extras[b] : 0
            for i in graph.turns(into: ArcID(b)) {
                relaxed += 1
                let t = Int(graph.turnReverseTurn[i])
                let a = graph.turnSource[t].index
                var extraA = extraB
                if restrictedEntry && Metric.restricted(graph, ArcID(b)) && !Metric.restricted(graph, ArcID(a)) {
                    extraA = Metric.add(extraA, WeightUnit.milliseconds.restrictedEntryPenalty)
                }
                let leaveA = entryB - Double(graph.turnDurationMs[t]) / 1000
                if gated && conditionals.blocksTurn(t, at: leaveA, utcOffsetSeconds: offset) { continue }
                let original = graph.arcOriginal[a]
                for (si, source) in sources.enumerated() where sourceArcs[si] == original {
                    guard let start = table.latestEntry(a, exit: leaveA, fraction: 1 - source.fraction, ignoringClosure: true) else { continue }
                    if start - Double(extraA) / 1000 > score[si] {
                        best[si] = Departure(time: start, target: -1, arcs: [])
                        score[si] = start - Double(extraA) / 1000
                        lastTo[si] = b
                        lastArc[si] = ArcID(a)
                        stopAt = bound()
                    }
                }
                if s.isSettled(a) { continue }
                guard let entryA = table.latestEntry(a, exit: leaveA) else { continue }
                if gated && conditionals.blocksArc(a, at: entryA, utcOffsetSeconds: offset) { continue }
                let lateness = key(entryA)
                let k = potentialKey(a, lateness, extra: extraA)
                guard k != UInt32.max else { continue }
                if s.push(a, key: k, label: lateness, parent: UInt32(b)), restrictedEntry { extras[a] = extraA }
            }
        }
        counts.settled += settled
        counts.relaxed += relaxed
        counts.potentialCalls += potentialCalls
        for si in best.indices where lastTo[si] >= 0 && best[si]?.arcs.isEmpty == true {
            var arcs = [lastArc[si]]
            var b = lastTo[si]
            while true {
                arcs.append(ArcID(b))
                let p = s.parentOf(b)
                if p == LabelHeap.noParent { break }
                b = Int(p)
            }
            best[si]!.arcs = arcs
            best[si]!.target = targetOf[b] ?? 0
        }
        return best
    }
}
