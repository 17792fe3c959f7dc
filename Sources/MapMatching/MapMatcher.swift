public import RoadNetwork
public import Routing
import GeoCore

/// A hidden Markov model map matcher (Newson and Krumm, "Hidden Markov Map Matching Through
/// Noise and Sparseness", 2009).
///
/// - States: the usable directions of the roads within the search radius of each fix.
/// - Emission: a Gaussian of the distance from the fix to the road, σ the fix's accuracy.
/// - Transition: an exponential of |network distance − great-circle distance| between
///   consecutive fixes, over the turn-expanded graph (`TransitionRouter`), so one-ways, turn
///   restrictions and forbidden U-turns hold. A turn-around in the middle of a road is allowed
///   at `uTurnPenaltyMeters`.
/// - Viterbi keeps the most likely sequence. A fix that no state of the previous one can reach
///   is skipped as an outlier (up to `maxOutliers` in a row); beyond that, or at a time gap
///   longer than `splitGapSeconds`, the trace is split into a new matching.
///
/// One matcher per thread: it owns the search memory.
public final class MapMatcher: @unchecked Sendable {
    public let graph: RoadGraph
    public let router: TransitionRouter
    public var parameters: MatchParameters

    public init(router: TransitionRouter, parameters: MatchParameters = MatchParameters()) {
        self.graph = router.graph
        self.router = router
        self.parameters = parameters
    }

    struct State {
        var position: ArcPosition
        var snap: Int
        var score: Double
        var back: Int
        /// How the state was reached from `back`: by the network or by turning around.
        var turnedAround: Bool
    }

    struct Layer {
        var point: Int
        var snaps: [Snap]
        var states: [State]
        /// The longest route (cm) a state was allowed to be reached by.
        var boundCm: UInt32 = 0
    }

    public func match(_ trace: [TracePoint]) -> MatchResult {
        var points = [MatchedPoint?](repeating: nil, count: trace.count)
        var matchings: [Matching] = []
        var keep = [Bool](repeating: true, count: trace.count)
        if let tidy = parameters.tidyMeters {
            var last: Coordinate?
            for (i, p) in trace.enumerated() {
                if let l = last, i < trace.count - 1, Geodesy.distanceMeters(l, p.coordinate) < tidy { keep[i] = false } else { last = p.coordinate }
            }
        }
        // A gap is longer than `splitGapSeconds` and than four of the trace's usual intervals (so
        // a trace sampled every 30 s is not split where one fix is missing).
        let intervals = zip(trace, trace.dropFirst()).compactMap { a, b in a.time.flatMap { t in b.time.map { $0 - t } } }.sorted()
        let sampling = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        var layers: [Layer] = []
        var skipped: [Int] = []
        var i = 0
        func close() {
            if layers.count >= 2, let m = backtrack(layers, trace: trace, index: matchings.count, points: &points) { matchings.append(m) }
            layers = []
        }
        while i < trace.count {
            defer { i += 1 }
            guard keep[i] else { continue }
            let layer = candidates(i, trace[i])
            guard !layer.states.isEmpty else { continue }
            guard let previous = layers.last else { layers = [layer]; continue }
            if let gap = parameters.splitGapSeconds, let t0 = trace[previous.point].time, let t1 = trace[i].time, t1 - t0 > max(gap, 4 * sampling) {
                close(); skipped = []; layers = [layer]; continue
            }
            if let next = transition(from: previous, to: layer, trace: trace) {
                layers.append(next)
                skipped = []
            } else if skipped.count < parameters.maxOutliers {
                skipped.append(i)
            } else {
                // Not outliers after all: the trace moved somewhere the last state cannot reach.
                close()
                i = skipped[0] - 1
                skipped = []
            }
        }
        close()
        return MatchResult(matchings: matchings, points: points)
    }

    /// The states of fix `i`, scored by emission alone.
    func candidates(_ i: Int, _ p: TracePoint) -> Layer {
        let sigma = max(1, parameters.sigma(p))
        let snaps = graph.snaps(near: p.coordinate, withinMeters: parameters.searchRadius(p), limit: parameters.maxCandidates)
        var states: [State] = []
        for (k, snap) in snaps.enumerated() {
            let z = snap.distanceMeters / sigma
            let emission = -0.5 * z * z
            for position in RouteEndpoint(input: p.coordinate, snap: snap, graph: graph).positions {
                states.append(State(position: position, snap: k, score: emission, back: -1, turnedAround: false))
            }
        }
        return Layer(point: i, snaps: snaps, states: states)
    }

