import Testing
import GeoCore
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing

/// Dijkstra with a heap, multi-source and multi-target, against the O(n²) reference on seeded
/// random networks (the seed is in every message).
@Suite struct DijkstraOracleTests {
    static func graphs(seed: UInt64) throws -> [RoadGraph] {
        let block = RandomNetwork.block(seed: seed, width: 9, height: 8)
        return try Extractor(profiles: [.car, .bicycle]).run(source: InMemoryOSMSource([block])).map { $0.build() }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func legCostsMatchReference(seed: UInt64) throws {
        for graph in try Self.graphs(seed: seed) {
            let metric = Metric.fastest(graph)
            var search = DijkstraLegSearch(graph: graph, metric: metric)
            var rng = SplitMix64(seed: seed &* 977)
            for q in 0..<40 {
                let sArc = ArcID(Int(rng.next() % UInt64(graph.arcCount)))
                let tArc = ArcID(Int(rng.next() % UInt64(graph.arcCount)))
                let sources = [LegProblem.Source(position: ArcPosition(arc: sArc, fraction: Double(rng.next() % 100) / 100), cost: UInt32(rng.next() % 50))]
                let targets = [ArcPosition(arc: tArc, fraction: Double(rng.next() % 100) / 100)]
                let fast = search.solve(LegProblem(sources: sources, targets: targets)).paths.map { $0?.cost }
                let slow = ReferenceDijkstra.legCosts(graph: graph, metric: metric, sources: sources, targets: targets)
                #expect(fast == slow, "seed \(seed) \(graph.mode) query \(q): \(sArc)→\(tArc)")
            }
        }
    }

    @Test(arguments: [11, 12] as [UInt64])
    func pathsAreConnectedAndCostWhatTheySay(seed: UInt64) throws {
        for graph in try Self.graphs(seed: seed) {
            let metric = Metric.fastest(graph)
            var search = DijkstraLegSearch(graph: graph, metric: metric)
            var rng = SplitMix64(seed: seed)
            var checked = 0
            for _ in 0..<30 {
                let s = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: 0.5)
                let t = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: 0.5)
                guard let path = search.solve(LegProblem(sources: [.init(position: s, cost: 0)], targets: [t])).paths[0],
                      path.arcs.count > 1 else { continue }
                var cost = UInt64(metric.remaining(s))
                for (a, b) in zip(path.arcs, path.arcs.dropFirst()) {
                    let turn = graph.turns(from: a).first { graph.turnTarget[$0] == b }
                    let found = try #require(turn, "seed \(seed): \(a)→\(b) is not a turn")
                    cost += UInt64(metric.turnWeight[found])
                }
                cost -= UInt64(metric.remaining(t))
                #expect(UInt32(cost) == path.cost, "seed \(seed)")
                checked += 1
            }
            #expect(checked >= 10, "seed \(seed) \(graph.mode): only \(checked) of 30 paths checked")
        }
    }
}
