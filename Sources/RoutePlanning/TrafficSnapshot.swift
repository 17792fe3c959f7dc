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
    /// Arc times without live data, made on first use (only `traffic=false` queries need them).
    var arcMsHistorical: [UInt32] {
        if let cached = historicalStore.withLock({ $0 }) { return cached }
        let value = Self.arcTimes(historicalTable, graph: engine.graph, at: createdAt.timeIntervalSince1970)
        historicalStore.withLock { $0 = value }
        return value
    }
    private let historicalStore = Mutex<[UInt32]?>(nil)
    let liveArcCount: Int
    let closedArcCount: Int
    let report: TrafficModel.MatchReport
    let updates: [LiveUpdate]
    private let engine: RoutingEngineCore
    private let cache = Mutex<[(key: MetricKey, value: PreparedMetric)]>([])
    private let lowerBounds = Mutex<[(key: LowerBoundKey, value: PreparedMetric)]>([])
    /// Lower bounds over a short window of time give far tighter potentials than bounds over
    /// the whole week: at 08:00 the arterial factor is 1.8 and falls to 1.25 by 10:00, so a
    /// two-hour bound leaves a 30 % slack that the search pays for by settling ten times as many
    /// arcs. Searches try the windows in this order (seconds) and fall back to the week.
    static let windowLengths: [Double] = [1800, 7200]
    /// Windows start on the 15-minute slot grid, so that queries near each other share them.
    static let windowGrid = 900.0

    struct LowerBoundKey: Hashable {
        var live: Bool
        /// Seconds since 1970 where the window starts, and its length; nil = the whole week.
        var windowStart: Double?
        var windowLength: Double
    }
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
        arcMsLive = Self.arcTimes(table, graph: engine.graph, at: now)
        liveArcCount = table.liveMs.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
        closedArcCount = table.closedUntil.reduce(0) { $0 + ($1 > now ? 1 : 0) }
    }

    static func arcTimes(_ t: TravelTimeTable, graph: RoadGraph, at now: Double) -> [UInt32] {
        (0..<graph.arcCount).map { a in
            let ms = t.traverseMs(a, entry: now)
            return ms.isFinite ? UInt32(min(Double(UInt32.max - 1), max(1, ms.rounded()))) : UInt32.max
        }
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

    /// The start of the lower-bound window slot containing `time`.
    static func windowStart(for time: Double) -> Double { (time / windowGrid).rounded(.down) * windowGrid }

    /// Lower-bound weights (every arc at its fastest moment within the window, or ever), for
    /// time-dependent potentials. Customized on first use; a few windows are kept.
    func lowerBound(live: Bool, windowStart: Double? = nil, length: Double = 0) -> PreparedMetric {
        let key = LowerBoundKey(live: live, windowStart: windowStart, windowLength: windowStart == nil ? 0 : length)
        if let hit = lowerBounds.withLock({ list -> PreparedMetric? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = list.remove(at: i)
            list.append(entry)
            return entry.value
        }) { return hit }
        let t = live ? table : historicalTable
        let graph = engine.graph
        // Slots (15 min) the window covers, and the smallest factor of each profile within them.
        var slots: [Int] = []
        if let start = windowStart {
            var time = start
            while time < start + length { slots.append(t.slot(at: time)); time += 900 }
        } else {
            slots = Array(0..<TravelTimeTable.slotsPerWeek)
        }
        let profiles = t.profileFactors.count / TravelTimeTable.slotsPerWeek
        var minFactor = [Double](repeating: 1, count: profiles)
        for p in 0..<profiles {
            var m = Double.infinity
            for s in slots { m = min(m, Double(t.profileFactors[p * TravelTimeTable.slotsPerWeek + s]) / Double(TravelTimeTable.factorScale)) }
            minFactor[p] = t.useHistorical ? m : min(1, m)
        }
        let windowEnd = (windowStart ?? .infinity) + length
        let arc = (0..<graph.arcCount).map { a -> UInt32 in
            var f = t.useHistorical ? minFactor[Int(t.profileOfArc[a])] : 1
            // Live speeds may be faster than history while they last.
            if live && t.liveMs[a] != 0 && (windowStart ?? 0) < t.liveExpiry[a] && t.referenceTime < windowEnd {
                f = min(f, Double(t.liveMs[a]) / Double(max(1, graph.arcDurationMs[a])))
            }
            return UInt32((Double(graph.arcDurationMs[a]) * f).rounded(.down))
        }
        let metric = Metric.withTurns(graph, unit: .milliseconds, arcWeight: arc) { t, _, _ in graph.turnDurationMs[t] }
        let value = PreparedMetric(metric: metric, structure: engine.structure)
        lowerBounds.withLock { list in
            list.removeAll { $0.key == key }
            list.append((key, value))
            if list.count > 6 { list.removeFirst() }
        }
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
