public import RoadNetwork

/// Reusable memory for CCH queries (one per thread).
///
/// The tentative distances stay at `CCHScratch.unreached` between queries: a query sets only
/// the nodes on its elimination-tree chains and resets exactly those at the end, so the inner
/// loop needs no "seen in this query" stamp (measured on Porto: p50 39 → 26 µs).
public final class CCHScratch: @unchecked Sendable {
    let n: Int
    let forward: UnsafeMutablePointer<UInt32>
    let backward: UnsafeMutablePointer<UInt32>
    /// The lower node a node was last improved from, or `noNode` at a start node (the backward
    /// search then keeps the entering turn in `backwardTurn`).
    let forwardFrom: UnsafeMutablePointer<UInt32>, backwardFrom: UnsafeMutablePointer<UInt32>
    let backwardTurn: UnsafeMutablePointer<UInt32>
    /// Generation in which a node was put on the current chain list (dedupes chain walks).
    let listed: UnsafeMutablePointer<UInt32>
    var listGeneration: UInt32 = 0
    /// The current query's chain nodes in rank order (at most every node, so never full).
    let forwardNodes: UnsafeMutablePointer<Int32>, backwardNodes: UnsafeMutablePointer<Int32>
    var forwardCount = 0, backwardCount = 0
    static let noNode = UInt32.max
    /// Larger than any route's cost and small enough that two of them add without overflow, so
    /// relaxing needs no infinity test: `d + min(w, unreached)` never beats a real distance.
    static let unreached: UInt32 = 0x7FFF_FFFF

    public init(nodeCount: Int) {
        n = max(1, nodeCount)
        forward = .allocate(capacity: n); backward = .allocate(capacity: n)
        forward.initialize(repeating: Self.unreached, count: n)
        backward.initialize(repeating: Self.unreached, count: n)
        forwardFrom = .allocate(capacity: n); backwardFrom = .allocate(capacity: n)
        backwardTurn = .allocate(capacity: n)
        listed = .allocate(capacity: n)
        listed.initialize(repeating: 0, count: n)
        forwardNodes = .allocate(capacity: n)
        backwardNodes = .allocate(capacity: n)
    }

    deinit {
        forward.deallocate(); backward.deallocate(); forwardFrom.deallocate()
        backwardFrom.deallocate(); backwardTurn.deallocate(); listed.deallocate()
        forwardNodes.deallocate(); backwardNodes.deallocate()
    }

    func nextList() -> UInt32 {
        listGeneration &+= 1
        if listGeneration == 0 { listed.update(repeating: 0, count: n); listGeneration = 1 }
        return listGeneration
    }
}

/// Shortest paths with the customized CCH: an upward search from the sources and one from the
/// targets, each walking only the elimination-tree ancestors of its start nodes (no priority
/// queue), meeting at the best common node; shortcuts are unpacked through their middle nodes.
///
/// With one target both chains are walked together in rank order and a node whose distance
/// already reaches the best meeting cost is not relaxed (the pruning of Dibbelt, Strasser and
/// Wagner's elimination-tree query); on Porto this halves the p99. With several targets the
/// forward chain is relaxed once in full and each backward chain is pruned against it.
///
/// Targets are approached like the Dijkstra search does: the backward search starts at the arcs
/// that turn *into* the target arc, so a route that must loop back to the arc it started on
/// comes out right.
public struct CCHLegSearch: LegSearch {
    public let graph: RoadGraph
    public let metric: Metric
    public let cch: CCHMetric
    let scratch: CCHScratch
    /// When false, only costs are computed (paths come back empty): for distance tables and
    /// benchmarks of the search itself.
    public var unpacksPaths = true

    public init(graph: RoadGraph, metric: Metric, cch: CCHMetric, scratch: CCHScratch? = nil) {
        self.graph = graph
        self.metric = metric
        self.cch = cch
        self.scratch = scratch ?? CCHScratch(nodeCount: cch.structure.nodeCount)
    }

