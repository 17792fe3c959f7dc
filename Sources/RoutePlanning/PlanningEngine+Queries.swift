public import GeoCore
public import RoadNetwork
import Routing

/// Durations and distances between points (OSRM's table service).
public struct TravelTable: Sendable {
    /// Seconds, `[source][destination]`, rounded to 0.1; nil where no route exists.
    public var durations: [[Double?]]
    /// Metres, the same way.
    public var distances: [[Double?]]
    /// Each point on the road (the point itself, at distance 0, when no road is near).
    public var snapped: [NearbyRoad]
}

/// A point on a road near a given one.
public struct NearbyRoad: Sendable {
    public var point: Coordinate
    public var distanceMeters: Double
    public var roadName: String
    /// OSM ids of the two nodes of the road segment the point lies on (nil for a point on no road).
    public var osmNodes: (Int64, Int64)?
}

extension PlanningEngine {
    /// One CCH query per cell on the traffic snapshot's current weights; nil for a mode the dataset lacks.
    public func table(_ points: [Coordinate], sources: [Int], destinations: [Int], mode: TravelMode) -> TravelTable? {
        guard let engine = engine(mode) else { return nil }
        let snapshot = engine.snapshot
        let graph = engine.graph
        let planner = engine.core.planner
        var endpoints: [RouteEndpoint?] = []
        var snapped: [NearbyRoad] = []
        for p in points {
            if let snap = graph.snap(p, maxDistanceMeters: planner.maxSnapDistanceMeters) {
                endpoints.append(RouteEndpoint(input: p, snap: snap, graph: graph))
                snapped.append(NearbyRoad(point: snap.point, distanceMeters: snap.distanceMeters,
                                          roadName: graph.name(of: graph.edgeWay[snap.edge.index])))
            } else {
                endpoints.append(nil)
                snapped.append(NearbyRoad(point: p, distanceMeters: 0, roadName: ""))
            }
        }
        let prepared = snapshot.prepared(MetricKey(live: mode.usesTraffic))
        var durations = [[Double?]](repeating: [Double?](repeating: nil, count: destinations.count), count: sources.count)
        var distances = durations
        let clock = RouteClock(graph: graph, table: snapshot.table)
        for (i, s) in sources.enumerated() {
            for (j, d) in destinations.enumerated() {
                guard let a = endpoints[s], let b = endpoints[d] else { continue }
                if s == d { durations[i][j] = 0; distances[i][j] = 0; continue }
                let outcome = engine.withStaticSearch(prepared) { search in planner.route([a, b], using: &search) }
                guard let route = outcome.route, let timed = clock.timed(route, departure: self.clock().timeIntervalSince1970) else { continue }
                durations[i][j] = (timed.durationSeconds * 10).rounded() / 10
                distances[i][j] = (timed.lengthMeters * 10).rounded() / 10
            }
        }
        return TravelTable(durations: durations, distances: distances, snapped: snapped)
    }

    /// Up to `count` roads near a point, nearest first, one point per edge (OSRM's nearest service);
    /// nil for a mode the dataset lacks.
    public func nearest(_ point: Coordinate, mode: TravelMode, count: Int) -> [NearbyRoad]? {
        guard let graph = graph(mode) else { return nil }
        var found: [Snap] = []
        var used = Set<Int>()
        while found.count < count, let snap = graph.snap(point, maxDistanceMeters: 1000, excluding: { used.contains($0.index) }) {
            found.append(snap)
            used.insert(snap.edge.index)
        }
        return found.sorted { $0.distanceMeters < $1.distanceMeters }.map { snap in
            NearbyRoad(point: snap.point, distanceMeters: snap.distanceMeters, roadName: graph.name(of: graph.edgeWay[snap.edge.index]),
                       osmNodes: (graph.shapeOSMIDs[snap.segment], graph.shapeOSMIDs[snap.segment + 1]))
        }
    }
}

/// A directed road segment between two OSM nodes (how live traffic names roads), with the usual
/// speed of its road in that direction.
public struct RoadSegment: Sendable, Hashable {
    public var from: Int64
    public var to: Int64
    public var usualSpeedKmh: Double
}

extension PlanningEngine {
    /// The OSM segments a path drives, in order, each once (the parts of its first and last arc
    /// that it does not drive left out).
    public func segments(of path: RoutePath) -> [RoadSegment] {
        guard let graph = graph(path.mode) else { return [] }
        var out: [RoadSegment] = []
        var seen = Set<RoadSegment>()
        for leg in path.legs {
            for piece in leg where (0..<graph.arcCount).contains(piece.arc) {
                let arc = ArcID(piece.arc)
                let shape = graph.shape(of: arc), ids = graph.shapeOSMIDs(of: arc)
                var cumulative = [0.0]
                for (a, b) in zip(shape, shape.dropFirst()) { cumulative.append(cumulative[cumulative.count - 1] + Geodesy.distanceMeters(a, b)) }
                let total = max(0.01, cumulative[cumulative.count - 1])
                let speed = graph.speedKmh(of: graph.way(of: arc), backward: graph.isBackward(arc))
                for i in 0..<(ids.count - 1) {
                    let driven = min(cumulative[i + 1], piece.to * total) - max(cumulative[i], piece.from * total)
                    guard driven >= 0.5 else { continue }
                    let segment = RoadSegment(from: ids[i], to: ids[i + 1], usualSpeedKmh: speed)
                    if seen.insert(segment).inserted { out.append(segment) }
                }
            }
        }
        return out
    }
}
