public import RoadNetwork
public import Routing
import GeoCore

/// The plain O(n²) time-dependent Dijkstra the fast time-dependent searches are checked against,
/// and random travel-time tables to check them on.
public enum ReferenceTimeDependent {
    /// Earliest arrival (ms after `departure`) at each target position, from sources whose cost
    /// is the time already elapsed.
    public static func legCosts(graph: RoadGraph, table: TravelTimeTable, departure: Double,
                                sources: [LegProblem.Source], targets: [ArcPosition]) -> [UInt32?] {
        let n = graph.arcCount
        var label = [Double](repeating: .infinity, count: n)  // ms after departure at the arc's end
        var done = [Bool](repeating: false, count: n)
        for s in sources {
            let t = table.traverseMs(s.position.arc.index, entry: departure + Double(s.cost) / 1000, fraction: 1 - s.position.fraction, ignoringClosure: true)
            label[s.position.arc.index] = min(label[s.position.arc.index], Double(s.cost) + t.rounded())
        }
        var best = [Double](repeating: .infinity, count: targets.count)
        for (j, target) in targets.enumerated() {
            for s in sources where graph.arcOriginal[s.position.arc.index] == graph.arcOriginal[target.arc.index] && s.position.fraction <= target.fraction {
                let t = table.traverseMs(s.position.arc.index, entry: departure + Double(s.cost) / 1000, fraction: target.fraction - s.position.fraction, ignoringClosure: true)
                best[j] = min(best[j], Double(s.cost) + t.rounded())
            }
        }
        while true {
            var u = -1
            var m = Double.infinity
            for i in 0..<n where !done[i] && label[i] < m { m = label[i]; u = i }
            guard u >= 0 else { break }
            done[u] = true
            for t in graph.turns(from: ArcID(u)) {
                let v = graph.turnTarget[t].index
                let entry = m + Double(graph.turnDurationMs[t])
                for (j, target) in targets.enumerated() where graph.arcOriginal[v] == graph.arcOriginal[target.arc.index] {
                    let partial = table.traverseMs(v, entry: departure + entry / 1000, fraction: target.fraction, ignoringClosure: true)
                    best[j] = min(best[j], entry + partial.rounded())
                }
                let travel = table.traverseMs(v, entry: departure + entry / 1000)
                label[v] = min(label[v], entry + travel.rounded())
            }
        }
        return best.map { $0.isFinite ? UInt32($0) : nil }
    }

    /// A table with random weekly profiles, random live speeds and a few closures; the first
    /// `flatProfiles` of its four profiles keep their first factor all week.
    public static func randomTable(_ graph: RoadGraph, seed: UInt64, referenceTime: Double, flatProfiles: Int = 0) -> TravelTimeTable {
        var rng = SplitMix64(seed: seed)
        let profiles = 4
        var factors: [UInt16] = []
        for p in 0..<profiles {
            var value = 1.0
            for _ in 0..<TravelTimeTable.slotsPerWeek {
                // A random walk between 1× and 3× (0.8× for profile 0: faster than free flow).
                value += (Double(rng.next() % 100) / 100 - 0.5) * 0.3
                value = min(3, max(p == 0 ? 0.8 : 1, value))
                factors.append(UInt16((value * Double(TravelTimeTable.factorScale)).rounded()))
            }
        }
        for p in 0..<min(flatProfiles, profiles) {
            let first = factors[p * TravelTimeTable.slotsPerWeek]
            for s in 0..<TravelTimeTable.slotsPerWeek { factors[p * TravelTimeTable.slotsPerWeek + s] = first }
        }
        let n = graph.arcCount
        var live = [UInt32](repeating: 0, count: n), expiry = [Double](repeating: 0, count: n), closed = [Double](repeating: 0, count: n)
        for a in 0..<n {
            switch rng.next() % 20 {
            case 0, 1:
                live[a] = UInt32(Double(graph.arcDurationMs[a]) * Double(1 + rng.next() % 40) / 10) + 1
                expiry[a] = referenceTime + Double(rng.next() % 7200)
            case 2:
                closed[a] = referenceTime + Double(rng.next() % 3600)
            default: break
            }
        }
        for a in 0..<n where graph.arcOriginal[a].index != a {
            let o = graph.arcOriginal[a].index
            live[a] = live[o]; expiry[a] = expiry[o]; closed[a] = closed[o]
        }
        return TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: (0..<n).map { _ in UInt16(rng.next() % UInt64(profiles)) },
                               profileFactors: factors, liveMs: live, liveExpiry: expiry, closedUntil: closed,
                               referenceTime: referenceTime, utcOffsetSeconds: 3600)
    }

    /// Lower-bound weights for a table: every arc at its smallest factor ever (rounded down).
    public static func lowerBound(_ graph: RoadGraph, _ table: TravelTimeTable) -> LowerBound {
        let arc = (0..<graph.arcCount).map { a in
            UInt32((Double(graph.arcDurationMs[a]) * table.minimumFactor(a)).rounded(.down))
        }
        return LowerBound(graph: graph, arcWeight: arc)
    }
}