    public mutating func solve(_ problem: LegProblem) -> LegSolution {
        var best = problem.sameArcPaths(metric, originals: graph.arcOriginal)
        let s = scratch, st = cch.structure
        let unreached = CCHScratch.unreached

        // Forward start nodes with their costs; `sourceOfNode` is tiny (one or two sources).
        var sourceOfNode: [(node: Int, source: Int)] = []
        var forwardStarts: [Int] = []
        for (i, source) in problem.sources.enumerated() {
            let v = Int(st.rank[source.position.arc.index])
            let key = min(Metric.add(source.cost, metric.remaining(source.position)), unreached - 1)
            if key < s.forward[v] {
                if s.forward[v] == unreached { forwardStarts.append(v) }
                s.forward[v] = key
                s.forwardFrom[v] = CCHScratch.noNode
                sourceOfNode.removeAll { $0.node == v }
                sourceOfNode.append((v, i))
            }
        }
        forwardStarts.sort()
        let single = problem.targets.count == 1
        // One source node and one target node (the usual case): walk both chains on the fly.
        // Otherwise list the chains first.
        var forwardListed = false
        func listForward() {
            s.forwardCount = collectAncestors(forwardStarts, into: s.forwardNodes)
            forwardListed = true
        }
        if !single {
            listForward()
            relaxAll(UnsafeBufferPointer(start: s.forwardNodes, count: s.forwardCount), values: s.forward, from: s.forwardFrom, weights: cch.up)
        }

        for (j, target) in problem.targets.enumerated() {
            let (backwardStarts, offset) = seedBackward(target, sources: problem.sources)
            let bound = min(unreached, (best[j]?.cost ?? unreached) &+ offset)
            let chains = single && forwardStarts.count == 1 && backwardStarts.count == 1
            let total: UInt32, meeting: Int
            if chains {
                (total, meeting) = meetChains(forwardStarts[0], backwardStarts[0], bound: bound)
            } else {
                if !forwardListed { listForward() }
                s.backwardCount = collectAncestors(backwardStarts, into: s.backwardNodes)
                (total, meeting) = meet(bound: bound, forwardRelaxed: !single)
            }
            if meeting >= 0 {
                let cost = total &- offset
                if unpacksPaths {
                    let (arcs, start) = unpackPath(meeting: meeting)
                    let source = sourceOfNode.first { $0.node == start }?.source ?? 0
                    best[j] = .init(cost: cost, source: source, arcs: arcs)
                } else {
                    best[j] = .init(cost: cost, source: 0, arcs: [])
                }
            }
            if chains {
                resetChain(from: backwardStarts[0], values: s.backward)
            } else {
                for i in 0..<s.backwardCount { s.backward[Int(s.backwardNodes[i])] = unreached }
            }
        }
        if forwardListed {
            for i in 0..<s.forwardCount { s.forward[Int(s.forwardNodes[i])] = unreached }
        } else {
            for start in forwardStarts { resetChain(from: start, values: s.forward) }
        }
        return LegSolution(paths: best)
    }

    /// Seeds the backward search for `target`; returns the start nodes in rank order and the
    /// amount to subtract from a meeting cost.
    private func seedBackward(_ target: ArcPosition, sources: [LegProblem.Source]) -> (starts: [Int], offset: UInt32) {
        let original = graph.arcOriginal[target.arc.index]
        let loopsBack = sources.contains { graph.arcOriginal[$0.position.arc.index] == original }
        let offset = loopsBack ? 0 : metric.remaining(target)
        var starts: [Int] = []
        seedBackward(target, loopsBack: loopsBack, raise: offset, into: &starts)
        starts.sort()
        return (starts, offset)
    }

    /// Seeds the backward search for `target` at keys raised by `raise` (at least the part of the
    /// target arc beyond the point when not `loopsBack`; the caller subtracts it from meeting
    /// costs), appending the nodes it reaches first to `starts`.
    ///
    /// Usually the target arc itself (and its restriction copies) is the start, at `raise` less the
    /// part of the arc beyond the target point: one chain to walk. When a source lies on the same
    /// road arc (`loopsBack`), the route may have to leave it and come back, so the search starts
    /// one turn earlier, at the arcs turning into the target.
    func seedBackward(_ target: ArcPosition, loopsBack: Bool, raise: UInt32, into starts: inout [Int]) {
        let s = scratch, st = cch.structure
        let excess = metric.remaining(target)
        let original = graph.arcOriginal[target.arc.index]
        let copies = [original] + (graph.restrictionCopies.isEmpty ? [] : graph.restrictionCopies[original] ?? [])
        func seed(_ p: Int, _ key: UInt32, turn: UInt32) {
            guard key < s.backward[p] else { return }
            if s.backward[p] == CCHScratch.unreached { starts.append(p) }
            s.backward[p] = key
            s.backwardFrom[p] = CCHScratch.noNode
            s.backwardTurn[p] = turn
        }
        guard loopsBack else {
            for copy in copies { seed(Int(st.rank[copy.index]), raise - excess, turn: CCHScratch.noNode) }
            return
        }
        for copy in copies {
            for i in graph.turns(into: copy) {
                let t = Int(graph.turnReverseTurn[i])
                let w = metric.turnWeight[t]
                if w == Metric.infinite { continue }
                seed(Int(st.rank[graph.turnSource[t].index]), min(raise &+ w &- excess, CCHScratch.unreached - 1), turn: UInt32(t))
            }
        }
    }

