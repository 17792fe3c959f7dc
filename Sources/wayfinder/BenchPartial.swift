import Foundation
import RoadNetwork
import Routing
import GeoCore

/// Partial customization after local and scattered changes, against a full one of the same
/// weights in the same run (part of `bench routing`'s hierarchy report).
enum BenchPartial {
    static func run(graph: RoadGraph, structure: CCHStructure, metric: Metric, base: CCHMetric, seed: UInt64) -> [String: Any] {
        var rng = SplitMix64(seed: seed &+ 5)
        // A local incident: 100 arcs around a random one (breadth first over turns).
        func incident() -> Set<Int> {
            var seen: Set<Int> = [Int(rng.next() % UInt64(graph.arcCount))]
            var frontier = Array(seen)
            while seen.count < 100, !frontier.isEmpty {
                var next: [Int] = []
                for a in frontier {
                    for t in graph.turns(from: ArcID(a)) where seen.count < 100 {
                        if seen.insert(graph.turnTarget[t].index).inserted { next.append(graph.turnTarget[t].index) }
                    }
                }
                frontier = next
            }
            return seen
        }
        func scattered(_ share: Double) -> Set<Int> {
            Set((0..<graph.arcCount).filter { _ in Double(rng.next() % 1_000_000) / 1_000_000 < share })
        }
        var report: [String: Any] = [:]
        let cases: [(String, () -> Set<Int>)] = [("oneArc", { [Int(rng.next() % UInt64(graph.arcCount))] }), ("incident100Arcs", { incident() }),
                                                 ("random0.1pct", { scattered(0.001) }), ("random1pct", { scattered(0.01) }),
                                                 ("random10pct", { scattered(0.1) })]
        for (name, pick) in cases {
            var ms: [Double] = [], cpu: [Double] = [], fullMs: [Double] = [], fullCPU: [Double] = [], recomputed: [Double] = []
            var exact = true
            for _ in 0..<3 {
                let arcs = pick()
                var arcWeight = metric.arcWeight
                for a in arcs { arcWeight[a] = Metric.add(arcWeight[a], arcWeight[a] * 3) }
                let changed = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arcWeight) { t, _, _ in metric.turnWeight[t] &- metric.arcWeight[graph.turnTarget[t].index] }
                var turns: [Int] = []
                for a in arcs { for i in graph.turns(into: ArcID(a)) { turns.append(Int(graph.turnReverseTurn[i])) } }
                let copy = CCHMetric(copying: base)
                // Both on up to two threads: wall time and the process's CPU time (all threads).
                var start = DispatchTime.now().uptimeNanoseconds, process = BenchDirections.processCPUNanoseconds()
                let count = copy.customize(changed: turns, turnWeight: changed.turnWeight, graph: graph)
                ms.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                cpu.append(Double(BenchDirections.processCPUNanoseconds() - process) / 1e6)
                recomputed.append(Double(count) / Double(max(1, structure.nodeCount)))
                let full = CCHMetric(copying: base)
                start = DispatchTime.now().uptimeNanoseconds
                process = BenchDirections.processCPUNanoseconds()
                full.customize(turnWeight: changed.turnWeight)
                fullMs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                fullCPU.append(Double(BenchDirections.processCPUNanoseconds() - process) / 1e6)
                for k in stride(from: 0, to: structure.arcCount, by: 97) where copy.upWeight(k) != full.upWeight(k) || copy.downWeight(k) != full.downWeight(k) {
                    exact = false
                }
            }
            report[name] = ["ms": BenchCommand.percentiles(ms), "processCPUMs": BenchCommand.percentiles(cpu),
                            "fullMs": BenchCommand.percentiles(fullMs), "fullProcessCPUMs": BenchCommand.percentiles(fullCPU),
                            "recomputedShareOfNodes": BenchCommand.percentiles(recomputed), "sameAsFull": exact]
        }
        return report
    }
}
