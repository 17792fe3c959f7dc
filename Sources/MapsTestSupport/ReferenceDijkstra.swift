public import RoadNetwork
public import Routing

/// The plain O(n²) Dijkstra every fast search is checked against: no heap, no tricks, obviously
/// right. It answers one leg: the cheapest way from any source position to each target position.
public enum ReferenceDijkstra {
    public static func legCosts(graph: RoadGraph, metric: Metric, sources: [LegProblem.Source], targets: [ArcPosition]) -> [UInt32?] {
        let n = graph.arcCount
        var dist = [UInt64](repeating: .max, count: n)
        var done = [Bool](repeating: false, count: n)
        for s in sources {
            let d = UInt64(s.cost) + UInt64(metric.remaining(s.position))
            dist[s.position.arc.index] = min(dist[s.position.arc.index], d)
        }
        while true {
            var u = -1
            var best = UInt64.max
            for i in 0..<n where !done[i] && dist[i] < best {
                best = dist[i]
                u = i
            }
            guard u >= 0 else { break }
            done[u] = true
            for t in graph.turns(from: ArcID(u)) where metric.turnWeight[t] != Metric.infinite {
                let v = graph.turnTarget[t].index
                dist[v] = min(dist[v], best + UInt64(metric.turnWeight[t]))
            }
        }
        return targets.map { target in
            var best = UInt64.max
            let original = graph.arcOriginal[target.arc.index]
            for s in sources where graph.arcOriginal[s.position.arc.index] == original && s.position.fraction <= target.fraction {
                let w = UInt64((Double(metric.arcWeight[target.arc.index]) * (target.fraction - s.position.fraction)).rounded())
                best = min(best, UInt64(s.cost) + w)
            }
            for u in 0..<n where dist[u] != .max {
                for t in graph.turns(from: ArcID(u))
                where graph.arcOriginal[graph.turnTarget[t].index] == original && metric.turnWeight[t] != Metric.infinite {
                    best = min(best, dist[u] + UInt64(metric.turnWeight[t]) - UInt64(metric.remaining(target)))
                }
            }
            return best == .max ? nil : UInt32(best)
        }
    }
}