    /// Walks the forward and backward chains together in rank order; returns the best meeting
    /// cost below `bound` and its node (-1 when none beats it).
    private func meet(bound: UInt32, forwardRelaxed: Bool) -> (UInt32, Int) {
        let s = scratch, st = cch.structure
        let firstOut = st.upFirstOut, head = st.upHead
        let up = cch.up, down = cch.down
        let f = s.forward, b = s.backward
        // Predecessors are recorded only when a path is wanted: the stores cost a quarter of a
        // distance query.
        let fFrom = unpacksPaths ? s.forwardFrom : nil, bFrom = unpacksPaths ? s.backwardFrom : nil
        var best = bound, meeting = -1
        let fNodes = s.forwardNodes, bNodes = s.backwardNodes
        let fCount = s.forwardCount, bCount = s.backwardCount
        var i = 0, j = 0
        while i < fCount || j < bCount {
            let x = i < fCount ? Int(fNodes[i]) : Int.max
            let y = j < bCount ? Int(bNodes[j]) : Int.max
            let v = min(x, y)
            if x == y {
                let total = f[v] &+ b[v]
                if total < best { best = total; meeting = v }
            }
            if x == v {
                i += 1
                let d = f[v]
                if !forwardRelaxed && d < best {
                    Self.relax(v, d, Int(firstOut[v])..<Int(firstOut[v + 1]), head: head, weights: up, values: f, from: fFrom)
                }
            }
            if y == v {
                j += 1
                let d = b[v]
                if d < best {
                    Self.relax(v, d, Int(firstOut[v])..<Int(firstOut[v + 1]), head: head, weights: down, values: b, from: bFrom)
                }
            }
        }
        return (best, meeting)
    }

    /// `meet` for one start node on each side, walking the two elimination-tree chains as it
    /// goes (no lists: the chain walk overlaps the relaxing).
    private func meetChains(_ source: Int, _ target: Int, bound: UInt32) -> (UInt32, Int) {
        let s = scratch, st = cch.structure
        let firstOut = st.upFirstOut, head = st.upHead
        let up = cch.up, down = cch.down
        let f = s.forward, b = s.backward
        // Predecessors are recorded only when a path is wanted: the stores cost a quarter of a
        // distance query.
        let fFrom = unpacksPaths ? s.forwardFrom : nil, bFrom = unpacksPaths ? s.backwardFrom : nil
        let n = st.nodeCount
        var best = bound, meeting = -1
        var x = source, y = target
        while x < n || y < n {
            let v = min(x, y)
            let begin = Int(firstOut[v]), end = Int(firstOut[v + 1])
            if x == y {
                let total = f[v] &+ b[v]
                if total < best { best = total; meeting = v }
            }
            if x == v {
                let d = f[v]
                if d < best {
                    Self.relax(v, d, begin..<end, head: head, weights: up, values: f, from: fFrom)
                }
            }
            if y == v {
                let d = b[v]
                if d < best {
                    Self.relax(v, d, begin..<end, head: head, weights: down, values: b, from: bFrom)
                }
            }
            let parent = begin < end ? Int(head[begin]) : n
            if x == v { x = parent }
            if y == v { y = parent }
        }
        return (best, meeting)
    }

    /// Sets a chain's nodes back to unreached.
    private func resetChain(from start: Int, values: UnsafeMutablePointer<UInt32>) {
        let st = cch.structure
        var v = start
        while true {
            values[v] = CCHScratch.unreached
            guard let p = st.parent(v) else { return }
            v = p
        }
    }

