public import GeoCore

/// Where a point meets the road network: a position on one edge's shape.
public struct Snap: Sendable, Equatable {
    public var edge: EdgeID
    /// Shape index of the first point of the segment the point projects onto.
    public var segment: Int
    /// Position along that segment, 0...1.
    public var fraction: Double
    /// The projected point on the road.
    public var point: Coordinate
    /// Straight-line metres from the input point to `point`.
    public var distanceMeters: Double
    /// Centimetres from the edge's first shape point to `point`, along the shape.
    public var offsetCm: UInt32
    public var inSmallComponent: Bool
}

extension RoadGraph {
    /// The closest point on a road this graph's mode can use, within `maxDistanceMeters`.
    ///
    /// Like OSRM, a road in the large connected part of the network is preferred over a closer
    /// one in a small disconnected piece (a clipped stub, a closed car park), as long as it is
    /// within the limit; otherwise the closest road of any piece is returned.
    /// - Complexity: O(k log c) for k segments in the cells searched, c cells in the grid.
    public func snap(_ point: Coordinate, maxDistanceMeters: Double = 1000, excluding excluded: ((EdgeID) -> Bool)? = nil) -> Snap? {
        let (nearest, large) = snapCandidates(point, maxDistanceMeters: maxDistanceMeters, excluding: excluded)
        return large ?? nearest
    }

    /// The closest point on any usable road, and the closest in the large connected part (nil
    /// when none is within the limit). `snap` prefers the second; a route whose points all lie
    /// in one small piece (a one-way loop cut off by an extract's edge) tries the first.
    public func snapCandidates(_ point: Coordinate, maxDistanceMeters: Double = 1000,
                               excluding excluded: ((EdgeID) -> Bool)? = nil) -> (nearest: Snap?, large: Snap?) {
        let cell = snapGrid.cellSizeMeters
        let maxRings = Int(maxDistanceMeters / cell) + 2
        var bestAny: Snap?
        var bestLarge: Snap?
        snapGrid.forEachSegment(near: point, maxRings: maxRings) { ring, segment in
            // Cells of ring r are at least (r - 1) cells away: stop once nothing there can be closer.
            let ringFloor = Double(ring - 1) * cell
            if ringFloor > maxDistanceMeters { return false }
            if let large = bestLarge, ringFloor > large.distanceMeters { return false }
            let i = Int(segment)
            let a = shapeCoordinates[i], b = shapeCoordinates[i + 1]
            let (p, fraction) = Geodesy.project(point, ontoSegment: a, b)
            let d = Geodesy.distanceMeters(point, p)
            guard d <= maxDistanceMeters else { return true }
            let isBetterAny = bestAny.map { d < $0.distanceMeters } ?? true
            let edge = edgeContaining(shapeIndex: i)
            if let excluded, excluded(edge) { return true }
            let small = isSmall(edge)
            let isBetterLarge = !small && (bestLarge.map { d < $0.distanceMeters } ?? true)
            guard isBetterAny || isBetterLarge else { return true }
            let snap = Snap(edge: edge, segment: i, fraction: fraction, point: p, distanceMeters: d,
                            offsetCm: offsetCm(edge: edge, segment: i, fraction: fraction), inSmallComponent: small)
            if isBetterAny { bestAny = snap }
            if isBetterLarge { bestLarge = snap }
            return true
        }
        // The ring loop stops early once a large snap is found: nearer small ones were seen first.
        return (bestAny, bestLarge)
    }

    /// The edge whose shape holds shape index `i` as a segment start.
    public func edgeContaining(shapeIndex i: Int) -> EdgeID {
        var lo = 0, hi = edgeCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(edgeShapeStart[mid + 1]) <= i { lo = mid + 1 } else { hi = mid }
        }
        return EdgeID(lo)
    }

    func isSmall(_ edge: EdgeID) -> Bool {
        let forward = edgeArcs[edge.index * 2], backward = edgeArcs[edge.index * 2 + 1]
        let fSmall = forward.isNone || arcFlags[forward.index].contains(.smallComponent)
        let bSmall = backward.isNone || arcFlags[backward.index].contains(.smallComponent)
        return fSmall && bSmall
    }

    /// Centimetres along an edge's shape from its start to `fraction` of segment `segment`.
    public func offsetCm(edge: EdgeID, segment: Int, fraction: Double) -> UInt32 {
        var meters = 0.0
        var i = Int(edgeShapeStart[edge.index])
        while i < segment {
            meters += Geodesy.distanceMeters(shapeCoordinates[i], shapeCoordinates[i + 1])
            i += 1
        }
        meters += Geodesy.distanceMeters(shapeCoordinates[segment], shapeCoordinates[segment + 1]) * fraction
        let total = edgeLengthCm[edge.index]
        return min(total, UInt32((meters * 100).rounded()))
    }
}

extension RoadGraph {
    /// The closest point of every usable road within `radiusMeters` of `point`, one per edge,
    /// nearest first, at most `limit` (the candidates of a map matcher).
    ///
    /// Segments are measured in a plane tangent at `point` (no trigonometry per segment); only
    /// the kept snaps get exact distances.
    public func snaps(near point: Coordinate, withinMeters radiusMeters: Double, limit: Int) -> [Snap] {
        let k = Geodesy.cosine(ofLatitude: point.latitude)
        let metersPerE7 = Geodesy.metersPerDegreeLatitude * 1e-7
        let px = Double(point.longitudeE7) * k, py = Double(point.latitudeE7)
        let limitE7 = radiusMeters / metersPerE7
        var found: [(edge: Int32, segment: Int32, fraction: Double, d2: Double)] = []
        let shape = shapeCoordinates
        snapGrid.forEachSegment(within: radiusMeters, of: point) { segment in
            let i = Int(segment)
            let a = shape[i], b = shape[i + 1]
            let ax = Double(a.longitudeE7) * k - px, ay = Double(a.latitudeE7) - py
            let dx = Double(b.longitudeE7) * k - px - ax, dy = Double(b.latitudeE7) - py - ay
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
            let x = ax + t * dx, y = ay + t * dy
            let d2 = x * x + y * y
            guard d2 <= limitE7 * limitE7 else { return }
            found.append((Int32(truncatingIfNeeded: edgeContaining(shapeIndex: i).index), Int32(i), t, d2))
        }
        guard !found.isEmpty else { return [] }
        // The nearest segment of each edge, then the nearest edges.
        found.sort { $0.edge != $1.edge ? $0.edge < $1.edge : $0.d2 < $1.d2 }
        var nearest: [(edge: Int32, segment: Int32, fraction: Double, d2: Double)] = []
        for f in found where nearest.last?.edge != f.edge { nearest.append(f) }
        nearest.sort { $0.d2 != $1.d2 ? $0.d2 < $1.d2 : $0.edge < $1.edge }
        return nearest.prefix(limit).map { f in
            let edge = EdgeID(Int(f.edge)), segment = Int(f.segment)
            let p = Geodesy.interpolate(shape[segment], shape[segment + 1], f.fraction)
            return Snap(edge: edge, segment: segment, fraction: f.fraction, point: p, distanceMeters: Geodesy.distanceMeters(point, p),
                        offsetCm: offsetCm(edge: edge, segment: segment, fraction: f.fraction), inSmallComponent: isSmall(edge))
        }
    }
}
