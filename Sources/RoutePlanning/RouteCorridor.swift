public import GeoCore
public import RoadNetwork
import Routing

/// A route rebuilt on the graph through the points of a given line (a client's route, re-snapped
/// about every 500 m), ready to tell exactly what visiting a place adds to it: the cheapest
/// leave–visit–rejoin detour on the road network (`RouteDetourSearch`), on the fastest weights
/// in force.
public final class RouteCorridor: @unchecked Sendable {
    /// How the line could not be followed.
    public enum Failure: Error, Sendable {
        /// Point `index` of the sampled line is not near a road of the mode.
        case noSegment(index: Int, Coordinate)
        /// The sampled points cannot be joined.
        case noRoute
        /// The dataset has no hierarchy for the mode (re-import it).
        case noHierarchy
        case unknownMode
    }

    /// What visiting one place adds to the route, as the search sees it.
    public struct Detour: Sendable {
        /// Weight added (milliseconds of travel, U-turn penalties included): for budgets and ordering.
        public var addedCost: Int64
        /// Metres from the route's start to the end of the arc where the detour leaves it.
        public var leaveOffsetMeters: Double
    }

    /// The same, from the unpacked paths.
    public struct UnpackedDetour: Sendable {
        /// Milliseconds of travel time added.
        public var addedMilliseconds: Int64
        /// Metres added (may be negative: a slower detour can be shorter).
        public var addedMeters: Double
        /// Metres from the route's start to where the detour parts from it.
        public var leaveOffsetMeters: Double
    }

    /// The rebuilt route's line.
    public let points: [Coordinate]
    public let lengthMeters: Double
    let graph: RoadGraph
    let detours: RouteDetourSearch
    let arcs: [ArcID]
    let lengthAtStart: [Double], lengthAtEnd: [Double]
    let uTurnPenalty: UInt32

    init(engine: RoutingEngine, through line: [Coordinate]) throws(Failure) {
        let graph = engine.graph
        let prepared = engine.snapshot.prepared(MetricKey(live: graph.mode.usesTraffic))
        guard let cch = prepared.cch else { throw .noHierarchy }
        let waypoints = Self.sample(line, everyMeters: 500)
        let planner = engine.core.planner
        let outcome = engine.cchScratch.withScratch { scratch -> RouteOutcome in
            var search = CCHLegSearch(graph: graph, metric: prepared.metric, cch: cch, scratch: scratch)
            return planner.route(waypoints, using: &search)
        }
        let route: Route
        switch outcome {
        case .found(let r): route = r
        case .noSegment(let i, let c): throw .noSegment(index: i, c)
        case .noRoute: throw .noRoute
        }
        // Route arcs with cumulative cost (metric) and length.
        var arcs: [(arc: ArcID, costAtEnd: UInt32)] = []
        var lengthAtEnd: [Double] = [], lengthAtStart: [Double] = []
        var cost: UInt64 = 0, meters = 0.0
        for leg in route.legs {
            for (k, piece) in leg.pieces.enumerated() {
                if k > 0 { cost += route.turnExtra(prepared.metric, graph: graph, from: leg.pieces[k - 1].arc, to: piece.arc) }
                cost += UInt64((Double(prepared.metric.arcWeight[piece.arc.index]) * max(0, piece.toFraction - piece.fromFraction)).rounded())
                lengthAtStart.append(meters)
                meters += piece.lengthMeters
                lengthAtEnd.append(meters)
                arcs.append((piece.arc, UInt32(min(cost, UInt64(UInt32.max - 1)))))
            }
        }
        self.graph = graph
        points = route.points
        lengthMeters = meters
        self.arcs = arcs.map(\.arc)
        self.lengthAtStart = lengthAtStart
        self.lengthAtEnd = lengthAtEnd
        uTurnPenalty = planner.waypointUTurnPenalty
        detours = RouteDetourSearch(graph: graph, metric: prepared.metric, cch: cch, route: arcs)
    }

    /// The detour to a place (snapped within 300 m of a road); nil when no road is near or the
    /// place cannot be reached.
    public func detour(to place: Coordinate) -> Detour? {
        guard let d = search(place, unpack: false) else { return nil }
        return Detour(addedCost: d.addedCost, leaveOffsetMeters: lengthAtEnd[d.leaveIndex])
    }

    func search(_ place: Coordinate, unpack: Bool) -> RouteDetourSearch.Detour? {
        guard let snap = graph.snap(place, maxDistanceMeters: 300) else { return nil }
        let positions = RouteEndpoint(input: place, snap: snap, graph: graph).positions
        return detours.detour(to: positions, uTurnPenalty: uTurnPenalty, unpack: unpack)
    }

    /// The detour with its paths unpacked: its time, the metres it adds and where it parts from the route.
    public func unpackedDetour(to place: Coordinate) -> UnpackedDetour? {
        guard let d = search(place, unpack: true) else { return nil }
        // Equal-cost ties may start the detour earlier than it really leaves: follow the path
        // along the route while they coincide, so the leave and rejoin points are where they part.
        var leave = d.leaveIndex, outboundArcs = d.outbound.map { graph.arcOriginal[$0.index] }
        while outboundArcs.count > 2, leave + 1 < arcs.count, outboundArcs[1] == arcs[leave + 1] {
            outboundArcs.removeFirst()
            leave += 1
        }
        var rejoin = d.rejoinIndex, inboundArcs = d.inbound.map { graph.arcOriginal[$0.index] }
        while inboundArcs.count > 2, rejoin > 0, inboundArcs[inboundArcs.count - 2] == arcs[rejoin - 1] {
            inboundArcs.removeLast()
            rejoin -= 1
        }
        let leaveMeters = lengthAtEnd[leave]
        let rejoinMeters = lengthAtStart[rejoin]
        let outbound = pathMeters(outboundArcs.dropFirst(), lastFraction: d.placePosition.fraction)
        let inbound = pathMeters(inboundArcs.dropLast(), firstFraction: d.departPosition.fraction)
        let added = leaveMeters + outbound + inbound + (lengthMeters - rejoinMeters) - lengthMeters
        return UnpackedDetour(addedMilliseconds: d.addedTime, addedMeters: added, leaveOffsetMeters: leaveMeters)
    }

    /// The first and last point, and points about every `everyMeters` along the line.
    static func sample(_ points: [Coordinate], everyMeters: Double) -> [Coordinate] {
        var out = [points[0]]
        var since = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            since += Geodesy.distanceMeters(a, b)
            if since >= everyMeters { out.append(b); since = 0 }
        }
        if out.last != points[points.count - 1] { out.append(points[points.count - 1]) }
        return out.count >= 2 ? out : [points[0], points[points.count - 1]]
    }

    /// Metres along arcs, with a partial first or last one.
    func pathMeters(_ arcs: ArraySlice<ArcID>, firstFraction: Double? = nil, lastFraction: Double? = nil) -> Double {
        var total = 0.0
        let list = Array(arcs)
        for (i, arc) in list.enumerated() {
            var share = 1.0
            if i == 0, let f = firstFraction { share = 1 - f }
            if i == list.count - 1, let f = lastFraction { share = min(share, f) }
            total += Double(graph.lengthCm(of: graph.arcOriginal[arc.index])) / 100 * share
        }
        return total
    }
}

extension PlanningEngine {
    /// The route through a line's points, for detours to places along it.
    public func corridor(through line: [Coordinate], mode: TravelMode) throws(RouteCorridor.Failure) -> RouteCorridor {
        guard let engine = engine(mode) else { throw .unknownMode }
        return try RouteCorridor(engine: engine, through: line)
    }
}
