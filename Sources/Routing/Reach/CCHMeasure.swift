public import RoadNetwork

/// A second quantity (travel time, length, fuel) carried by a customized hierarchy: for every
/// CCH arc, the least of it among the paths that realize the arc's metric weight. Searches that
/// compare (metric, measure) lexicographically then report, for the route the metric chooses,
/// what that route costs in the measure — as an isochrone wants the travel time of the route a
/// driver would take, not a penalty-laden routing weight.
///
/// Customized after the metric, in one pass in rank order: an arc's measure comes from the input
/// turns whose metric weight equals the arc's, and from the lower triangles whose two arcs add up
/// to it (lexicographic order is a valid semiring, so the triangle relaxation stays exact).
public final class CCHMeasure: @unchecked Sendable {
    public let metric: CCHMetric
    @usableFromInline let up: UnsafeMutableBufferPointer<UInt32>
    @usableFromInline let down: UnsafeMutableBufferPointer<UInt32>

    /// - Parameters:
    ///   - turnWeight: the metric's turn weights (those `metric` was customized with).
    ///   - turnMeasure: the measure of each turn, including entering and driving its target arc.
    public init(metric: CCHMetric, turnWeight: [UInt32], turnMeasure: [UInt32]) {
        precondition(turnWeight.count == turnMeasure.count)
        self.metric = metric
        let s = metric.structure
        let m = max(1, s.arcCount)
        up = .allocate(capacity: m)
        down = .allocate(capacity: m)
        up.initialize(repeating: CCHMetric.infinity)
        down.initialize(repeating: CCHMetric.infinity)
        let wUp = metric.up, wDown = metric.down
        for t in 0..<turnWeight.count {
            let code = s.turnArc[t]
            guard code != UInt32.max, turnWeight[t] != CCHMetric.infinity else { continue }
            let k = Int(code >> 1)
            if code & 1 == 0 {
                if turnWeight[t] == wUp[k] && turnMeasure[t] < up[k] { up[k] = turnMeasure[t] }
            } else {
                if turnWeight[t] == wDown[k] && turnMeasure[t] < down[k] { down[k] = turnMeasure[t] }
            }
        }
        let firstOut = s.upFirstOut, head = s.upHead
        for v in 0..<s.nodeCount {
            let begin = Int(firstOut[v]), end = Int(firstOut[v + 1])
            guard end - begin >= 2 else { continue }
            for i in begin..<(end - 1) {
                let x = Int(head[i])
                var k = Int(firstOut[x])
                let downVX = wDown[i], upVX = wUp[i]
                let mDownVX = down[i], mUpVX = up[i]
                for j in (i + 1)..<end {
                    let y = head[j]
                    while head[k] < y { k += 1 }
                    // x → v → y realizes the arc x→y's weight: its measure is a candidate.
                    let viaUp = CCHMetric.sum(downVX, wUp[j])
                    if viaUp != CCHMetric.infinity && viaUp == wUp[k] {
                        up[k] = min(up[k], CCHMetric.sum(mDownVX, up[j]))
                    }
                    let viaDown = CCHMetric.sum(wDown[j], upVX)
                    if viaDown != CCHMetric.infinity && viaDown == wDown[k] {
                        down[k] = min(down[k], CCHMetric.sum(down[j], mUpVX))
                    }
                }
            }
        }
    }

    deinit { up.deallocate(); down.deallocate() }

    @inlinable public func upMeasure(_ k: Int) -> UInt32 { up[k] }
    @inlinable public func downMeasure(_ k: Int) -> UInt32 { down[k] }
}

/// What a reach or a matrix measures along the routes the metric chooses.
public enum ReachMeasure: String, Sendable, Hashable, CaseIterable {
    /// Milliseconds (turn costs included).
    case time
    /// Centimetres.
    case length
    /// Microlitres of fuel by `FuelModel` (stops and sharp turns included).
    case fuel

    /// The measure of every arc (driving it whole) and of every turn (the turn and its target arc),
    /// from the arc times in force (`arcMs`, `UInt32.max` closed: the measure stays finite, the
    /// metric is what forbids it).
    public func weights(_ graph: RoadGraph, arcMs: [UInt32]) -> (arc: [UInt32], turn: [UInt32]) {
        let n = graph.arcCount
        var arc = [UInt32](repeating: 0, count: n)
        for a in 0..<n {
            let ms = arcMs[a] == Metric.infinite ? graph.arcDurationMs[a] : arcMs[a]
            switch self {
            case .time: arc[a] = max(1, ms)
            case .length: arc[a] = max(1, graph.lengthCm(of: ArcID(a)))
            case .fuel:
                let liters = FuelModel.liters(meters: Double(graph.lengthCm(of: ArcID(a))) / 100, seconds: Double(max(1, ms)) / 1000)
                arc[a] = UInt32(min(Double(UInt32.max / 4), max(1, (liters * 1e6).rounded())))
            }
        }
        var turn = [UInt32](repeating: 0, count: graph.turnCount)
        for a in 0..<n {
            for t in graph.turns(from: ArcID(a)) {
                let to = graph.turnTarget[t]
                let extra: UInt32
                switch self {
                case .time: extra = graph.turnDurationMs[t]
                case .length: extra = 0
                case .fuel:
                    let share = FuelModel.stopShare(turnMs: graph.turnDurationMs[t], node: graph.nodeFlags[graph.head(of: ArcID(a)).index])
                    let speed = graph.speedKmh(of: graph.way(of: to), backward: graph.isBackward(to))
                    extra = UInt32((share * FuelModel.litersPerStop(speedKmh: speed) * 1e6).rounded())
                }
                turn[t] = Metric.add(extra, arc[to.index])
            }
        }
        return (arc, turn)
    }
}
