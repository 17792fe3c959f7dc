import Foundation
import GeoCore
import RoadNetwork
import Routing

extension PlanningEngine {
    /// The area reachable within each budget of `request` (or, reversed, the area from which the
    /// point is reached): a one-to-all search, then contours around the roads it reached.
    ///
    /// Static budgets sweep the hierarchy once (PHAST, restricted to the part of the map the
    /// largest budget could cover at the network's top speed); time-dependent ones (`departAt`,
    /// `arriveBy` with a time budget on the fastest routes) run an exact time-dependent search
    /// that stops at the budget.
    public func reach(_ request: ReachRequest) -> ReachOutcome {
        precondition(!request.levels.isEmpty && request.levels.allSatisfy { $0 > 0 }, "a reach needs positive levels")
        guard let engine = engine(request.mode) else { return .noSegment }
        let graph = engine.graph
        let snapshot = engine.snapshot
        let candidates = graph.snapCandidates(request.origin, maxDistanceMeters: maxSnapDistanceMeters)
        guard let snap = RoadGraph.preferred(candidates) else { return .noSegment }
        let endpoint = RouteEndpoint(input: request.origin, snap: snap, graph: graph)
        let key = MetricKey(routeType: request.routeType, avoid: request.avoid, strict: request.strictAvoid,
                            live: request.traffic && graph.mode.usesTraffic)
        let levels = request.levels.sorted()
        let scale = request.budget.unitsPerBudgetUnit
        let limit = UInt32(min(Double(UInt32.max / 4), (levels[levels.count - 1] * scale).rounded(.up)))
        let started = Self.threadCPUSeconds()
        var reverse = request.reverse
        let pieces: [TimeDependentOneToAll.Piece]
        switch request.timing {
        case .departAt(let t) where request.isTimeDependent:
            let table = key.live ? snapshot.table : snapshot.historicalTable
            pieces = engine.timeDependentScratch.withScratch { scratch in
                var search = TimeDependentOneToAll(graph: graph, table: table, scratch: scratch)
                return search.forward(from: endpoint.positions, departure: t, limitMs: limit)
            }
        case .arriveBy(let t) where request.isTimeDependent:
            reverse = true
            let table = key.live ? snapshot.table : snapshot.historicalTable
            pieces = engine.timeDependentScratch.withScratch { scratch in
                var search = TimeDependentOneToAll(graph: graph, table: table, scratch: scratch)
                return search.backward(to: endpoint.positions, arrival: t, limitMs: limit)
            }
        default:
            if case .arriveBy = request.timing { reverse = true }
            guard let (prepared, measure) = snapshot.measured(request.budget.measure, key: key) else { return .unavailable }
            let (starts, initial) = reverse ? Self.backwardStarts(endpoint, prepared, measure, graph) : Self.forwardStarts(endpoint, prepared, measure)
            let radius = Double(limit) / scale * engine.core.reachMetersPerUnit(request.budget, snapshot: snapshot, live: key.live)
            let selection = engine.core.arcs(near: snap.point, radiusMeters: radius, including: starts.map(\.arc))
            pieces = engine.oneToAllScratch.withScratch { scratch in
                var sweep = CCHOneToAll(measure: measure.cch, scratch: scratch)
                sweep.select(selection)
                sweep.run(starts, forward: !reverse)
                return Self.pieces(sweep, initial: initial, measure: measure, limit: limit, reverse: reverse,
                                   graph: graph, pointRestricted: endpoint.positions.contains { Metric.restricted(graph, $0.arc) })
            }
        }
        let searched = Self.threadCPUSeconds()
        let geometry = ReachGeometry(graph: graph, center: snap.point, mode: request.mode)
        let contours = geometry.contours(pieces, levels: levels.map { $0 * scale }, denoise: request.denoise,
                                         generalizeMeters: request.generalizeMeters)
        let drawn = Self.threadCPUSeconds()
        return .found(Reach(center: snap.point,
                            contours: zip(levels, contours.polygons).map { ReachContour(level: $0, polygons: $1) },
                            reachedArcs: pieces.count, gridMeters: contours.spacing,
                            searchSeconds: searched - started, contourSeconds: drawn - searched))
    }

    /// CPU time of the calling thread (a reach runs on one): what the work costs, however busy the machine.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Away from the point: the origin's own arcs from the point on (the sweep's starts).
    static func forwardStarts(_ endpoint: RouteEndpoint, _ prepared: PreparedMetric,
                              _ measure: MeasuredWeights) -> ([CCHOneToAll.Start], [TimeDependentOneToAll.Piece]) {
        let starts = endpoint.positions.filter { prepared.metric.arcWeight[$0.arc.index] != Metric.infinite }
        return (starts.map { .init(arc: $0.arc, primary: prepared.metric.remaining($0), measure: measure.remaining($0)) },
                starts.map { .init(arc: $0.arc, from: $0.fraction, to: 1, startMs: 0, endMs: measure.remaining($0)) })
    }

