import Testing
import GeoCore
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing

/// The CCH must answer exactly what Dijkstra answers, on random networks, after random
/// re-customizations, and on the real Helsinki graphs.
@Suite struct CCHOracleTests {
    /// Queries asked, targets reached and paths unpacked and checked, so a test can require that
    /// its comparisons happened (a comparison of two empty answers proves nothing).
    struct Tally {
        var queries = 0, routed = 0, unpacked = 0
        static func += (a: inout Tally, b: Tally) { a.queries += b.queries; a.routed += b.routed; a.unpacked += b.unpacked }
        func expectCompared(routedShare: Int, unpackedShare: Int, _ what: String) {
            #expect(routed * routedShare >= queries, "\(what): only \(routed) of \(queries) queries found a route")
            #expect(unpacked * unpackedShare >= queries, "\(what): only \(unpacked) of \(queries) paths unpacked and checked")
        }
    }

    @discardableResult
    static func compare(_ graph: RoadGraph, metric: Metric, cch: CCHMetric, seed: UInt64, queries: Int) -> Tally {
        var dijkstra = DijkstraLegSearch(graph: graph, metric: metric)
        var fast = CCHLegSearch(graph: graph, metric: metric, cch: cch)
        var distanceOnly = CCHLegSearch(graph: graph, metric: metric, cch: cch)
        distanceOnly.unpacksPaths = false
        var rng = SplitMix64(seed: seed)
        var routed = 0, unpacked = 0
        for q in 0..<queries {
            var sources: [LegProblem.Source] = []
            for _ in 0..<(1 + Int(rng.next() % 2)) {
                sources.append(.init(position: ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))),
                                                          fraction: Double(rng.next() % 101) / 100),
                                     cost: UInt32(rng.next() % 1000)))
            }
            var targets: [ArcPosition] = []
            for _ in 0..<(1 + Int(rng.next() % 2)) {
                // Every fourth target lies on a source's own arc: the route may have to leave it
                // and come back (the search then starts one turn before the target).
                let arc = q % 4 == 0 ? sources[0].position.arc : ArcID(Int(rng.next() % UInt64(graph.arcCount)))
                targets.append(ArcPosition(arc: arc, fraction: Double(rng.next() % 101) / 100))
            }
            let problem = LegProblem(sources: sources, targets: targets)
            let expected = dijkstra.solve(problem).paths
            let got = fast.solve(problem).paths
            #expect(expected.map { $0?.cost } == got.map { $0?.cost }, "seed \(seed) \(graph.mode) query \(q)")
            routed += expected.compactMap { $0 }.count
            #expect(distanceOnly.solve(problem).paths.map { $0?.cost } == got.map { $0?.cost }, "distance only, seed \(seed) query \(q)")
            // The unpacked path is connected and costs what it claims.
            for (j, path) in got.enumerated() {
                guard let path, path.arcs.count > 1 else { continue }
                unpacked += 1
                var cost = UInt64(sources[path.source].cost) + UInt64(metric.remaining(sources[path.source].position))
                #expect(graph.arcOriginal[path.arcs[0].index] == graph.arcOriginal[sources[path.source].position.arc.index])
                for (a, b) in zip(path.arcs, path.arcs.dropFirst()) {
                    guard let t = graph.turns(from: a).first(where: { graph.turnTarget[$0] == b }) else {
                        Issue.record("seed \(seed) query \(q): \(a)→\(b) is not a turn")
                        return Tally(queries: queries, routed: routed, unpacked: unpacked)
                    }
                    cost += UInt64(metric.turnWeight[t])
                }
                cost -= UInt64(metric.remaining(targets[j]))
                #expect(UInt32(cost) == path.cost, "seed \(seed) query \(q) path cost")
            }
        }
        return Tally(queries: queries, routed: routed, unpacked: unpacked)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomNetworks(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 12, height: 10)
        for builder in try Extractor(profiles: [.car, .pedestrian]).run(source: InMemoryOSMSource([block])) {
            let graph = builder.build()
            let metric = Metric.fastest(graph)
            let structure = CCHStructure.make(for: graph)
            let cch = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
            var tally = Self.compare(graph, metric: metric, cch: cch, seed: seed, queries: 60)
            // The two-thread customization must give the same hierarchy weights.
            let parallel = CCHMetric(structure: structure, turnWeight: metric.turnWeight, parallelAbove: 0)
            tally += Self.compare(graph, metric: metric, cch: parallel, seed: seed &+ 100, queries: 30)
            tally.expectCompared(routedShare: 2, unpackedShare: 4, "seed \(seed) \(graph.mode)")
        }
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func afterRandomCustomizations(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 10, height: 10)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        let structure = CCHStructure.make(for: graph)
        let base = Metric.fastest(graph)
        let cch = CCHMetric(structure: structure, turnWeight: base.turnWeight, parallelAbove: seed % 2 == 0 ? 0 : 20_000)
        var rng = SplitMix64(seed: seed)
        var tally = Tally()
        for round in 0..<4 {
            // Random traffic: scale arc weights by 1–5×, close a few arcs entirely.
            var arcWeight = base.arcWeight
            for a in arcWeight.indices {
                arcWeight[a] = rng.next() % 30 == 0 ? Metric.infinite : arcWeight[a] * UInt32(1 + rng.next() % 5)
            }
            let metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in graph.turnDurationMs[t] }
            cch.customize(turnWeight: metric.turnWeight)
            tally += Self.compare(graph, metric: metric, cch: cch, seed: seed &+ UInt64(round), queries: 40)
        }
        tally.expectCompared(routedShare: 5, unpackedShare: 10, "seed \(seed)")
    }

    /// Partial customization after changing a few arcs (slower, faster, closed, reopened) must
    /// leave exactly the weights a full customization gives, and answer queries as Dijkstra does.
    @Test(arguments: [31, 32, 33, 34] as [UInt64])
    func partialCustomizationEqualsFull(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 12, height: 12)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        let structure = CCHStructure.make(for: graph)
        var arcWeight = Metric.fastest(graph).arcWeight
        var metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in graph.turnDurationMs[t] }
        let partial = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
        var rng = SplitMix64(seed: seed)
        var recomputedTotal = 0
        var tally = Tally()
        for round in 0..<12 {
            // A few arcs (one round in four: a third of them) change; their entering turns change.
            let share = round % 4 == 3 ? 3 : 60
            var changedArcs = Set<Int>()
            for a in arcWeight.indices where rng.next() % UInt64(share) == 0 {
                rng.perturb(&arcWeight[a])
                changedArcs.insert(a)
            }
            metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in graph.turnDurationMs[t] }
            let changedTurns = (0..<graph.turnCount).filter { changedArcs.contains(graph.turnTarget[$0].index) }
            recomputedTotal += partial.customize(changed: changedTurns, turnWeight: metric.turnWeight, graph: graph)
            let full = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
            var differences = 0
            for k in 0..<structure.arcCount where partial.upWeight(k) != full.upWeight(k) || partial.downWeight(k) != full.downWeight(k) {
                differences += 1
            }
            #expect(differences == 0, "seed \(seed) round \(round): \(differences) of \(structure.arcCount) arcs differ")
            tally += Self.compare(graph, metric: metric, cch: partial, seed: seed &+ UInt64(round), queries: 15)
        }
        #expect(recomputedTotal > 0)
        tally.expectCompared(routedShare: 5, unpackedShare: 10, "seed \(seed)")
    }

    /// A hierarchy brought up to date from its predecessor's (partially after a few changed
    /// turns, fully after many, itself after none) answers as a fresh customization does.
    @Test(arguments: [41, 42] as [UInt64])
    func updatingHierarchyEqualsFull(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 12, height: 12)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        let structure = CCHStructure.make(for: graph)
        var arcWeight = Metric.fastest(graph).arcWeight
        var metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in graph.turnDurationMs[t] }
        var hierarchy = CustomizedHierarchy(structure: structure, turnWeight: metric.turnWeight)
        var rng = SplitMix64(seed: seed)
        var kinds = (partial: 0, full: 0, same: 0)
        var tally = Tally()
        for round in 0..<9 {
            let before = metric.turnWeight
            // Rounds of one changed arc, of a third of them, and of none.
            let picked: Set<Int> = round % 3 == 0 ? [Int(rng.next() % UInt64(graph.arcCount))]
                : round % 3 == 1 ? Set(arcWeight.indices.filter { _ in rng.next() % 3 == 0 }) : []
            for a in picked { arcWeight[a] = rng.next() % 5 == 0 ? Metric.infinite : 1 + UInt32(rng.next() % 20_000) }
            metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in graph.turnDurationMs[t] }
            let previous = hierarchy
            hierarchy = .updating(previous, from: before, to: metric.turnWeight, graph: graph)
            if hierarchy === previous { kinds.same += 1 } else if picked.count > 1 { kinds.full += 1 } else { kinds.partial += 1 }
            let full = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
            let differences = (0..<structure.arcCount).filter {
                hierarchy.cch.upWeight($0) != full.upWeight($0) || hierarchy.cch.downWeight($0) != full.downWeight($0)
            }.count
            #expect(differences == 0, "seed \(seed) round \(round): \(differences) of \(structure.arcCount) arcs differ")
            tally += Self.compare(graph, metric: metric, cch: hierarchy.cch, seed: seed &+ UInt64(round), queries: 10)
        }
        tally.expectCompared(routedShare: 5, unpackedShare: 10, "seed \(seed)")
        #expect(kinds.partial >= 2 && kinds.full >= 2 && kinds.same >= 2, "\(kinds)")
    }

    @Test(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh"), arguments: [TravelMode.car, .bicycle])
    func helsinki(mode: TravelMode) throws {
        let reader = try PBFReader(path: Fixtures.helsinki)
        let graph = try #require(try Extractor(profiles: [Profile.profile(for: mode)]).run(source: reader).first).build()
        let metric = Metric.fastest(graph)
        let cch = CCHMetric(structure: CCHStructure.make(for: graph), turnWeight: metric.turnWeight, parallelAbove: 0)
        Self.compare(graph, metric: metric, cch: cch, seed: 99, queries: 150).expectCompared(routedShare: 2, unpackedShare: 2, "Helsinki \(mode)")
    }
}

extension SplitMix64 {
    /// Changes an arc weight as a live update may: closes the arc, makes it three times faster,
    /// or up to four times slower (reopening a closed one).
    mutating func perturb(_ weight: inout UInt32) {
        switch next() % 4 {
        case 0: weight = Metric.infinite
        case 1: weight = max(1, weight / 3)
        default: weight = (weight == Metric.infinite ? 5_000 : weight) * UInt32(1 + next() % 4)
        }
    }
}
