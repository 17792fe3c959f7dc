import GeoCore
import RoadNetwork
import Routing

/// Contours around the roads a reach covered: every piece of road is sampled along its shape
/// with the budget spent there (interpolated along the arc, so an arc left part-way counts up to
/// where the budget ran out), each sample lowers the four grid points around it, and marching
/// squares draws the level sets of that field. Land without reached roads stays above every
/// level, so unreached areas enclosed by reached ones come out as holes; all contours are level
/// sets of one field, so each lies within the next.
struct ReachGeometry {
    let graph: RoadGraph
    let center: Coordinate
    let mode: TravelMode

    /// The finest grid spacing worth drawing for a mode (metres): about a city block for cars.
    var minimumSpacing: Double {
        switch mode {
        case .car, .taxi: 80
        case .bicycle: 50
        case .pedestrian: 25
        }
    }

    /// At most this many grid points along the larger side of the reached area.
    static let maxPointsPerSide = 400.0

    struct Result {
        var polygons: [[GeoPolygon]]
        var spacing: Double
    }

    /// - Parameter levels: ascending, in the pieces' units.
    func contours(_ pieces: [TimeDependentOneToAll.Piece], levels: [Double], denoise: Double, generalizeMeters: Double?) -> Result {
        let top = levels[levels.count - 1]
        let cosLat = Geodesy.cosine(ofLatitude: center.latitude)
        let mLat = Geodesy.metersPerDegreeLatitude, mLon = Geodesy.metersPerDegreeLatitude * cosLat
        let lat0 = center.latitude, lon0 = center.longitude
        @inline(__always) func project(_ c: Coordinate) -> (Double, Double) { ((c.longitude - lon0) * mLon, (c.latitude - lat0) * mLat) }
        // The extent of what was reached within the largest level (from both end nodes of the arcs:
        // a reach towards the point leaves an arc at its head and starts it at its tail; shapes
        // bulge a little beyond them, which the grid's margin takes).
        var minX = 0.0, maxX = 0.0, minY = 0.0, maxY = 0.0
        let shapes = graph.shapeCoordinates, shapeStart = graph.edgeShapeStart, nodes = graph.nodeCoordinates
        for piece in pieces where Double(min(piece.startMs, piece.endMs)) <= top {
            for node in [graph.tail(of: piece.arc), graph.head(of: piece.arc)] {
                let (x, y) = project(nodes[node.index])
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        let spacing = max(minimumSpacing, max(maxX - minX, maxY - minY) / Self.maxPointsPerSide)
        let margin = 3 * spacing
        let origin = PlanarPoint(x: minX - margin, y: minY - margin)
        let width = Int((maxX - minX + 2 * margin) / spacing) + 2, height = Int((maxY - minY + 2 * margin) / spacing) + 2
        let outside = Float(top * 1.25 + 1)
        var grid = ContourGrid(width: width, height: height, spacing: spacing, origin: origin, fill: outside)
        let step = spacing / 2
        let gridWidth = width, gridHeight = height
        grid.values.withUnsafeMutableBufferPointer { values in
            @inline(__always) func mark(_ x: Double, _ y: Double, _ v: Float) {
                // Truncation is the floor here: points left of or below the grid are dropped first.
                let fx = (x - origin.x) / spacing, fy = (y - origin.y) / spacing
                guard fx >= 0, fy >= 0 else { return }
                let gx = Int(fx), gy = Int(fy)
                guard gx + 1 < gridWidth, gy + 1 < gridHeight else { return }
                let i = gy * gridWidth + gx
                if v < values[i] { values[i] = v }
                if v < values[i + 1] { values[i + 1] = v }
                if v < values[i + gridWidth] { values[i + gridWidth] = v }
                if v < values[i + gridWidth + 1] { values[i + gridWidth + 1] = v }
            }
            for piece in pieces {
                let v0 = Double(piece.startMs), v1 = Double(piece.endMs)
                guard min(v0, v1) < Double(outside) else { continue }
                let e = graph.edge(of: piece.arc).index
                let first = Int(shapeStart[e]), last = Int(shapeStart[e + 1]) - 1
                let backward = graph.isBackward(piece.arc)
                let total = max(0.01, Double(graph.edgeLengthCm[e]) / 100)
                let span = max(1e-9, piece.to - piece.from)
                let slope = (v1 - v0) / span
                // Walk the shape in travel order, sampling every half cell between `from` and `to`.
                var travelled = 0.0
                var previous = project(shapes[backward ? last : first])
                if piece.from <= 0 { mark(previous.0, previous.1, Float(v0)) }
                for k in 1...(last - first) {
                    let point = project(shapes[backward ? last - k : first + k])
                    let dx = point.0 - previous.0, dy = point.1 - previous.1
                    let length = (dx * dx + dy * dy).squareRoot()
                    let samples = Int(length / step) + 1
                    for s in 1...samples {
                        let t = Double(s) / Double(samples)
                        let fraction = min(1, (travelled + length * t) / total)
                        guard fraction >= piece.from - 1e-9, fraction <= piece.to + 1e-9 else { continue }
                        let v = Float(v0 + (fraction - piece.from) * slope)
                        if v < outside { mark(previous.0 + dx * t, previous.1 + dy * t, v) }
                    }
                    travelled += length
                    previous = point
                }
            }
        }
        let tolerance = generalizeMeters ?? spacing
        let smallest = 2 * spacing * spacing
        func unproject(_ p: PlanarPoint) -> Coordinate {
            Coordinate(latitude: lat0 + p.y / mLat, longitude: lon0 + p.x / mLon)
        }
        func ring(_ r: [PlanarPoint]) -> [Coordinate] {
            let simplified = ContourGrid.simplify(r, tolerance: tolerance).map(unproject)
            return simplified + [simplified[0]]
        }
        let polygons = levels.map { level -> [GeoPolygon] in
            let found = grid.polygons(level: Float(level), outside: outside)
            let largest = found.map { ContourGrid.signedArea($0.outer) }.max() ?? 0
            return found.filter { ContourGrid.signedArea($0.outer) >= denoise * largest - 1e-6 }.map { polygon in
                GeoPolygon(outer: ring(polygon.outer),
                           holes: polygon.holes.filter { -ContourGrid.signedArea($0) >= smallest }.map(ring))
            }
        }
        return Result(polygons: polygons, spacing: spacing)
    }
}