    /// Towards the point: the sweep starts one turn before its arcs, so that every label is the
    /// cost from an arc's end to the point itself; the point's own arcs up to the point.
    static func backwardStarts(_ endpoint: RouteEndpoint, _ prepared: PreparedMetric, _ measure: MeasuredWeights,
                               _ graph: RoadGraph) -> ([CCHOneToAll.Start], [TimeDependentOneToAll.Piece]) {
        var starts: [CCHOneToAll.Start] = []
        var pieces: [TimeDependentOneToAll.Piece] = []
        let metric = prepared.metric
        for pos in endpoint.positions where metric.arcWeight[pos.arc.index] != Metric.infinite {
            pieces.append(.init(arc: pos.arc, from: 0, to: pos.fraction,
                                startMs: UInt32((Double(measure.arc[pos.arc.index]) * pos.fraction).rounded()), endMs: 0))
            let excess = metric.remaining(pos), excessMeasure = measure.remaining(pos)
            let original = graph.arcOriginal[pos.arc.index]
            for copy in [original] + (graph.restrictionCopies[original] ?? []) {
                for i in graph.turns(into: copy) {
                    let t = Int(graph.turnReverseTurn[i])
                    let w = metric.turnWeight[t]
                    guard w != Metric.infinite, w >= excess else { continue }
                    starts.append(.init(arc: graph.turnSource[t], primary: w - excess, measure: measure.turn[t] &- min(measure.turn[t], excessMeasure)))
                }
            }
        }
        return (starts, pieces)
    }

    /// The sweep's labels as pieces: forward, each arc from its entry (its label less its own
    /// measure) to its end; backward, from its start (label plus its own measure) to its end.
    /// The starting arcs themselves are already among `initial` (forward). Arcs reached only by
    /// passing through a restricted area (`RestrictedPassage`) are left out, as routes to them are.
    static func pieces(_ sweep: CCHOneToAll, initial: [TimeDependentOneToAll.Piece], measure: MeasuredWeights, limit: UInt32,
                       reverse: Bool, graph: RoadGraph, pointRestricted: Bool) -> [TimeDependentOneToAll.Piece] {
        var pieces = initial
        let startArcs = reverse ? [] : initial.map(\.arc)  // one or two
        let arcMeasure = measure.arc
        let rule = graph.hasRestrictedAccess
        sweep.forEachReached { arc, primary, end in
            if rule && !RestrictedPassage.admits(cost: primary, endsRestricted: reverse ? pointRestricted : Metric.restricted(graph, arc)) { return }
            if reverse {
                guard end <= limit else { return }
                pieces.append(.init(arc: arc, from: 0, to: 1, startMs: Metric.add(end, arcMeasure[arc.index]), endMs: end))
            } else {
                let entry = end &- min(end, arcMeasure[arc.index])
                guard entry <= limit, !startArcs.contains(arc) else { return }
                pieces.append(.init(arc: arc, from: 0, to: 1, startMs: entry, endMs: end))
            }
        }
        return pieces
    }
}

extension RoutingEngineCore {
    /// The most metres one budget unit (a second, a metre, a litre) can cover in a straight line:
    /// the network's top speed, for fuel the model's most frugal speed.
    func reachMetersPerUnit(_ budget: ReachRequest.Budget, snapshot: TrafficSnapshot, live: Bool) -> Double {
        switch budget {
        case .distance: return 1
        case .fuel: return 100_000 / ((5...160).map { FuelModel.litersPer100Km(speedKmh: Double($0)) }.min() ?? 5)
        case .time: return snapshot.topSpeedMps(live: live)
        }
    }

    /// Arcs whose tail lies within a box around `center` (nil when the box covers the whole
    /// network: the sweep then visits every node), plus `including`.
    func arcs(near center: Coordinate, radiusMeters: Double, including: [ArcID]) -> [ArcID]? {
        let dLat = radiusMeters / Geodesy.metersPerDegreeLatitude
        let dLon = radiusMeters / (Geodesy.metersPerDegreeLatitude * max(0.01, Geodesy.cosine(ofLatitude: center.latitude)))
        let minLat = Int64(((center.latitude - dLat) * 1e7).rounded(.down)), maxLat = Int64(((center.latitude + dLat) * 1e7).rounded(.up))
        let minLon = Int64(((center.longitude - dLon) * 1e7).rounded(.down)), maxLon = Int64(((center.longitude + dLon) * 1e7).rounded(.up))
        let bounds = networkBounds
        if Int64(bounds.minLat) >= minLat && Int64(bounds.maxLat) <= maxLat && Int64(bounds.minLon) >= minLon && Int64(bounds.maxLon) <= maxLon {
            return nil
        }
        var result = including
        let coordinates = graph.nodeCoordinates
        for a in 0..<graph.arcCount {
            let c = coordinates[graph.tail(of: ArcID(a)).index]
            let lat = Int64(c.latitudeE7), lon = Int64(c.longitudeE7)
            if lat >= minLat && lat <= maxLat && lon >= minLon && lon <= maxLon { result.append(ArcID(a)) }
        }
        return result
    }
}
