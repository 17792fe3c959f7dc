public import RoadNetwork
import Dispatch

/// Many-to-many costs on a customized hierarchy with buckets (Knopp, Sanders, Schultes, Schulz,
/// Wagner): one upward search from every target leaves its labels in buckets at the nodes it
/// reaches; one upward search from every source then meets them there. Searches walk only
/// elimination-tree ancestors (no priority queue), so the work per cell is the number of common
/// ancestors of its two ends.
///
/// Labels are (metric, time, length) with the metric deciding and time breaking ties, so each
/// cell reports the travel time and length of the route the metric chooses.
public struct CCHManyToMany: Sendable {
    public let metric: Metric
    public let time: CCHMeasure
    public let length: CCHMeasure
    /// Per-arc time and length (driving the arc whole), for the partial arcs at both ends.
    let arcTime: [UInt32], arcLength: [UInt32]
    /// Turn time and length (turn plus target arc), for seeding targets one turn early.
    let turnTime: [UInt32], turnLength: [UInt32]
    let graph: RoadGraph

    public init(graph: RoadGraph, metric: Metric, time: CCHMeasure, length: CCHMeasure,
                timeWeights: (arc: [UInt32], turn: [UInt32]), lengthWeights: (arc: [UInt32], turn: [UInt32])) {
        precondition(time.metric === length.metric)
        self.graph = graph
        self.metric = metric
        self.time = time
        self.length = length
        arcTime = timeWeights.arc
        turnTime = timeWeights.turn
        arcLength = lengthWeights.arc
        turnLength = lengthWeights.turn
    }

    /// One cell: milliseconds and centimetres of the chosen route, or nil when none exists.
    public struct Cell: Sendable, Equatable {
        public var timeMs: UInt32
        public var lengthCm: UInt32
    }

    struct Label { var p: UInt32; var t: UInt32; var d: UInt32 }
    struct Seed { var node: Int; var label: Label }
    struct Entry { var target: Int32; var label: Label }

    @inline(__always)
    static func better(_ a: Label, _ b: Label) -> Bool { a.p < b.p || (a.p == b.p && a.t < b.t) }

    /// Costs from every source to every target (`[source][target]`); each endpoint is the arc
    /// positions a point lies on (both directions of its road).
    public func table(sources: [[ArcPosition]], targets: [[ArcPosition]], threads: Int = 1) -> [[Cell?]] {
        let structure = time.metric.structure
        // Targets: upward searches into buckets.
        var entries: [(node: Int32, entry: Entry)] = []
        let backward = ChainSearch(nodeCount: structure.nodeCount)
        for (j, positions) in targets.enumerated() {
            let labels = backward.run(targetSeeds(positions), structure: structure, p: time.metric.down, t: time.down, d: length.down)
            for (node, label) in labels { entries.append((Int32(node), Entry(target: Int32(j), label: label))) }
        }
        let n = structure.nodeCount
        var first = [Int32](repeating: 0, count: n + 1)
        for e in entries { first[Int(e.node) + 1] += 1 }
        for v in 0..<n { first[v + 1] += first[v] }
        var fill = first
        var buckets = [Entry](repeating: Entry(target: 0, label: Label(p: 0, t: 0, d: 0)), count: entries.count)
        for e in entries {
            buckets[Int(fill[Int(e.node)])] = e.entry
            fill[Int(e.node)] += 1
        }
        entries = []
        // Sources: upward searches that scan the buckets; split over threads by source.
        var rows = [[Cell?]](repeating: [], count: sources.count)
        let workers = max(1, min(threads, sources.count))
        let chunks = (0..<workers).map { w in (sources.count * w / workers)..<(sources.count * (w + 1) / workers) }
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<[[Cell?]]>.allocate(capacity: workers)
        results.initialize(repeating: [])
        defer { results.deinitialize(); results.deallocate() }
        let me = self
        let bucketStarts = first, bucketEntries = buckets
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let search = ChainSearch(nodeCount: n)
            var out: [[Cell?]] = []
            for i in chunks[w] {
                var best = [Label](repeating: Label(p: UInt32.max, t: UInt32.max, d: UInt32.max), count: targets.count)
                let labels = search.run(me.sourceSeeds(sources[i]), structure: structure, p: me.time.metric.up, t: me.time.up, d: me.length.up)
                bucketEntries.withUnsafeBufferPointer { b in
                    for (node, f) in labels {
                        for k in Int(bucketStarts[node])..<Int(bucketStarts[node + 1]) {
                            let e = b[k]
                            let c = Label(p: f.p &+ e.label.p, t: f.t &+ e.label.t, d: f.d &+ e.label.d)
                            if Self.better(c, best[Int(e.target)]) { best[Int(e.target)] = c }
                        }
                    }
                }
                // Same-arc trips: the target ahead on the source's own road.
                for (j, positions) in targets.enumerated() {
                    for s in sources[i] {
                        for q in positions where me.graph.arcOriginal[s.arc.index] == me.graph.arcOriginal[q.arc.index] && s.fraction <= q.fraction {
                            let share = q.fraction - s.fraction
                            let w = me.metric.arcWeight[q.arc.index]
                            guard w != Metric.infinite else { continue }
                            let c = Label(p: UInt32((Double(w) * share).rounded()), t: UInt32((Double(me.arcTime[q.arc.index]) * share).rounded()),
                                          d: UInt32((Double(me.arcLength[q.arc.index]) * share).rounded()))
                            if Self.better(c, best[j]) { best[j] = c }
                        }
                    }
                }
                out.append(best.indices.map { j in
                    let c = best[j]
                    return c.p < CCHScratch.unreached && me.admits(c.p, at: targets[j]) ? Cell(timeMs: c.t, lengthCm: c.d) : nil
                })
            }
            results[w] = out
        }
        var i = 0
        for part in results { for row in part { rows[i] = row; i += 1 } }
        return rows
    }

    /// Whether the cell's route, of metric cost `p`, is one `RestrictedPassage` admits: a route
    /// that would pass through a restricted area has no cell, as it has no route.
    func admits(_ p: UInt32, at target: [ArcPosition]) -> Bool {
        guard graph.hasRestrictedAccess else { return true }
        return RestrictedPassage.admits(cost: p, endsRestricted: target.contains { Metric.restricted(graph, $0.arc) })
    }

    /// A source's start labels: the rest of its arc from each position.
    func sourceSeeds(_ positions: [ArcPosition]) -> [Seed] {
        let rank = time.metric.structure.rank
        return positions.compactMap { pos in
            let a = pos.arc.index
            guard metric.arcWeight[a] != Metric.infinite else { return nil }
            let rest = 1 - pos.fraction
            return Seed(node: Int(rank[a]), label: Label(p: metric.remaining(pos), t: UInt32((Double(arcTime[a]) * rest).rounded()),
                                                        d: UInt32((Double(arcLength[a]) * rest).rounded())))
        }
    }

    /// A target's start labels, one turn before its arc (so that a source on the same arc that
    /// must loop back is served too): the turn and the part of the arc up to the target point.
    func targetSeeds(_ positions: [ArcPosition]) -> [Seed] {
        let rank = time.metric.structure.rank
        var seeds: [Seed] = []
        for pos in positions {
            let original = graph.arcOriginal[pos.arc.index]
            let excess = metric.remaining(pos), rest = 1 - pos.fraction
            let excessTime = UInt32((Double(arcTime[pos.arc.index]) * rest).rounded())
            let excessLength = UInt32((Double(arcLength[pos.arc.index]) * rest).rounded())
            for copy in [original] + (graph.restrictionCopies[original] ?? []) {
                for i in graph.turns(into: copy) {
                    let t = Int(graph.turnReverseTurn[i])
                    let w = metric.turnWeight[t]
                    guard w != Metric.infinite, w >= excess else { continue }
                    let label = Label(p: w - excess, t: turnTime[t] &- min(turnTime[t], excessTime), d: turnLength[t] &- min(turnLength[t], excessLength))
                    seeds.append(Seed(node: Int(rank[graph.turnSource[t].index]), label: label))
                }
            }
        }
        return seeds
    }
}

