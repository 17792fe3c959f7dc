public import GeoCore
public import RoadNetwork
public import Routing

/// A point on a road near a given one.
public struct NearbyRoad: Sendable {
    public var point: Coordinate
    public var distanceMeters: Double
    public var roadName: String
    /// OSM ids of the two nodes of the road segment the point lies on (nil for a point on no road).
    public var osmNodes: (Int64, Int64)?
}

extension PlanningEngine {
    /// Up to `count` road segments near a point, nearest first (OSRM's nearest service: several
    /// may be pieces of one road), within the snapping's radius (1 km by default), with a
    /// direction its bearing admits and of no class in `avoid` (OSRM's `exclude`); nil for a
    /// mode the dataset lacks.
    public func nearest(_ point: Coordinate, mode: TravelMode, count: Int, snapping: WaypointSnapping = WaypointSnapping(),
                        avoid: Set<Avoidance> = []) -> [NearbyRoad]? {
        guard let graph = graph(mode) else { return nil }
        let rules = AvoidanceRules(graph: graph, avoid: avoid, strict: true)
        let found = snapping.admittedSnaps(near: point, withinMeters: snapping.radiusMeters ?? 1000, limit: count, graph: graph) {
            !rules.avoidsEdge($0.edge)
        }
        return found.map { snap in
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
