public import RoadNetwork
public import Routing
import GeoCore

/// A hidden Markov model map matcher (Newson and Krumm, "Hidden Markov Map Matching Through
/// Noise and Sparseness", 2009).
///
/// - States: the usable directions of the roads within the search radius of each fix.
/// - Emission: a Gaussian of the distance from the fix to the road, σ the fix's accuracy.
/// - Transition: an exponential of |route length − great-circle distance| between consecutive
///   fixes, the route being the one `TransitionRouter` picks on the turn-expanded graph (so
///   one-ways, turn restrictions and forbidden U-turns hold). A turn-around in the middle of a
///   road is allowed at `uTurnPenaltyMeters`.
/// - Viterbi keeps the most likely sequence. States of the previous fix are tried best first,
///   and each target's route is searched only as far as it could still beat the score the
///   target already has (OSRM's pruning, taken into the search bound), so most hops touch a few
///   arcs. A fix that no state of the previous one can reach is skipped as an outlier (up to
///   `maxOutliers` in a row); beyond that, or at a time gap longer than `splitGapSeconds`, the
///   trace is split into a new matching.
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
        var emission: Double
        var score = -Double.infinity
        var back = -1
        /// Length (cm) of the route from `back`.
        var routeCm: UInt32 = 0
        /// Where the matched route is: `position`, or, when the fix fell a little behind the
        /// previous one on the same road (noise along it), the previous state's route position.
        var routePosition: ArcPosition
        var stands = false

        init(position: ArcPosition, snap: Int, emission: Double) {
            self.position = position
            self.snap = snap
            self.emission = emission
            routePosition = position
        }
    }

    struct Layer {
        var point: Int
        var snaps: [Snap]
        var states: [State]
        /// The longest route (cm) a state could be reached by.
        var boundCm: UInt32 = 0
        /// What turning around mid-road cost the routes into this layer (nil: not allowed).
        var turnAroundCm: UInt32?
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
            var layer = candidates(i, trace[i])
            guard !layer.states.isEmpty else { continue }
            guard let previous = layers.last else { start(&layer); layers = [layer]; continue }
            if let gap = parameters.splitGapSeconds, let t0 = trace[previous.point].time, let t1 = trace[i].time, t1 - t0 > max(gap, 4 * sampling) {
                close(); skipped = []; start(&layer); layers = [layer]; continue
            }
            if transition(from: previous, to: &layer, trace: trace) {
                layers.append(layer)
                skipped = []
            } else if skipped.isEmpty, layers.count >= 2, transition(from: layers[layers.count - 2], to: &layer, trace: trace) {
                // The previous fix was the outlier (taken because some road near it could be
                // reached, but nothing after it can be): drop it instead.
                layers[layers.count - 1] = layer
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

    /// The first layer of a matching: scored by emission alone.
    func start(_ layer: inout Layer) {
        for k in layer.states.indices { layer.states[k].score = layer.states[k].emission }
    }

    /// The states of fix `i`, with their emission scores.
    func candidates(_ i: Int, _ p: TracePoint) -> Layer {
        let sigma = max(1, parameters.sigma(p))
        let snaps = graph.snaps(near: p.coordinate, withinMeters: parameters.searchRadius(p), limit: parameters.maxCandidates)
        var states: [State] = []
        states.reserveCapacity(snaps.count * 2)
        for (k, snap) in snaps.enumerated() {
            let z = snap.distanceMeters / sigma
            let emission = -0.5 * z * z
            let e = snap.edge.index
            let along = Double(snap.offsetCm) / Double(max(1, graph.edgeLengthCm[e]))
            let forward = graph.edgeArcs[2 * e], backward = graph.edgeArcs[2 * e + 1]
            if !forward.isNone { states.append(State(position: ArcPosition(arc: forward, fraction: along), snap: k, emission: emission)) }
            if !backward.isNone { states.append(State(position: ArcPosition(arc: backward, fraction: 1 - along), snap: k, emission: emission)) }
        }
        return Layer(point: i, snaps: snaps, states: states)
    }

    /// Gives `next` its Viterbi scores from `previous`; false when no state can be reached.
    func transition(from previous: Layer, to next: inout Layer, trace: [TracePoint]) -> Bool {
        let a = trace[previous.point], b = trace[next.point]
        let gc = Geodesy.distanceMeters(a.coordinate, b.coordinate)
        let seconds = a.time.flatMap { t0 in b.time.map { max(0, $0 - t0) } }
        let bound = parameters.maxRouteMeters(straight: gc, seconds: seconds)
        next.boundCm = UInt32(min(4e9, bound * 100))
        let beta = parameters.beta(straight: gc)
        let backtrack = parameters.backtrackMeters(b)
        // Like OSRM, a route turns around at a fix only where the trace itself turns sharply there.
        next.turnAroundCm = turnsSharply(previous.point, trace) ? UInt32(parameters.uTurnPenaltyMeters * 100) : nil
        router.turnAroundCm = next.turnAroundCm
        let targets = next.states.map(\.position)
        router.aim(at: targets)
        var maxCm = [UInt32](repeating: 0, count: targets.count), lengths: [UInt32] = []
        let order = previous.states.indices.filter { previous.states[$0].score > -.infinity }
            .sorted { previous.states[$0].score > previous.states[$1].score }
        guard let first = order.first else { return false }
        let floor = previous.states[first].score - parameters.beamWidth
        let originals = graph.arcOriginal
        // The best score of the new layer so far: a state that cannot come within the beam of
        // it will not be extended, so no route needs to be searched for it.
        var best = -Double.infinity
        for s in order {
            let p = previous.states[s]
            if p.score < floor { break }
            let from = p.routePosition
            func offer(_ k: Int, meters d: Double, cm: UInt32, stands: Bool) {
                let score = p.score + next.states[k].emission - abs(d - gc) / beta
                best = max(best, score)
                if score > next.states[k].score {
                    next.states[k].score = score
                    next.states[k].back = s
                    next.states[k].routeCm = cm
                    next.states[k].stands = stands
                    next.states[k].routePosition = stands ? from : next.states[k].position
                }
            }
            // A fix a little behind on the same road: the vehicle stood or crept on, the fix did not.
            for (k, t) in targets.enumerated() where originals[t.arc.index] == originals[from.arc.index] && t.fraction < from.fraction
                && Double(router.partCm(t.arc, from.fraction - t.fraction)) / 100 <= backtrack {
                offer(k, meters: 0, cm: 0, stands: true)
            }
            // Each target only as far as a route could still beat what it has.
            var wanted = false
            for k in targets.indices {
                let room = p.score + next.states[k].emission - max(next.states[k].score, best - parameters.beamWidth)
                guard room > 0 else { maxCm[k] = 0; continue }
                let meters = min(bound, gc + beta * room)
                maxCm[k] = UInt32(min(4e9, meters * 100))
                wanted = wanted || maxCm[k] > 0
            }
            guard wanted else { continue }
            router.lengths(from: from, maxCm: maxCm, into: &lengths)
            for k in targets.indices where lengths[k] != TransitionRouter.unreached {
                offer(k, meters: Double(lengths[k]) / 100, cm: lengths[k], stands: false)
            }
        }
        return next.states.contains { $0.score > -.infinity }
    }

    /// Whether the trace turns by more than 90° at fix `i` (from the fix before it to the one after).
    func turnsSharply(_ i: Int, _ trace: [TracePoint]) -> Bool {
        guard i > 0, i + 1 < trace.count else { return false }
        let a = trace[i - 1].coordinate, b = trace[i].coordinate, c = trace[i + 1].coordinate
        let turn = Geodesy.turnAngle(from: Geodesy.bearingDegrees(from: a, to: b), to: Geodesy.bearingDegrees(from: b, to: c))
        return abs(turn) >= 90
    }

    /// The most likely sequence through `layers` as a matching, its fixes recorded in `points`.
    func backtrack(_ layers: [Layer], trace: [TracePoint], index: Int, points: inout [MatchedPoint?]) -> Matching? {
        guard let last = layers.last, var k = last.states.indices.max(by: { last.states[$0].score < last.states[$1].score }) else { return nil }
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
            // The leg's route is searched again as its transition searched it.
            router.turnAroundCm = layers[l].turnAroundCm
            legs.append(leg(from: from.routePosition, to: to, boundCm: layers[l].boundCm))
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

    /// The leg into state `to`, along the route its transition measured.
    func leg(from a: ArcPosition, to state: State, boundCm: UInt32) -> MatchedLeg {
        let b = state.position
        func meters(_ arc: ArcID, _ from: Double, _ to: Double) -> Double { Double(graph.lengthCm(of: arc)) / 100 * max(0, to - from) }
        if state.stands { return MatchedLeg(arcs: [a.arc], start: a.fraction, end: a.fraction, turnsAround: false, lengthMeters: 0) }
        // The transition's own length is the tightest bound that still holds its route.
        let path = router.path(from: a, to: b, maxCm: state.routeCm) ?? router.path(from: a, to: b, maxCm: boundCm)
            ?? TransitionRouter.Path(arcs: [a.arc], turnsAround: false)
        let arcs = path.arcs
        let start = path.turnsAround ? 1 - a.fraction : a.fraction
        if arcs.count == 1 { return MatchedLeg(arcs: arcs, start: start, end: max(start, b.fraction), turnsAround: path.turnsAround,
                                                lengthMeters: meters(arcs[0], start, b.fraction)) }
        var length = meters(arcs[0], start, 1) + meters(arcs[arcs.count - 1], 0, b.fraction)
        for arc in arcs.dropFirst().dropLast() { length += meters(arc, 0, 1) }
        return MatchedLeg(arcs: arcs, start: start, end: b.fraction, turnsAround: path.turnsAround, lengthMeters: length)
    }
}

