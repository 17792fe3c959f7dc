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
    /// The small piece is one that only a ferry joins to the rest of the network.
    public var inFerryOnlyPiece = false
}

extension RoadGraph {
    /// The closest point on a road this graph's mode can use, within `maxDistanceMeters`.
    ///
    /// Like OSRM, a road in the large connected part of the network is preferred over a closer
    /// one in a small disconnected piece (a clipped stub, a closed car park), as long as it is
    /// within the limit; otherwise the closest road of any piece is returned. A ferry or a
    /// platform is snapped to only when no other road lies within the limit (OSRM keeps ferries
    /// out of its snapping grid): a trip cannot begin in the middle of the water.
    /// - Complexity: O(k log c) for k segments in the cells searched, c cells in the grid.
    public func snap(_ point: Coordinate, maxDistanceMeters: Double = 1000, excluding excluded: ((EdgeID) -> Bool)? = nil) -> Snap? {
        Self.preferred(snapCandidates(point, maxDistanceMeters: maxDistanceMeters, excluding: excluded))
    }

    /// Which of the two candidates a trip should use: the road of the large part, unless the
    /// nearest road lies in a piece that only a ferry joins to the rest and the large part's road
    /// is much further (`ferryPieceSlackFactor`, `ferryPieceSlackMeters`): then the point is on
    /// that island, and its own road is the one.
    public static func preferred(_ candidates: (nearest: Snap?, large: Snap?)) -> Snap? {
        if let near = candidates.nearest, near.inFerryOnlyPiece, let large = candidates.large,
           large.distanceMeters > near.distanceMeters * ferryPieceSlackFactor + ferryPieceSlackMeters {
            return near
        }
        return candidates.large ?? candidates.nearest
    }

    /// A road of the large part at most this many times as far as the nearest road (plus
    /// `ferryPieceSlackMeters`) is "about as near" as a road that only a ferry reaches.
    public static let ferryPieceSlackFactor = 2.0
    public static let ferryPieceSlackMeters = 50.0

    /// The closest point on any usable road, and the closest in the large connected part (nil
    /// when none is within the limit). `snap` prefers the second; a route whose points all lie
    /// in one small piece (a one-way loop cut off by an extract's edge) tries the first. Both are
    /// roads other than ferries and platforms when any such road is within the limit.
    public func snapCandidates(_ point: Coordinate, maxDistanceMeters: Double = 1000,
                               excluding excluded: ((EdgeID) -> Bool)? = nil) -> (nearest: Snap?, large: Snap?) {
        let cell = snapGrid.cellSizeMeters
        let maxRings = Int(maxDistanceMeters / cell) + 2
        // [0]: roads; [1]: ferries and platforms, the last resort.
        var bestAny: [Snap?] = [nil, nil]
        var bestLarge: [Snap?] = [nil, nil]
        snapGrid.forEachSegment(near: point, maxRings: maxRings) { ring, segment in
            // Cells of ring r are at least (r - 1) cells away: stop once nothing there can be closer.
            let ringFloor = Double(ring - 1) * cell
            if ringFloor > maxDistanceMeters { return false }
            if let large = bestLarge[0], ringFloor > large.distanceMeters { return false }
            let i = Int(segment)
            let a = shapeCoordinates[i], b = shapeCoordinates[i + 1]
            let (p, fraction) = Geodesy.project(point, ontoSegment: a, b)
            let d = Geodesy.distanceMeters(point, p)
            guard d <= maxDistanceMeters else { return true }
            let edge = edgeContaining(shapeIndex: i)
            let kind = isLastResort(edge) ? 1 : 0
            let isBetterAny = bestAny[kind].map { d < $0.distanceMeters } ?? true
            if let excluded, excluded(edge) { return true }
            let small = isSmall(edge)
            let isBetterLarge = !small && (bestLarge[kind].map { d < $0.distanceMeters } ?? true)
            guard isBetterAny || isBetterLarge else { return true }
            var snap = Snap(edge: edge, segment: i, fraction: fraction, point: p, distanceMeters: d,
                            offsetCm: offsetCm(edge: edge, segment: i, fraction: fraction), inSmallComponent: small)
            snap.inFerryOnlyPiece = small && isFerryOnly(edge)
            if isBetterAny { bestAny[kind] = snap }
            if isBetterLarge { bestLarge[kind] = snap }
            return true
        }
        // The ring loop stops early once a large snap is found: nearer small ones were seen first.
        if bestAny[0] != nil { return (bestAny[0], bestLarge[0]) }
        return (bestAny[1], bestLarge[1])
    }

    /// Ferries and platforms: snapped to only when no other road of the mode is within reach.
    func isLastResort(_ edge: EdgeID) -> Bool {
        !wayFlags[edgeWay[edge.index].index].isDisjoint(with: [.ferry, .platform])
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

    /// In a small piece, or in one that only a ferry joins to the rest, in every usable direction.
    func isSmall(_ edge: EdgeID) -> Bool {
        let forward = edgeArcs[edge.index * 2], backward = edgeArcs[edge.index * 2 + 1]
        let fSmall = forward.isNone || !arcFlags[forward.index].isDisjoint(with: [.smallComponent, .ferryOnlyPiece])
        let bSmall = backward.isNone || !arcFlags[backward.index].isDisjoint(with: [.smallComponent, .ferryOnlyPiece])
        return fSmall && bSmall
    }

    /// Some usable direction of the edge lies in a piece that only a ferry joins to the rest.
    func isFerryOnly(_ edge: EdgeID) -> Bool {
        [edgeArcs[edge.index * 2], edgeArcs[edge.index * 2 + 1]].contains { !$0.isNone && arcFlags[$0.index].contains(.ferryOnlyPiece) }
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
