public import RoadNetwork
public import GeoCore

/// A position on an arc: the arc and how far along it (0 at its tail, 1 at its head).
public struct ArcPosition: Sendable, Hashable {
    public var arc: ArcID
    public var fraction: Double

    public init(arc: ArcID, fraction: Double) {
        self.arc = arc
        self.fraction = fraction
    }
}

/// A waypoint as the search sees it: the snapped point and the arcs (one per usable direction)
/// that pass through it.
public struct RouteEndpoint: Sendable {
    public var input: Coordinate
    public var snap: Snap
    public var positions: [ArcPosition]
    /// The point's own road lies in a small piece that the mode reaches only over roads it may not
    /// drive (a track, a footpath), so the route starts or ends at the nearest road of the large
    /// part instead, `snap.distanceMeters` away (OSRM's second candidate).
    public var movedOffUnreachablePiece = false

    /// - Parameter atJunction: when the point is at a node where other roads meet (within
    ///   `junctionCm`), the route may also leave or arrive by those roads, as OSRM lets a
    ///   waypoint on a junction node use every road there: otherwise a few centimetres decide
    ///   which road it is on, and a route from a one-way's end loops round the block.
    public init(input: Coordinate, snap: Snap, graph: RoadGraph, atJunction: Bool = false) {
        self.input = input
        self.snap = snap
        let e = snap.edge.index
        let length = Double(max(1, graph.edgeLengthCm[e]))
        let along = Double(snap.offsetCm) / length
        var positions: [ArcPosition] = []
        let forward = graph.edgeArcs[2 * e], backward = graph.edgeArcs[2 * e + 1]
        if !forward.isNone { positions.append(ArcPosition(arc: forward, fraction: along)) }
        if !backward.isNone { positions.append(ArcPosition(arc: backward, fraction: 1 - along)) }
        if atJunction {
            let cm = Double(Self.junctionCm)
            if Double(snap.offsetCm) <= cm { positions += Self.junctionPositions(graph, at: graph.edgeTail[e], besides: positions) }
            if length - Double(snap.offsetCm) <= cm { positions += Self.junctionPositions(graph, at: graph.edgeHead[e], besides: positions) }
        }
        self.positions = positions
    }

    /// How near a node (centimetres along the road) a point counts as on it.
    public static let junctionCm: UInt32 = 100

    /// The other roads at node `v`: each arc leaving it from its start, each arc entering it at
    /// its end, found on the snapping grid (through the turns of the arcs already there, a road
    /// whose only turns at the node are to others, as `only_straight_on` leaves two crossing
    /// one-ways, would be missed). Roads a route may only begin or end on (restricted access)
    /// and ferries are left out: starting on one at the junction would pass through it free of
    /// its entry charge.
    static func junctionPositions(_ graph: RoadGraph, at v: NodeID, besides known: [ArcPosition]) -> [ArcPosition] {
        var entering = Set<Int>(), leaving = Set<Int>()
        for s in graph.segmentSnaps(near: graph.nodeCoordinates[v.index], withinMeters: 0.5, limit: 64) {
            let e = s.edge.index
            let forward = graph.edgeArcs[2 * e], backward = graph.edgeArcs[2 * e + 1]
            if graph.edgeTail[e] == v {
                if !forward.isNone { leaving.insert(forward.index) }
                if !backward.isNone { entering.insert(backward.index) }
            }
            if graph.edgeHead[e] == v {
                if !forward.isNone { entering.insert(forward.index) }
                if !backward.isNone { leaving.insert(backward.index) }
            }
        }
        let excluded: WayFlags = [.restrictedAccess, .ferry]
        let have = Set(known.map(\.arc.index))
        var extra: [ArcPosition] = []
        for a in leaving.sorted() where !have.contains(a) && graph.wayFlags[graph.way(of: ArcID(a)).index].isDisjoint(with: excluded) {
            extra.append(ArcPosition(arc: ArcID(a), fraction: 0))
        }
        for a in entering.sorted() where !have.contains(a) && graph.wayFlags[graph.way(of: ArcID(a)).index].isDisjoint(with: excluded) {
            extra.append(ArcPosition(arc: ArcID(a), fraction: 1))
        }
        return extra
    }
}

extension Metric {
    /// Weight of the part of `arc` after `fraction` (infinite stays infinite).
    @inlinable
    public func remaining(_ p: ArcPosition) -> UInt32 {
        let w = arcWeight[p.arc.index]
        return w == Metric.infinite ? w : UInt32((Double(w) * (1 - p.fraction)).rounded())
    }

    /// Weight of the part of `arc` up to `fraction`.
    @inlinable
    public func covered(_ p: ArcPosition) -> UInt32 {
        let w = arcWeight[p.arc.index]
        return w == Metric.infinite ? w : UInt32((Double(w) * p.fraction).rounded())
    }
}
