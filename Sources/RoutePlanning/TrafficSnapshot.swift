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
    /// Top speeds (m/s) by live, for reach searches.
    let topSpeeds = Mutex<[Bool: Double]>([:])
    let liveArcCount: Int
    let closedArcCount: Int
    let report: TrafficModel.MatchReport
    let updates: [LiveUpdate]
    private let engine: RoutingEngineCore
    var graph: RoadGraph { engine.graph }
    /// The engine's time-dependent bounds when this snapshot was made (they hold for its table).
    let potentials: TimeDependentPotentials?
    private let cache = Mutex<[(key: MetricKey, value: PreparedMetric)]>([])
    /// Bounds for time-dependent potentials that hold under this snapshot's live speeds, per band
    /// (-1: the week), made on first use (nil inside: no live speed is faster than history's).
    private let liveBoundStore = Mutex<[Int: LowerBoundHierarchy?]>([:])
    /// The previous snapshot's prepared metrics, not yet asked for here: a metric this snapshot
    /// needs is customized from its predecessor's, partially when few turns changed (a live update
    /// of a few per cent of the roads), instead of from scratch. Each is dropped once used.
    private let predecessors: Mutex<[(key: MetricKey, value: PreparedMetric)]>
    static let cacheSize = 8

    init(generation: Int, createdAt: Date, table: TravelTimeTable, historicalTable: TravelTimeTable, updates: [LiveUpdate],
         report: TrafficModel.MatchReport, engine: RoutingEngineCore, previous: TrafficSnapshot? = nil) {
        predecessors = Mutex(previous?.cache.withLock { $0 } ?? [])
        self.generation = generation
        self.createdAt = createdAt
        self.table = table
        self.historicalTable = historicalTable
        self.updates = updates
        self.report = report
        self.engine = engine
        potentials = engine.potentials
        let now = createdAt.timeIntervalSince1970
        arcMsLive = Self.arcTimes(table, graph: engine.graph, at: now)
        liveArcCount = table.live.speedArcs.count
        closedArcCount = table.live.closedUntil.reduce(0) { $0 + ($1 > now ? 1 : 0) }
    }

    static func arcTimes(_ t: TravelTimeTable, graph: RoadGraph, at now: Double) -> [UInt32] {
        (0..<graph.arcCount).map { a in
            let ms = t.traverseMs(a, entry: now)
            return ms.isFinite ? UInt32(min(Double(UInt32.max - 1), max(1, ms.rounded()))) : UInt32.max
        }
    }

    /// The arc times the metric of `key` was made from.
    func arcMs(live: Bool) -> [UInt32] { live ? arcMsLive : arcMsHistorical }

    /// The metric (and its customized hierarchy) for `key`, customizing on first use.
    func prepared(_ key: MetricKey) -> PreparedMetric {
        if let hit = cache.withLock({ entries -> PreparedMetric? in
            guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: i)
            entries.append(entry)
            return entry.value
        }) { return hit }
        let metric = MetricFactory.make(engine.graph, key: key, arcMs: arcMs(live: key.live),
                                        curvature: key.routeType == .thrilling ? engine.curvature : nil)
        let base = predecessors.withLock { list -> PreparedMetric? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            return list.remove(at: i).value
        }
        let value = base.map { PreparedMetric(metric: metric, updating: $0, graph: engine.graph) }
            ?? PreparedMetric(metric: metric, structure: engine.structure)
        cache.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, value))
            if entries.count > Self.cacheSize { entries.removeFirst() }
        }
        return value
    }

    /// A band's lower bounds (nil: the week's) lowered to this snapshot's live speeds where those
    /// are faster, for time-dependent potentials; nil when history's bounds hold as they are.
    func liveBound(live: Bool, band: Int?) -> LowerBoundHierarchy? {
        guard live, let potentials, let structure = engine.structure else { return nil }
        let key = band ?? -1
        if let known = liveBoundStore.withLock({ $0[key] }) { return known }
        let made = potentials.live(engine.graph, structure: structure, table: table, band: band)
        liveBoundStore.withLock { $0[key] = made }
        return made
    }
}

/// A metric with its customized hierarchy (and the hierarchy's pool of potentials).
final class PreparedMetric: @unchecked Sendable {
    let metric: Metric
    let hierarchy: CustomizedHierarchy?
    var cch: CCHMetric? { hierarchy?.cch }
    /// Measures (time, length, fuel) following this metric, made on first use by reach and matrix queries.
    let measures = Mutex<[ReachMeasure: MeasuredWeights]>([:])

    init(metric: Metric, structure: CCHStructure?) {
        self.metric = metric
        hierarchy = structure.map { CustomizedHierarchy(structure: $0, turnWeight: metric.turnWeight) }
    }

    /// `metric` with its hierarchy customized from `base`'s (see `CustomizedHierarchy.updating`).
    init(metric: Metric, updating base: PreparedMetric, graph: RoadGraph) {
        self.metric = metric
        hierarchy = base.hierarchy.map { .updating($0, from: base.metric.turnWeight, to: metric.turnWeight, graph: graph) }
    }

    func withPotential<R>(towardsTargets: Bool, _ body: (CCHPotential?) -> R) -> R {
        guard let hierarchy else { return body(nil) }
        return hierarchy.withPotential(towardsTargets: towardsTargets) { body($0) }
    }
}
