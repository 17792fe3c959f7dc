import Synchronization
import RoadNetwork
import Routing

/// A measure's weights on one metric: per arc and per turn, and carried through the metric's
/// hierarchy (`CCHMeasure`).
final class MeasuredWeights: @unchecked Sendable {
    let kind: ReachMeasure
    let arc: [UInt32]
    let turn: [UInt32]
    let cch: CCHMeasure

    init(kind: ReachMeasure, arc: [UInt32], turn: [UInt32], cch: CCHMeasure) {
        self.kind = kind
        self.arc = arc
        self.turn = turn
        self.cch = cch
    }

    /// The measure of the rest of an arc after a position.
    func remaining(_ p: ArcPosition) -> UInt32 { UInt32((Double(arc[p.arc.index]) * (1 - p.fraction)).rounded()) }
}

extension TrafficSnapshot {
    /// The measure `kind` following the metric of `key`; nil without a hierarchy. Made on first use
    /// (one pass over the hierarchy's triangles) and kept with the metric.
    func measured(_ kind: ReachMeasure, key: MetricKey) -> (PreparedMetric, MeasuredWeights)? {
        let prepared = prepared(key)
        guard let cch = prepared.cch else { return nil }
        if let hit = prepared.measures.withLock({ $0[kind] }) { return (prepared, hit) }
        let (arc, turn) = kind.weights(graph, arcMs: arcMs(live: key.live))
        let measure = CCHMeasure(metric: cch, turnWeight: prepared.metric.turnWeight, turnMeasure: turn)
        let value = MeasuredWeights(kind: kind, arc: arc, turn: turn, cch: measure)
        prepared.measures.withLock { $0[kind] = value }
        return (prepared, value)
    }
}

extension TrafficSnapshot {
    /// The fastest any arc is driven (m/s), with or without live speeds; computed on first use.
    func topSpeedMps(live: Bool) -> Double {
        if let hit = topSpeeds.withLock({ $0[live] }) { return hit }
        let arcMs = arcMs(live: live)
        var fastest = 1.0
        for a in 0..<graph.arcCount where arcMs[a] != Metric.infinite && arcMs[a] > 0 {
            fastest = max(fastest, Double(graph.lengthCm(of: ArcID(a))) * 10 / Double(arcMs[a]))
        }
        topSpeeds.withLock { $0[live] = fastest }
        return fastest
    }
}
