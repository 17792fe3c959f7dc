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

    public init(input: Coordinate, snap: Snap, graph: RoadGraph) {
        self.input = input
        self.snap = snap
        let e = snap.edge.index
        let length = Double(max(1, graph.edgeLengthCm[e]))
        let along = Double(snap.offsetCm) / length
        var positions: [ArcPosition] = []
        let forward = graph.edgeArcs[2 * e], backward = graph.edgeArcs[2 * e + 1]
        if !forward.isNone { positions.append(ArcPosition(arc: forward, fraction: along)) }
        if !backward.isNone { positions.append(ArcPosition(arc: backward, fraction: 1 - along)) }
        self.positions = positions
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
