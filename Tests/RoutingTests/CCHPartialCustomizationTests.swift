import Testing
import GeoCore
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
@testable import Routing

/// Partial customization must give exactly the weights of a full customization of the same turn
/// weights, whatever changed: one arc or a tenth of them, slower, faster, closed or reopened, on
/// one thread or two.
@Suite struct CCHPartialCustomizationTests {
    /// The shares of arcs changed per round; 0 stands for a single arc.
    static let shares: [Double] = [0, 0.001, 0.01, 0.1]

    /// Networks of separate pieces (each piece's subtree on one thread) and, 51 at 12 × 12 and
    /// 53 at 20 × 8, of one with a top separator (run after both threads, from both threads' marks).
    @Test(arguments: [(51, 30, 30), (52, 30, 30), (51, 12, 12), (53, 20, 8)] as [(UInt64, Int, Int)])
    func equalsFullCustomization(seed: UInt64, width: Int, height: Int) throws {
        let block = RandomNetwork.block(seed: seed, width: width, height: height)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        let structure = CCHStructure.make(for: graph)
        var arcWeight = Metric.fastest(graph).arcWeight
        var metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in graph.turnDurationMs[t] }
        // Made with parallelAbove 0, so that the two-thread path runs on this small network.
        let twoThreads = CCHMetric(structure: structure, turnWeight: metric.turnWeight, parallelAbove: 0)
        let oneThread = CCHMetric(structure: structure, turnWeight: metric.turnWeight, parallelAbove: Int.max)
        let split = try #require(twoThreads.parallelPlan)
        if width < 30 { #expect(!split.sequential.isEmpty, "a top separator") }
        var rng = SplitMix64(seed: seed)
        for round in 0..<16 {
            let share = Self.shares[round % Self.shares.count]
            let count = share == 0 ? 1 : max(1, Int(Double(graph.arcCount) * share))
            var changedArcs = Set<Int>()
            while changedArcs.count < count {
                let a = Int(rng.next() % UInt64(graph.arcCount))
                rng.perturb(&arcWeight[a])
                changedArcs.insert(a)
            }
            metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in graph.turnDurationMs[t] }
            let changedTurns = (0..<graph.turnCount).filter { changedArcs.contains(graph.turnTarget[$0].index) }
            let recomputed = twoThreads.customize(changed: changedTurns, turnWeight: metric.turnWeight, graph: graph)
            oneThread.customize(changed: changedTurns, turnWeight: metric.turnWeight, graph: graph)
            let full = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
            for (name, partial) in [("two threads", twoThreads), ("one thread", oneThread)] {
                let differences = (0..<structure.arcCount).filter {
                    partial.upWeight($0) != full.upWeight($0) || partial.downWeight($0) != full.downWeight($0)
                }.count
                #expect(differences == 0, "seed \(seed) round \(round) (\(changedArcs.count) arcs, \(name)): \(differences) of \(structure.arcCount) CCH arcs differ")
            }
            // A single changed arc reaches a small part of the hierarchy, not all of it.
            if share == 0 { #expect(recomputed > 0 && recomputed * 4 < structure.nodeCount, "\(recomputed) of \(structure.nodeCount) nodes") }
        }
        CCHOracleTests.compare(graph, metric: metric, cch: twoThreads, seed: seed, queries: 30)
            .expectCompared(routedShare: 5, unpackedShare: 10, "seed \(seed)")
    }

    /// A hierarchy customized fully from its predecessor keeps the predecessor's plans, so that
    /// the next partial customization does not make its tables again.
    @Test func fullUpdatesKeepThePlans() throws {
        let block = RandomNetwork.block(seed: 58, width: 12, height: 12)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        let structure = CCHStructure.make(for: graph)
        let before = Metric.fastest(graph).turnWeight
        let base = CustomizedHierarchy(structure: structure, turnWeight: before)
        let after = before.map { $0 == Metric.infinite ? $0 : $0 * 2 }
        let full = CustomizedHierarchy.updating(base, from: before, to: after, graph: graph)
        #expect(full !== base && full.cch.plan === base.cch.plan)
        let fresh = CCHMetric(structure: structure, turnWeight: after)
        #expect((0..<structure.arcCount).allSatisfy { full.cch.upWeight($0) == fresh.upWeight($0) && full.cch.downWeight($0) == fresh.downWeight($0) })
    }

    /// Turns listed that did not change (or twice) cost work but change nothing.
    @Test func unchangedAndRepeatedTurns() throws {
        let block = RandomNetwork.block(seed: 57, width: 14, height: 14)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        let structure = CCHStructure.make(for: graph)
        let metric = Metric.fastest(graph)
        let partial = CCHMetric(structure: structure, turnWeight: metric.turnWeight, parallelAbove: 0)
        let turns = Array(0..<graph.turnCount) + Array(0..<graph.turnCount)
        let recomputed = partial.customize(changed: turns, turnWeight: metric.turnWeight, graph: graph)
        #expect(recomputed > 0)
        let full = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
        #expect((0..<structure.arcCount).allSatisfy { partial.upWeight($0) == full.upWeight($0) && partial.downWeight($0) == full.downWeight($0) })
    }
}
