import Testing
import GeoCore
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing

@Suite struct TravelTimeTableTests {
    static func graph(seed: UInt64) throws -> RoadGraph {
        let block = RandomNetwork.block(seed: seed, width: 8, height: 8)
        return try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func arcsAreFIFO(seed: UInt64) throws {
        let graph = try Self.graph(seed: seed)
        let now = 1_764_000_000.0
        let table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<2000 {
            let a = Int(rng.next() % UInt64(graph.arcCount))
            let t1 = now + Double(rng.next() % 200_000)
            let t2 = t1 + Double(rng.next() % 600)
            let a1 = t1 + table.traverseMs(a, entry: t1) / 1000, a2 = t2 + table.traverseMs(a, entry: t2) / 1000
            if a1.isFinite && a2.isFinite { #expect(a1 <= a2 + 1e-6, "seed \(seed): leaving later arrives earlier on arc \(a)") }
        }
    }

    @Test(arguments: [4, 5] as [UInt64])
    func latestEntryInvertsTraversal(seed: UInt64) throws {
        let graph = try Self.graph(seed: seed)
        let now = 1_764_000_000.0
        let table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<2000 {
            let a = Int(rng.next() % UInt64(graph.arcCount))
            let exit = now + Double(rng.next() % 200_000)
            guard let entry = table.latestEntry(a, exit: exit) else { continue }
            let back = entry + table.traverseMs(a, entry: entry) / 1000
            #expect(abs(back - exit) < 0.01, "seed \(seed) arc \(a)")
        }
    }

    @Test func slotsStartOnMondayInLocalTime() {
        // 2026-11-30 is a Monday; 08:00 in UTC+2 is 06:00 UTC.
        let graph = try! Self.graph(seed: 1)
        var table = TravelTimeTable.freeFlow(graph)
        table = TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: table.profileOfArc, profileFactors: table.profileFactors,
                                live: table.live,
                                referenceTime: 0, utcOffsetSeconds: 7200)
        let mondayEight = 1_796_018_400.0  // 2026-11-30T06:00:00Z, a Monday
        #expect(table.slot(at: mondayEight) == 8 * 4)
        #expect(table.slot(at: mondayEight + 86_400 * 6) == 6 * 96 + 32)
    }
}

@Suite struct TimeDependentOracleTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func departAtMatchesReference(seed: UInt64) throws {
        let graph = try TravelTimeTableTests.graph(seed: seed)
        let now = 1_764_000_000.0 + Double(seed) * 7919
        let table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now)
        let lower = ReferenceTimeDependent.lowerBound(graph, table)
        let cch = CCHMetric(structure: CCHStructure.make(for: graph), turnWeight: lower.turnWeights)
        let potential = CCHPotential(metric: cch, towardsTargets: true)
        var fast = TimeDependentLegSearch(graph: graph, table: table, departure: now, potential: potential, lowerBound: lower)
        var plain = TimeDependentLegSearch(graph: graph, table: table, departure: now, potential: nil, lowerBound: nil)
        var rng = SplitMix64(seed: seed &* 31)
        for q in 0..<40 {
            let sources = [LegProblem.Source(position: ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: Double(rng.next() % 100) / 100),
                                             cost: UInt32(rng.next() % 3_600_000))]
            let targets = (0..<(1 + Int(rng.next() % 2))).map { _ in
                ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: Double(rng.next() % 100) / 100)
            }
            let problem = LegProblem(sources: sources, targets: targets)
            let reference = ReferenceTimeDependent.legCosts(graph: graph, table: table, departure: now, sources: sources, targets: targets)
            let withPotentials = fast.solve(problem).paths.map { $0?.cost }
            let withoutPotentials = plain.solve(problem).paths.map { $0?.cost }
            #expect(withoutPotentials == reference, "seed \(seed) query \(q): plain")
            #expect(withPotentials == reference, "seed \(seed) query \(q): with potentials")
        }
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func arriveByMeetsTheDeadlineAndIsLatest(seed: UInt64) throws {
        let graph = try TravelTimeTableTests.graph(seed: seed)
        let now = 1_764_000_000.0
        let table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now)
        let lower = ReferenceTimeDependent.lowerBound(graph, table)
        let cch = CCHMetric(structure: CCHStructure.make(for: graph), turnWeight: lower.turnWeights)
        var search = ArriveBySearch(graph: graph, table: table, potential: CCHPotential(metric: cch, towardsTargets: false), lowerBound: lower)
        var plain = ArriveBySearch(graph: graph, table: table, potential: nil, lowerBound: nil)
        var rng = SplitMix64(seed: seed)
        var checked = 0
        for q in 0..<60 {
            let source = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: 0.3)
            let target = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: 0.6)
            let deadline = now + 1800 + Double(rng.next() % 7200)
            let result = search.solve(sources: [source], targets: [.init(position: target, deadline: deadline)])[0]
            let plainResult = plain.solve(sources: [source], targets: [.init(position: target, deadline: deadline)])[0]
            #expect((result?.time).map { ($0 * 1000).rounded() } == (plainResult?.time).map { ($0 * 1000).rounded() }, "seed \(seed) query \(q)")
            guard let result else { continue }
            // Leaving then arrives by the deadline (forward check), and leaving 2 s later does not.
            func arrival(leaving t: Double) -> Double? {
                let costs = ReferenceTimeDependent.legCosts(graph: graph, table: table, departure: t,
                                                            sources: [.init(position: source, cost: 0)], targets: [target])
                return costs[0].map { t + Double($0) / 1000 }
            }
            // The reference rounds every arc to whole milliseconds, hence the small tolerance.
            if let a = arrival(leaving: result.time) { #expect(a <= deadline + 0.05, "seed \(seed) query \(q): arrives \(a - deadline) s late") }
            if let late = arrival(leaving: result.time + 2) { #expect(late > deadline - 0.01, "seed \(seed) query \(q): a later departure also works") }
            checked += 1
        }
        #expect(checked > 5)
    }
}