    /// Relaxes the CCH arcs `arcs` of node `v` at distance `d`.
    @inline(__always)
    private static func relax(_ v: Int, _ d: UInt32, _ arcs: Range<Int>, head: UnsafeBufferPointer<UInt32>,
                              weights: UnsafeMutableBufferPointer<UInt32>, values: UnsafeMutablePointer<UInt32>,
                              from: UnsafeMutablePointer<UInt32>?) {
        if let from {
            for k in arcs {
                let h = Int(head[k])
                let nd = d &+ min(weights[k], CCHScratch.unreached)
                if nd < values[h] { values[h] = nd; from[h] = UInt32(v) }
            }
        } else {
            for k in arcs {
                let h = Int(head[k])
                let nd = d &+ min(weights[k], CCHScratch.unreached)
                if nd < values[h] { values[h] = nd }
            }
        }
    }

    /// Relaxes every node of a chain list in rank order without pruning.
    func relaxAll(_ nodes: UnsafeBufferPointer<Int32>, values: UnsafeMutablePointer<UInt32>, from: UnsafeMutablePointer<UInt32>,
                          weights: UnsafeMutableBufferPointer<UInt32>) {
        let st = cch.structure
        let firstOut = st.upFirstOut, head = st.upHead
        for v32 in nodes {
            let v = Int(v32)
            let d = values[v]
            if d >= CCHScratch.unreached { continue }
            for k in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                let h = Int(head[k])
                let nd = d &+ min(weights[k], CCHScratch.unreached)
                if nd < values[h] { values[h] = nd; from[h] = UInt32(v) }
            }
        }
    }

    /// All elimination-tree ancestors of `starts` (sorted ranks), in increasing rank; returns
    /// how many were written to `list`.
    func collectAncestors(_ starts: [Int], into list: UnsafeMutablePointer<Int32>) -> Int {
        let st = cch.structure
        let firstOut = st.upFirstOut, head = st.upHead
        var count = 0
        if starts.count == 1 {
            var v = starts[0]
            while true {
                list[count] = Int32(v); count += 1
                let first = Int(firstOut[v])
                guard first < Int(firstOut[v + 1]) else { break }
                v = Int(head[first])
            }
            return count
        }
        // Walk each chain until it meets a node already listed, then sort (chains are short:
        // the tree depth).
        let mark = scratch.nextList()
        let listed = scratch.listed
        for start in starts {
            var v = start
            while listed[v] != mark {
                listed[v] = mark
                list[count] = Int32(v); count += 1
                let first = Int(firstOut[v])
                guard first < Int(firstOut[v + 1]) else { break }
                v = Int(head[first])
            }
        }
        var sorted = UnsafeMutableBufferPointer(start: list, count: count)
        sorted.sort()
        return count
    }

    /// The turn-graph arcs from a source through `meeting` to the target arc.
    func unpackPath(meeting: Int) -> ([ArcID], Int) {
        let s = scratch, st = cch.structure
        // Up from the source to the meeting node, collected top-down then reversed.
        var upChain: [(arc: Int, from: Int, to: Int)] = []
        var v = meeting
        while s.forwardFrom[v] != CCHScratch.noNode {
            let from = Int(s.forwardFrom[v])
            upChain.append((st.arc(from: from, to: v)!, from, v))
            v = from
        }
        let source = v
        var ranks: [UInt32] = [UInt32(source)]
        for step in upChain.reversed() { cch.unpack(arc: step.arc, lower: step.from, higher: step.to, upward: true, into: &ranks) }
        // Down from the meeting node to a backward start node, then the turn into the target.
        v = meeting
        while s.backwardFrom[v] != CCHScratch.noNode {
            let lower = Int(s.backwardFrom[v])
            cch.unpack(arc: st.arc(from: lower, to: v)!, lower: lower, higher: v, upward: false, into: &ranks)
            v = lower
        }
        var arcs = ranks.map { st.order[Int($0)] }
        // Started one turn before the target: the turn's arc is the last one.
        if s.backwardTurn[v] != CCHScratch.noNode { arcs.append(graph.turnTarget[Int(s.backwardTurn[v])]) }
        return (arcs, source)
    }
}
