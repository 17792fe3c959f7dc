import Testing
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing
import GeoCore

/// PHAST / RPHAST sweeps, bucket many-to-many and the time-dependent one-to-all searches must
/// answer what plain Dijkstra answers, on random networks.
@Suite struct ReachOracleTests {
    static func graph(seed: UInt64, width: Int = 11, height: Int = 9) throws -> RoadGraph {
        let block = RandomNetwork.block(seed: seed, width: width, height: height)
        return try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
    }

    /// A metric with unique path costs (so that the measure of the chosen path is well defined):
    /// the fastest metric scaled, plus a random amount below the scale per turn.
    static func uniqueMetric(_ graph: RoadGraph, seed: UInt64) -> Metric {
        var rng = SplitMix64(seed: seed)
        let base = Metric.fastest(graph)
        let arc = base.arcWeight.map { $0 * 64 + UInt32(rng.next() % 64) }
        return Metric.withTurns(graph, unit: .weightedMilliseconds, arcWeight: arc) { t, _, _ in graph.turnDurationMs[t] * 64 + UInt32(rng.next() % 64) }
    }

    /// Lexicographic (metric, measure) labels by O(n²) Dijkstra from start arcs with given labels;
    /// backward relaxes turns in reverse (cost from an arc's end to the starts).
    static func reference(_ graph: RoadGraph, metric: Metric, measure: [UInt32], starts: [CCHOneToAll.Start], forward: Bool) -> [(UInt64, UInt64)?] {
        let n = graph.arcCount
        var label = [(UInt64, UInt64)?](repeating: nil, count: n)
        var done = [Bool](repeating: false, count: n)
        func improve(_ a: Int, _ l: (UInt64, UInt64)) { if label[a].map({ l < $0 }) ?? true { label[a] = l } }
        for s in starts { improve(s.arc.index, (UInt64(s.primary), UInt64(s.measure))) }
        while true {
            var u = -1
            for i in 0..<n where !done[i] { if let l = label[i], u < 0 || l < label[u]! { u = i } }
            guard u >= 0 else { break }
            done[u] = true
            let (p, m) = label[u]!
            if forward {
                for t in graph.turns(from: ArcID(u)) where metric.turnWeight[t] != Metric.infinite {
                    improve(graph.turnTarget[t].index, (p + UInt64(metric.turnWeight[t]), m + UInt64(measure[t])))
                }
            } else {
                for i in graph.turns(into: ArcID(u)) {
                    let t = Int(graph.turnReverseTurn[i])
                    guard metric.turnWeight[t] != Metric.infinite else { continue }
                    improve(graph.turnSource[t].index, (p + UInt64(metric.turnWeight[t]), m + UInt64(measure[t])))
                }
            }
        }
        return label
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func phastMatchesDijkstra(seed: UInt64) throws {
        let graph = try Self.graph(seed: seed)
        let metric = seed % 2 == 0 ? Metric.fastest(graph) : Self.uniqueMetric(graph, seed: seed)
        let structure = CCHStructure.make(for: graph)
        let cch = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
        var rng = SplitMix64(seed: seed &* 977)
        var compared = 0
        for kind in [ReachMeasure.length, .time, .fuel] {
            let weights = kind.weights(graph, arcMs: Array(graph.arcDurationMs))
            let measure = CCHMeasure(metric: cch, turnWeight: metric.turnWeight, turnMeasure: weights.turn)
            var sweep = CCHOneToAll(measure: measure)
            for q in 0..<8 {
                // Query 7 starts from many arcs at once: their chains overlap.
                let starts = (0..<(q == 7 ? 40 : 1 + Int(rng.next() % 2))).map { _ in
                    CCHOneToAll.Start(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), primary: UInt32(rng.next() % 5000), measure: UInt32(rng.next() % 5000))
                }
                let forward = q % 2 == 0
                // Every other query restricts the sweep to a random third of the arcs (RPHAST).
                let restricted = q % 4 >= 2
                let chosen = restricted ? (0..<graph.arcCount).filter { _ in rng.next() % 3 == 0 }.map { ArcID($0) } : nil
                sweep.select(chosen.map { $0 + starts.map(\.arc) })
                sweep.run(starts, forward: forward)
                let expected = Self.reference(graph, metric: metric, measure: weights.turn, starts: starts, forward: forward)
                let checked = chosen ?? (0..<graph.arcCount).map { ArcID($0) }
                for arc in checked {
                    let got = sweep.label(arc).map { (UInt64($0.primary), UInt64($0.measure)) }
                    #expect(got.map { [$0.0, $0.1] } == expected[arc.index].map { [$0.0, $0.1] },
                            "seed \(seed) \(kind) query \(q) arc \(arc.index) forward \(forward) restricted \(restricted)")
                    if got != nil { compared += 1 }
                }
            }
        }
        #expect(compared > 1000, "seed \(seed): only \(compared) labels compared")
    }

    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func bucketsMatchDijkstra(seed: UInt64) throws {
        let graph = try Self.graph(seed: seed)
        let metric = Self.uniqueMetric(graph, seed: seed)
        let cch = CCHMetric(structure: CCHStructure.make(for: graph), turnWeight: metric.turnWeight)
        let time = ReachMeasure.time.weights(graph, arcMs: Array(graph.arcDurationMs))
        let length = ReachMeasure.length.weights(graph, arcMs: Array(graph.arcDurationMs))
        let search = CCHManyToMany(graph: graph, metric: metric,
                                   time: CCHMeasure(metric: cch, turnWeight: metric.turnWeight, turnMeasure: time.turn),
                                   length: CCHMeasure(metric: cch, turnWeight: metric.turnWeight, turnMeasure: length.turn),
                                   timeWeights: time, lengthWeights: length)
        var rng = SplitMix64(seed: seed &* 31)
        func position() -> ArcPosition {
            var a = Int(rng.next() % UInt64(graph.arcCount))
            while !graph.arcFlags[a].contains(.largestComponent) { a = (a + 1) % graph.arcCount }
            return ArcPosition(arc: ArcID(a), fraction: Double(rng.next() % 101) / 100)
        }
        let sources = (0..<7).map { _ in [position()] }
        // Some targets on a source's own arc, behind or ahead of it.
        var targets = (0..<7).map { _ in [position()] }
        targets[0] = [ArcPosition(arc: sources[0][0].arc, fraction: sources[0][0].fraction / 2)]
        targets[1] = [ArcPosition(arc: sources[1][0].arc, fraction: min(1, sources[1][0].fraction + 0.2))]
        var dijkstra = DijkstraLegSearch(graph: graph, metric: metric)
        var found = 0
        for (w, threads) in [1, 2].enumerated() {
            let table = search.table(sources: sources, targets: targets, threads: threads)
            for (i, s) in sources.enumerated() {
                for (j, t) in targets.enumerated() {
                    let path = dijkstra.solve(LegProblem(sources: [.init(position: s[0], cost: 0)], targets: t)).paths[0]
                    #expect((path == nil) == (table[i][j] == nil), "seed \(seed) cell \(i),\(j) reachability")
                    guard let path, let cell = table[i][j] else { continue }
                    if w == 0 { found += 1 }
                    // Time and length along the path Dijkstra chose (unique costs: the same path).
                    func along(_ arc: [UInt32], _ turn: [UInt32]) -> Double {
                        let a = path.arcs
                        if a.count == 1 { return Double(arc[a[0].index]) * (t[0].fraction - s[0].fraction) }
                        var total = Double(arc[a[0].index]) * (1 - s[0].fraction)
                        for (x, y) in zip(a, a.dropFirst()) {
                            let turnIndex = graph.turns(from: x).first { graph.turnTarget[$0] == y }!
                            total += Double(turn[turnIndex])
                        }
                        return total - Double(arc[a[a.count - 1].index]) * (1 - t[0].fraction)
                    }
                    #expect(abs(Double(cell.timeMs) - along(time.arc, time.turn)) <= 2, "seed \(seed) cell \(i),\(j) time")
                    #expect(abs(Double(cell.lengthCm) - along(length.arc, length.turn)) <= 2, "seed \(seed) cell \(i),\(j) length")
                }
            }
        }
        #expect(found >= 25, "seed \(seed): only \(found) cells with a route")
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func timeDependentOneToAllMatchesReference(seed: UInt64) throws {
        let graph = try Self.graph(seed: seed, width: 8, height: 8)
        let now = 1_764_000_000.0 + Double(seed) * 7919
        let table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now)
        var search = TimeDependentOneToAll(graph: graph, table: table)
        var rows = TimeDependentManyToMany(graph: graph, table: table)
        var rng = SplitMix64(seed: seed &* 7)
        var compared = 0
        for q in 0..<6 {
            let source = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: Double(rng.next() % 100) / 100)
            let departure = now + Double(rng.next() % 86_400)
            let pieces = search.forward(from: [source], departure: departure, limitMs: UInt32.max / 4)
            let targets = (0..<graph.arcCount).map { ArcPosition(arc: ArcID($0), fraction: 1) }
            let reference = ReferenceTimeDependent.legCosts(graph: graph, table: table, departure: departure,
                                                            sources: [.init(position: source, cost: 0)], targets: targets)
            var ends = [UInt32?](repeating: nil, count: graph.arcCount)
            for p in pieces where p.from == 0 { let o = graph.arcOriginal[p.arc.index].index; ends[o] = min(ends[o] ?? .max, p.endMs) }
            for a in 0..<graph.arcCount where graph.arcOriginal[a].index == a && a != source.arc.index {
                #expect(ends[a] == reference[a], "seed \(seed) query \(q) arc \(a)")
                if reference[a] != nil { compared += 1 }
            }
            // Matrix rows: the same earliest arrivals at a few destinations (within rounding per arc).
            let destinations = (0..<5).map { _ in [ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: Double(rng.next() % 100) / 100)] }
            let row = rows.row(from: [source], departure: departure, to: destinations)
            let expected = ReferenceTimeDependent.legCosts(graph: graph, table: table, departure: departure,
                                                           sources: [.init(position: source, cost: 0)], targets: destinations.map { $0[0] })
            for j in destinations.indices {
                #expect((row[j] == nil) == (expected[j] == nil), "seed \(seed) query \(q) destination \(j) reachability")
                if let cell = row[j], let e = expected[j] { #expect(abs(cell.seconds * 1000 - Double(e)) < 30, "seed \(seed) query \(q) destination \(j)") }
            }
            // Backward: leaving each reached arc's start at its latest moment reaches the target on time.
            let target = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: Double(rng.next() % 100) / 100)
            let arrival = departure + 3600
            for piece in search.backward(to: [target], arrival: arrival, limitMs: 3_600_000) where piece.from == 0 && piece.to == 1 && graph.arcOriginal[piece.arc.index] != graph.arcOriginal[target.arc.index] {
                let leave = arrival - Double(piece.startMs) / 1000
                let forward = ReferenceTimeDependent.legCosts(graph: graph, table: table, departure: leave,
                                                              sources: [.init(position: ArcPosition(arc: piece.arc, fraction: 0), cost: 0)], targets: [target])
                guard let ms = forward[0] else { Issue.record("seed \(seed): arc \(piece.arc.index) cannot reach the target"); continue }
                #expect(abs(Double(ms) - Double(piece.startMs)) < 30, "seed \(seed) arc \(piece.arc.index): \(ms) vs \(piece.startMs)")
                compared += 1
            }
        }
        #expect(compared > 300, "seed \(seed): only \(compared) compared")
    }
}