/// Upward searches along elimination-tree ancestors with (metric, time, length) labels.
final class ChainSearch: @unchecked Sendable {
    let p: UnsafeMutablePointer<UInt32>, t: UnsafeMutablePointer<UInt32>, d: UnsafeMutablePointer<UInt32>
    let mark: UnsafeMutablePointer<UInt32>
    var generation: UInt32 = 0
    let n: Int

    init(nodeCount: Int) {
        n = max(1, nodeCount)
        p = .allocate(capacity: n); t = .allocate(capacity: n); d = .allocate(capacity: n)
        mark = .allocate(capacity: n)
        mark.initialize(repeating: 0, count: n)
    }

    deinit { p.deallocate(); t.deallocate(); d.deallocate(); mark.deallocate() }

    /// The reached ancestors of the seeds with their labels, in increasing rank.
    func run(_ seeds: [CCHManyToMany.Seed], structure st: CCHStructure, p wp: UnsafeMutableBufferPointer<UInt32>,
             t wt: UnsafeMutableBufferPointer<UInt32>, d wd: UnsafeMutableBufferPointer<UInt32>) -> [(Int, CCHManyToMany.Label)] {
        generation &+= 1
        if generation == 0 { mark.update(repeating: 0, count: n); generation = 1 }
        let unreached = CCHScratch.unreached
        let firstOut = st.upFirstOut, head = st.upHead
        var chain: [Int] = []
        for seed in seeds {
            var v = seed.node
            while mark[v] != generation {
                mark[v] = generation
                p[v] = unreached; t[v] = unreached; d[v] = unreached
                chain.append(v)
                let first = Int(firstOut[v])
                guard first < Int(firstOut[v + 1]) else { break }
                v = Int(head[first])
            }
        }
        for seed in seeds {
            let v = seed.node, l = seed.label
            if l.p < p[v] || (l.p == p[v] && l.t < t[v]) { p[v] = min(l.p, unreached - 1); t[v] = l.t; d[v] = l.d }
        }
        chain.sort()
        var out: [(Int, CCHManyToMany.Label)] = []
        out.reserveCapacity(chain.count)
        for v in chain {
            let dv = p[v]
            guard dv < unreached else { continue }
            let tv = t[v], lv = d[v]
            out.append((v, CCHManyToMany.Label(p: dv, t: tv, d: lv)))
            for k in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                let h = Int(head[k])
                let np = dv &+ min(wp[k], unreached)
                guard np <= p[h] else { continue }
                let nt = tv &+ min(wt[k], unreached)
                if np < p[h] || nt < t[h] { p[h] = np; t[h] = nt; d[h] = lv &+ min(wd[k], unreached) }
            }
        }
        return out
    }
}
