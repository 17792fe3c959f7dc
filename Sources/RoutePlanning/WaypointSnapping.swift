public import RoadNetwork
public import GeoCore
public import Routing

/// How one waypoint may meet the road network (OSRM's `radiuses`, `bearings` and `approaches`):
/// the default is the nearest road within the planner's snapping limit, either way.
public struct WaypointSnapping: Sendable, Equatable {
    /// Snap only within this many metres (OSRM `radiuses`); nil: the planner's limit.
    public var radiusMeters: Double?
    /// Snap only to a road that can be travelled within `range` degrees of `degrees` (clockwise
    /// from north), and leave or arrive in that direction only (OSRM `bearings`).
    public var bearing: (degrees: Double, range: Double)?
    /// Leave or arrive with the point on this side of a two-way road (OSRM `approaches=curb`;
    /// the dataset's driving side). One-way roads are kept as they are, as OSRM does.
    public var curb: DrivingSide?

    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.radiusMeters == b.radiusMeters && a.bearing?.degrees == b.bearing?.degrees && a.bearing?.range == b.bearing?.range
            && a.curb == b.curb
    }

    /// Whether a direction of travel `bearing` (degrees) is within the allowed range.
    public func admits(bearing value: Double) -> Bool {
        guard let bearing else { return true }
        let difference = abs((value - bearing.degrees).truncatingRemainder(dividingBy: 360))
        return min(difference, 360 - difference) <= bearing.range
    }
}

extension WaypointSnapping {
    /// The directions of travel (arcs) of an edge, one or two.
    static func arcs(of edge: EdgeID, graph: RoadGraph) -> [ArcID] {
        [graph.edgeArcs[edge.index * 2], graph.edgeArcs[edge.index * 2 + 1]].filter { !$0.isNone }
    }

    /// Whether a route may leave or arrive along `arc` (a direction of the snapped edge): its
    /// heading at the snapped segment within the bearing range, and on a two-way road the point
    /// on the curb side (as OSRM: the input right of the segment for right-hand traffic).
    public func allows(_ arc: ArcID, of snap: Snap, input: Coordinate, graph: RoadGraph) -> Bool {
        let a = graph.shapeCoordinates[snap.segment], b = graph.shapeCoordinates[snap.segment + 1]
        let forward = graph.edgeArcs[snap.edge.index * 2] == arc
        if bearing != nil, !admits(bearing: forward ? Geodesy.bearingDegrees(from: a, to: b) : Geodesy.bearingDegrees(from: b, to: a)) {
            return false
        }
        if let curb, Self.arcs(of: snap.edge, graph: graph).count == 2 {
            let k = Geodesy.cosine(ofLatitude: a.latitude)
            let cross = (b.longitude - a.longitude) * k * (input.latitude - a.latitude) - (b.latitude - a.latitude) * (input.longitude - a.longitude) * k
            let inputOnRight = cross <= 0
            return forward == (inputOnRight == (curb == .right))
        }
        return true
    }

    /// Road segments within `radius` of a point, nearest first, that have a direction the rule
    /// allows and pass `accept` (OSRM filters its candidate segments the same way).
    public func admittedSnaps(near point: Coordinate, withinMeters radius: Double, limit: Int = 256, graph: RoadGraph,
                              accepting accept: (Snap) -> Bool = { _ in true }) -> [Snap] {
        graph.segmentSnaps(near: point, withinMeters: radius, limit: limit) { snap in
            accept(snap) && Self.arcs(of: snap.edge, graph: graph).contains { allows($0, of: snap, input: point, graph: graph) }
        }
    }
}

extension WaypointSnapping {
    /// The nearest road of any piece and the nearest of the large part, within the radius
    /// (`defaultLimit` without one); with a bearing, only segments with a direction of travel in
    /// range count (as OSRM filters its candidate segments).
    public func candidates(near point: Coordinate, defaultLimit: Double, graph: RoadGraph) -> (nearest: Snap?, large: Snap?) {
        let limit = radiusMeters ?? defaultLimit
        guard bearing != nil else { return graph.snapCandidates(point, maxDistanceMeters: limit) }
        let admitted = admittedSnaps(near: point, withinMeters: limit, graph: graph)
        return (admitted.first, admitted.first { !$0.inSmallComponent })
    }

    /// The endpoint at a snap, with only the directions the rule allows.
    public func endpoint(_ input: Coordinate, _ snap: Snap, graph: RoadGraph) -> RouteEndpoint {
        var endpoint = RouteEndpoint(input: input, snap: snap, graph: graph)
        endpoint.positions = endpoint.positions.filter { allows($0.arc, of: snap, input: input, graph: graph) }
        return endpoint
    }
}
