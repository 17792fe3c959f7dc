public import GeoCore

extension RoadGraph {
    /// The closest point of every road segment (between consecutive shape points) within
    /// `radiusMeters` of `point` that `accept` takes, nearest first, at most `limit`: OSRM's
    /// candidate segments, as its nearest service lists them and as `bearings` filters them
    /// (each segment has its own heading, so a curved road is judged where it runs).
    public func segmentSnaps(near point: Coordinate, withinMeters radiusMeters: Double, limit: Int,
                             accepting accept: (Snap) -> Bool = { _ in true }) -> [Snap] {
        var found: [Snap] = []
        var seen = Set<UInt32>()  // a segment across cells is listed in each
        snapGrid.forEachSegment(within: radiusMeters, of: point) { segment in
            guard seen.insert(segment).inserted else { return }
            let i = Int(segment)
            let (p, fraction) = Geodesy.project(point, ontoSegment: shapeCoordinates[i], shapeCoordinates[i + 1])
            let d = Geodesy.distanceMeters(point, p)
            guard d <= radiusMeters else { return }
            let edge = edgeContaining(shapeIndex: i)
            let snap = Snap(edge: edge, segment: i, fraction: fraction, point: p, distanceMeters: d,
                            offsetCm: offsetCm(edge: edge, segment: i, fraction: fraction), inSmallComponent: isSmall(edge))
            if accept(snap) { found.append(snap) }
        }
        found.sort { $0.distanceMeters != $1.distanceMeters ? $0.distanceMeters < $1.distanceMeters : $0.segment < $1.segment }
        return Array(found.prefix(limit))
    }
}
