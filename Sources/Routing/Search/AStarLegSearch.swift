public import RoadNetwork

/// Dijkstra on a fixed metric, goal-directed by CH-potentials, with optional extra cost for
/// entering certain arcs. Extra costs only ever add, so potentials computed on the plain metric
/// stay admissible: this is how `alreadyUsedRoads` runs fast without re-customizing the hierarchy
/// per query.
public struct AStarLegSearch: LegSearch {
    public let graph: RoadGraph
    public let metric: Metric
    let potential: CCHPotential
    /// Added when entering an arc; `Metric.infinite` forbids it. Empty = none.
    public var penalty: [UInt32]
    /// When set, conditional turns and arcs (`ConditionalRules`) are taken as they are at this one
    /// moment (seconds since 1970, with the dataset's UTC offset): a metric's weights are not times,
    /// so the moment does not advance along the route.
    public var conditionalMoment: (time: Double, utcOffsetSeconds: Int)?
    let scratch: TimeDependentScratch

    public init(graph: RoadGraph, metric: Metric, potential: CCHPotential, penalty: [UInt32] = [], scratch: TimeDependentScratch? = nil) {
        self.graph = graph
        self.metric = metric
        self.potential = potential
        self.penalty = penalty
        self.scratch = scratch ?? TimeDependentScratch(capacity: graph.arcCount)
    }

    @inline(__always) func extra(_ arc: Int) -> UInt32 { penalty.isEmpty ? 0 : penalty[arc] }

    public mutating func solve(_ problem: LegProblem) -> LegSolution {
        var best = problem.sameArcPaths(metric, originals: graph.arcOriginal)
        // Staying on one arc is penalized like entering it (a used road stays penalized when the
        // route would not leave it).
        if !penalty.isEmpty {
            for j in best.indices {
                guard let path = best[j] else { continue }
                let e = penalty[path.arcs[0].index]
                best[j] = e == Metric.infinite ? nil : .init(cost: Metric.add(path.cost, e), source: path.source, arcs: path.arcs)
            }
        }
        let targetArcs = problem.targets.map { graph.arcOriginal[$0.arc.index] }
        let targetExcess = problem.targets.map { metric.remaining($0) }
        var starts: [(arc: ArcID, offset: UInt32)] = []
        for (j, original) in targetArcs.enumerated() {
            for arc in [original] + (graph.restrictionCopies[original] ?? []) {
                for i in graph.turns(into: arc) {
                    let t = Int(graph.turnReverseTurn[i])
                    let w = metric.turnWeight[t]
                    if w != Metric.infinite { starts.append((graph.turnSource[t], w - targetExcess[j])) }
                }
            }
        }
        potential.prepare(starts)
        let s = scratch.heap
        s.reset()
        var sourceOf: [Int: Int] = [:]
        for (i, source) in problem.sources.enumerated() {
            let a = source.position.arc.index
            let label = Metric.add(source.cost, metric.remaining(source.position))
            let p = potential.value(ArcID(a))
            guard p != CCHPotential.infinity else { continue }
            if s.push(a, key: Metric.add(label, p), label: label, parent: LabelHeap.noParent) { sourceOf[a] = i }
        }
        var lastFrom = [Int](repeating: -1, count: problem.targets.count)
        var lastArc = [ArcID](repeating: .none, count: problem.targets.count)
        func bound() -> UInt32 {
            var m: UInt32 = 0
            for b in best { guard let b else { return UInt32.max }; m = max(m, b.cost) }
            return m
        }
        var stopAt = bound()
        let conditionals = graph.conditionals
        let moment = conditionals.isEmpty ? nil : conditionalMoment
        while let (u, key) = s.popMin() {
            if key >= stopAt { break }
            let du = s.label(u)
            for t in graph.turns(from: ArcID(u)) {
                let v = graph.turnTarget[t].index
                let w = metric.turnWeight[t]
                let e = extra(v)
                if w == Metric.infinite || e == Metric.infinite { continue }
                if let moment, conditionals.blocksTurn(t, at: moment.time, utcOffsetSeconds: moment.utcOffsetSeconds)
                    || (conditionals.blocksArc(v, at: moment.time, utcOffsetSeconds: moment.utcOffsetSeconds)
                        && !targetArcs.contains(graph.arcOriginal[v])) { continue }
                let nd = Metric.add(Metric.add(du, w), e)
                let original = graph.arcOriginal[v]
                for j in targetArcs.indices where targetArcs[j] == original {
                    let candidate = nd - targetExcess[j]
                    if best[j].map({ candidate < $0.cost }) ?? true {
                        best[j] = .init(cost: candidate, source: -1, arcs: [])
                        lastFrom[j] = u
                        lastArc[j] = ArcID(v)
                        stopAt = bound()
                    }
                }
                if s.isSettled(v) { continue }
                let p = potential.value(ArcID(v))
                guard p != CCHPotential.infinity else { continue }
                let k = Metric.add(nd, p)
                if k != UInt32.max { s.push(v, key: k, label: nd, parent: UInt32(u)) }
            }
        }
        LegSolution.unpack(&best, lastFrom: lastFrom, lastArc: lastArc, sourceOf: sourceOf, parents: s)
        return LegSolution(paths: best)
    }
}
