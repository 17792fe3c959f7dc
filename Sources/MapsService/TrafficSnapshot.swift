import Foundation
import Synchronization
import RoadNetwork
import Routing
import Traffic

/// Everything a query needs from traffic at one moment, immutable once made: travel-time tables
/// (with and without live data), arc times "now", and customized hierarchies per metric, made
/// on first use and kept in a small LRU. A query takes one snapshot and uses only it, so a live
/// update is atomic for every query: it sees all of the old state or all of the new.
final class TrafficSnapshot: @unchecked Sendable {
    let generation: Int
    let createdAt: Date
    let table: TravelTimeTable
    let historicalTable: TravelTimeTable
    let arcMsLive: [UInt32]
    let arcMsHistorical: [UInt32]
    let liveArcCount: Int
    let closedArcCount: Int
    let report: TrafficModel.MatchReport
    let updates: [LiveUpdate]
    private let engine: RoutingEngineCore
    private let cache = Mutex<[(key: MetricKey, value: PreparedMetric)]>([])
    private let lowerBounds = Mutex<[Bool: PreparedMetric]>([:])
    static let cacheSize = 8

    init(generation: Int, createdAt: Date, table: TravelTimeTable, historicalTable: TravelTimeTable, updates: [LiveUpdate],
         report: TrafficModel.MatchReport, engine: RoutingEngineCore) {
        self.generation = generation
        self.createdAt = createdAt
        self.table = table
        self.historicalTable = historicalTable
        self.updates = updates
        self.report = report
        self.engine = engine
        let now = createdAt.timeIntervalSince1970
        func arcTimes(_ t: TravelTimeTable) -> [UInt32] {
            (0..<engine.graph.arcCount).map { a in
                let ms = t.traverseMs(a, entry: now)
                return ms.isFinite ? UInt32(min(Double(UInt32.max - 1), max(1, ms.rounded()))) : UInt32.max
            }
        }
        arcMsLive = arcTimes(table)
        arcMsHistorical = arcTimes(historicalTable)
        liveArcCount = table.liveMs.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
        closedArcCount = table.closedUntil.reduce(0) { $0 + ($1 > now ? 1 : 0) }
    }

    /// The metric (and its customized hierarchy) for `key`, customizing on first use.
    func prepared(_ key: MetricKey) -> PreparedMetric {
        if let hit = cache.withLock({ entries -> PreparedMetric? in
            guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: i)
            entries.append(entry)
            return entry.value
        }) { return hit }
        let arcMs = key.live ? arcMsLive : arcMsHistorical
        let metric = MetricFactory.make(engine.graph, key: key, arcMs: arcMs,
                                        curvature: key.routeType == .thrilling ? engine.curvature : nil)
        let value = PreparedMetric(metric: metric, structure: engine.structure)
        cache.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, value))
            if entries.count > Self.cacheSize { entries.removeFirst() }
        }
        return value
    }

    /// Lower-bound weights (every arc at its fastest moment), for time-dependent potentials.
    func lowerBound(live: Bool) -> PreparedMetric {
        if let hit = lowerBounds.withLock({ $0[live] }) { return hit }
        let t = live ? table : historicalTable
        var minFactor: [Int: Double] = [:]
        let graph = engine.graph
        let arc = (0..<graph.arcCount).map { a -> UInt32 in
            let p = Int(t.profileOfArc[a])
            var f = minFactor[p] ?? {
                var m = 1.0
                for s in 0..<TravelTimeTable.slotsPerWeek { m = min(m, Double(t.profileFactors[p * TravelTimeTable.slotsPerWeek + s]) / Double(TravelTimeTable.factorScale)) }
                minFactor[p] = m
                return m
            }()
            if live && t.liveMs[a] != 0 { f = min(f, Double(t.liveMs[a]) / Double(max(1, graph.arcDurationMs[a]))) }
            return UInt32((Double(graph.arcDurationMs[a]) * f).rounded(.down))
        }
        let metric = Metric.withTurns(graph, arcWeight: arc) { t, _, _ in graph.turnDurationMs[t] }
        let value = PreparedMetric(metric: metric, structure: engine.structure)
        lowerBounds.withLock { $0[live] = value }
        return value
    }
}

/// A metric with its customized hierarchy and pools of per-query memory.
final class PreparedMetric: @unchecked Sendable {
    let metric: Metric
    let cch: CCHMetric?
    private let potentials = Mutex<[(towardsTargets: Bool, potential: CCHPotential)]>([])

    init(metric: Metric, structure: CCHStructure?) {
        self.metric = metric
        cch = structure.map { CCHMetric(structure: $0, turnWeight: metric.turnWeight) }
    }

    func withPotential<R>(towardsTargets: Bool, _ body: (CCHPotential?) -> R) -> R {
        guard let cch else { return body(nil) }
        let potential = potentials.withLock { list -> CCHPotential? in
            guard let i = list.firstIndex(where: { $0.towardsTargets == towardsTargets }) else { return nil }
            return list.remove(at: i).potential
        } ?? CCHPotential(metric: cch, towardsTargets: towardsTargets)
        defer { potentials.withLock { $0.append((towardsTargets, potential)) } }
        return body(potential)
    }
}
