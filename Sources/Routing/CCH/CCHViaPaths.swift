public import RoadNetwork

/// A path through one via node, from one of the start positions to one of the end positions.
public struct ViaPath: Sendable {
    /// From the start's arc to the end's.
    public var arcs: [ArcID]
    /// Fractions on the first and last arc.
    public var start: Double, end: Double
}

extension CCHLegSearch {
    /// Via-node paths between positions, the candidates for alternative routes (Abraham, Delling,
    /// Goldberg and Werneck, "Alternative routes in road networks", on a hierarchy as OSRM's
    /// `alternative_path_routing` does): the upward search from the starts and the one from the
    /// ends are relaxed in full, without pruning, so every node both reach is a via node with the
    /// best cost up to it and down from it; the path through it is that cost.
    ///
    /// Via nodes costing at most `maxCost(best)` are unpacked cheapest first, up to `limit` paths.
    /// One lying on a path already unpacked, or on `covered` (the best route), is skipped: its path
    /// mostly repeats that one. A start and an end on the same road arc are joined the long way
    /// (leaving the arc and coming back), as `solve` does.
    public func viaPaths(from sources: [ArcPosition], to targets: [ArcPosition], covered: Set<ArcID>,
                         maxCost: (_ best: UInt32) -> UInt32, limit: Int) -> [ViaPath] {
        let s = scratch, st = cch.structure
        let unreached = CCHScratch.unreached
        var forwardStarts: [Int] = [], backwardStarts: [Int] = []
        defer {
            for i in 0..<s.forwardCount { s.forward[Int(s.forwardNodes[i])] = unreached }
            for i in 0..<s.backwardCount { s.backward[Int(s.backwardNodes[i])] = unreached }
        }
        s.forwardCount = 0; s.backwardCount = 0
        for source in sources {
            let v = Int(st.rank[source.arc.index])
            let key = metric.remaining(source)
            guard key < s.forward[v] && key < unreached else { continue }
            if s.forward[v] == unreached { forwardStarts.append(v) }
            s.forward[v] = key
            s.forwardFrom[v] = CCHScratch.noNode
        }
        // A meeting cost is to the end of a target arc; the part beyond the target point is
        // taken off. Seeds are raised by the largest such part (`offset`) so that none is negative.
        let excess = targets.map { metric.remaining($0) }
        let offset = excess.filter { $0 < unreached }.max() ?? 0
        for (target, beyond) in zip(targets, excess) where beyond < unreached {
            let original = graph.arcOriginal[target.arc.index]
            let loopsBack = sources.contains { graph.arcOriginal[$0.arc.index] == original }
            seedBackward(target, loopsBack: loopsBack, raise: offset, into: &backwardStarts)
        }
        forwardStarts.sort(); backwardStarts.sort()
        s.forwardCount = collectAncestors(forwardStarts, into: s.forwardNodes)
        s.backwardCount = collectAncestors(backwardStarts, into: s.backwardNodes)
        relaxAll(UnsafeBufferPointer(start: s.forwardNodes, count: s.forwardCount), values: s.forward, from: s.forwardFrom, weights: cch.up)
        relaxAll(UnsafeBufferPointer(start: s.backwardNodes, count: s.backwardCount), values: s.backward, from: s.backwardFrom, weights: cch.down)

        // Both search spaces are sorted by rank: their common nodes are the via nodes.
        var candidates: [(cost: UInt32, node: Int32)] = []
        var best = UInt32.max
        var i = 0, j = 0
        while i < s.forwardCount && j < s.backwardCount {
            let x = s.forwardNodes[i], y = s.backwardNodes[j]
            if x < y { i += 1; continue }
            if y < x { j += 1; continue }
            i += 1; j += 1
            let total = s.forward[Int(x)] &+ s.backward[Int(x)]
            guard total < unreached, total >= offset else { continue }
            candidates.append((total &- offset, x))
            best = min(best, total &- offset)
        }
        guard best != UInt32.max else { return [] }
        let bound = maxCost(best)
        candidates.removeAll { $0.cost > bound }
        candidates.sort { $0.cost < $1.cost }
        var seen = covered
        var paths: [ViaPath] = []
        for candidate in candidates where paths.count < limit {
            let via = graph.arcOriginal[st.order[Int(candidate.node)].index]
            if seen.contains(via) { continue }
            let (arcs, _) = unpackPath(meeting: Int(candidate.node))
            guard let first = arcs.first, let last = arcs.last,
                  let start = sources.first(where: { $0.arc == first })?.fraction,
                  let end = targets.first(where: { graph.arcOriginal[$0.arc.index] == graph.arcOriginal[last.index] })?.fraction
            else { continue }
            for a in arcs { seen.insert(graph.arcOriginal[a.index]) }
            paths.append(ViaPath(arcs: arcs, start: start, end: end))
        }
        return paths
    }
}