    /// `next` with Viterbi scores from `previous`; nil when no state can be reached.
    func transition(from previous: Layer, to next: Layer, trace: [TracePoint]) -> Layer? {
        let a = trace[previous.point], b = trace[next.point]
        let gc = Geodesy.distanceMeters(a.coordinate, b.coordinate)
        let slack = 2 * (parameters.searchRadius(a) + parameters.searchRadius(b))
        var bound = 2 * gc + slack + 200
        if let t0 = a.time, let t1 = b.time, t1 > t0 { bound = min(bound, (t1 - t0) * parameters.maxSpeedMetersPerSecond + slack) }
        let boundCm = UInt32(min(4e9, bound * 100))
        let beta = max(5, gc * 0.1)
        var out = next
        out.boundCm = boundCm
        for k in out.states.indices { out.states[k].score = -.infinity }
        let targets = next.states.map(\.position)
        for (pi, p) in previous.states.enumerated() where p.score > -.infinity {
            let distances = router.distances(from: p.position, to: targets, boundCm: boundCm)
            let twin = graph.twin(of: p.position.arc)
            for (k, s) in next.states.enumerated() {
                var meters = distances[k].map { Double($0) / 100 }
                var around = false
                if !twin.isNone, graph.arcOriginal[twin.index] == graph.arcOriginal[s.position.arc.index], s.position.fraction >= 1 - p.position.fraction {
                    let back = (s.position.fraction - (1 - p.position.fraction)) * Double(graph.lengthCm(of: twin)) / 100 + parameters.uTurnPenaltyMeters
                    if meters.map({ back < $0 }) ?? true { meters = back; around = true }
                }
                guard let d = meters, d <= bound else { continue }
                let score = p.score + s.score - abs(d - gc) / beta
                if score > out.states[k].score {
                    out.states[k].score = score
                    out.states[k].back = pi
                    out.states[k].turnedAround = around
                }
            }
        }
        return out.states.contains { $0.score > -.infinity } ? out : nil
    }

    /// The most likely sequence through `layers` as a matching, its fixes recorded in `points`.
    func backtrack(_ layers: [Layer], trace: [TracePoint], index: Int, points: inout [MatchedPoint?]) -> Matching? {
        guard var k = layers.last?.states.indices.max(by: { layers.last!.states[$0].score < layers.last!.states[$1].score }) else { return nil }
        var chosen = [Int](repeating: 0, count: layers.count)
        for l in stride(from: layers.count - 1, through: 0, by: -1) {
            chosen[l] = k
            k = layers[l].states[k].back
        }
        var legs: [MatchedLeg] = []
        var straight = 0.0
        for l in 1..<layers.count {
            let from = layers[l - 1].states[chosen[l - 1]], to = layers[l].states[chosen[l]]
            straight += Geodesy.distanceMeters(trace[layers[l - 1].point].coordinate, trace[layers[l].point].coordinate)
            legs.append(leg(from: from.position, to: to.position, turnsAround: to.turnedAround, boundCm: layers[l].boundCm))
        }
        var matching = Matching(points: [], snaps: [], positions: [], legs: legs, confidence: 0)
        for (l, layer) in layers.enumerated() {
            let state = layer.states[chosen[l]]
            points[layer.point] = MatchedPoint(matching: index, waypoint: l, snap: layer.snaps[state.snap], position: state.position,
                                               alternatives: layer.snaps.count - 1)
            matching.points.append(layer.point)
            matching.snaps.append(layer.snaps[state.snap])
            matching.positions.append(state.position)
        }
        let span = layers[layers.count - 1].point - layers[0].point + 1
        let length = matching.lengthMeters
        matching.confidence = (min(length, straight) + 10) / (max(length, straight) + 10) * Double(layers.count) / Double(span)
        return matching
    }

    func leg(from a: ArcPosition, to b: ArcPosition, turnsAround: Bool, boundCm: UInt32) -> MatchedLeg {
        func meters(_ arc: ArcID, _ from: Double, _ to: Double) -> Double { Double(graph.lengthCm(of: arc)) / 100 * max(0, to - from) }
        if turnsAround {
            let twin = graph.twin(of: a.arc)
            return MatchedLeg(arcs: [twin], start: 1 - a.fraction, end: b.fraction, turnsAround: true,
                              lengthMeters: meters(twin, 1 - a.fraction, b.fraction))
        }
        let arcs = router.path(from: a, to: b, boundCm: boundCm) ?? [a.arc]
        if arcs.count == 1 { return MatchedLeg(arcs: arcs, start: a.fraction, end: max(a.fraction, b.fraction), turnsAround: false,
                                                lengthMeters: meters(arcs[0], a.fraction, b.fraction)) }
        var length = meters(arcs[0], a.fraction, 1) + meters(arcs[arcs.count - 1], 0, b.fraction)
        for arc in arcs.dropFirst().dropLast() { length += meters(arc, 0, 1) }
        return MatchedLeg(arcs: arcs, start: a.fraction, end: b.fraction, turnsAround: false, lengthMeters: length)
    }
}
