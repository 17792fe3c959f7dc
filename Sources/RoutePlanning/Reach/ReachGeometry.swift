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
    func contours(_ reached: [TimeDependentOneToAll.Piece], levels: [Double], denoise: Double, generalizeMeters: Double?) -> Result {
        let top = levels[levels.count - 1]
        // The searches list pieces in the order they reached them, all over the map; in edge order the
        // edges and shapes are read front to back, which is most of this function's time.
        let pieces = Self.inEdgeOrder(reached, graph: graph)
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
            let (x0, y0) = project(nodes[graph.tail(of: piece.arc).index]), (x1, y1) = project(nodes[graph.head(of: piece.arc).index])
            minX = min(minX, x0, x1); maxX = max(maxX, x0, x1); minY = min(minY, y0, y1); maxY = max(maxY, y0, y1)
        }
        let spacing = max(minimumSpacing, max(maxX - minX, maxY - minY) / Self.maxPointsPerSide)
        let margin = 3 * spacing
        let origin = PlanarPoint(x: minX - margin, y: minY - margin)
        let width = Int((maxX - minX + 2 * margin) / spacing) + 2, height = Int((maxY - minY + 2 * margin) / spacing) + 2
        let outside = Float(top * 1.25 + 1)
        var grid = ContourGrid(width: width, height: height, spacing: spacing, origin: origin, fill: outside)
        // Samples are taken in grid units: every half cell along each piece, and at the shape's points
        // only where the half cell ends there, so a densely drawn street costs no more than a straight one.
        let inverse = 1 / spacing
        let gx0 = origin.x * inverse, gy0 = origin.y * inverse
        let lastX = Double(width - 1), lastY = Double(height - 1)
        // Grid units straight from the stored integers: one multiply and one subtraction an axis.
        let kx = 1e-7 * mLon * inverse, ky = 1e-7 * mLat * inverse
        let cx = lon0 * mLon * inverse + gx0, cy = lat0 * mLat * inverse + gy0
        @inline(__always) func cell(_ c: Coordinate) -> (Double, Double) {
            (Double(c.longitudeE7) * kx - cx, Double(c.latitudeE7) * ky - cy)
        }
        let gridWidth = width
        grid.values.withUnsafeMutableBufferPointer { values in
            /// The first of the four grid points around a point (in grid units), -1 off the grid.
            @inline(__always) func corner(_ fx: Double, _ fy: Double) -> Int {
                fx >= 0 && fy >= 0 && fx < lastX && fy < lastY ? Int(fy) * gridWidth + Int(fx) : -1
            }
            /// Lowers the four grid points from `i` to `v`.
            @inline(__always) func mark(_ i: Int, _ v: Float) {
                if v < values[i] { values[i] = v }
                if v < values[i + 1] { values[i + 1] = v }
                if v < values[i + gridWidth] { values[i + gridWidth] = v }
                if v < values[i + gridWidth + 1] { values[i + gridWidth + 1] = v }
            }
            // A two-way road reached from both ends has a piece per direction: its shape is walked once, each
            // sample taking the lowest of the pieces' values there.
            var lines: [Line] = []
            var p = 0
            while p < pieces.count {
                let e = graph.edge(of: pieces[p].arc).index
                let total = max(0.0001, Double(graph.edgeLengthCm[e]) / 100 * inverse)
                lines.removeAll(keepingCapacity: true)
                while p < pieces.count, graph.edge(of: pieces[p].arc).index == e {
                    let piece = pieces[p]
                    p += 1
                    let v0 = Double(piece.startMs), v1 = Double(piece.endMs)
                    guard min(v0, v1) < Double(outside) else { continue }
                    lines.append(Line(piece, total: total, backward: graph.isBackward(piece.arc)))
                }
                guard !lines.isEmpty else { continue }
                lines.withUnsafeBufferPointer { group in
                    let first = Int(shapeStart[e]), last = Int(shapeStart[e + 1]) - 1
                    // Samples in one cell lower the same four points: of each run of them only the lowest
                    // value is written, which leaves the grid as marking every one would.
                    var runCorner = -1, runValue = Float.infinity
                    @inline(__always) func sample(_ x: Double, _ y: Double, at s: Double) {
                        var v = Float.infinity
                        for line in group { v = min(v, line.value(at: min(s, total))) }
                        let i = corner(x, y)
                        guard v < outside, i >= 0 else { return }
                        if i == runCorner { runValue = min(runValue, v); return }
                        if runCorner >= 0 { mark(runCorner, runValue) }
                        (runCorner, runValue) = (i, v)
                    }
                    // Walk the shape from the edge's start; `s` is the distance from there in grid units.
                    var travelled = 0.0, nextSample = 0.0
                    var previous = cell(shapes[first])
                    for k in (first + 1)...last {
                        let point = cell(shapes[k])
                        let dx = point.0 - previous.0, dy = point.1 - previous.1
                        let length = (dx * dx + dy * dy).squareRoot()
                        if nextSample <= travelled + length {
                            // Most pieces of a shape are shorter than a half cell: divide only where one is sampled.
                            let perLength = length > 0 ? 1 / length : 0
                            repeat {
                                let t = (nextSample - travelled) * perLength
                                sample(previous.0 + dx * t, previous.1 + dy * t, at: nextSample)
                                nextSample += 0.5
                            } while nextSample <= travelled + length
                        }
                        travelled += length
                        previous = point
                    }
                    sample(previous.0, previous.1, at: travelled)
                    if runCorner >= 0 { mark(runCorner, runValue) }
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
            let found = grid.polygons(level: Float(level), outside: outside, minimumHoleArea: smallest)
            let areas = found.map { ContourGrid.signedArea($0.outer) }
            let largest = areas.max() ?? 0
            return found.indices.filter { areas[$0] >= denoise * largest - 1e-6 }.map { found[$0] }.map { polygon in
                GeoPolygon(outer: ring(polygon.outer),
                           holes: polygon.holes.map(ring))
            }
        }
        return Result(polygons: polygons, spacing: spacing)
    }

    /// A piece's value along its edge: linear in the distance from the arc's start, within the part reached.
    struct Line {
        let offset: Double, perUnit: Double, lower: Double, upper: Double, total: Double, backward: Bool

        init(_ piece: TimeDependentOneToAll.Piece, total: Double, backward: Bool) {
            let v0 = Double(piece.startMs), v1 = Double(piece.endMs)
            let slope = (v1 - v0) / max(1e-9, piece.to - piece.from)
            perUnit = slope / total
            offset = v0 - piece.from * slope
            lower = piece.from * total - 1e-9
            upper = piece.to * total + 1e-9
            self.total = total
            self.backward = backward
        }

        /// The value at `s` grid units from the edge's start (infinity outside the part reached).
        @inline(__always) func value(at s: Double) -> Float {
            let along = backward ? total - s : s
            guard along >= lower, along <= upper else { return .infinity }
            return Float(offset + along * perUnit)
        }
    }

    /// The pieces sorted by edge (both directions of a road side by side): a least-significant-digit radix
    /// sort of (edge, position) keys, 11 bits a pass, so a country's edge numbers take three passes over the
    /// reached pieces only.
    static func inEdgeOrder(_ pieces: [TimeDependentOneToAll.Piece], graph: RoadGraph) -> [TimeDependentOneToAll.Piece] {
        guard pieces.count > 1 else { return pieces }
        var keys = pieces.indices.map { UInt64(graph.edge(of: pieces[$0].arc).index) << 32 | UInt64($0) }
        let largest = (keys.max() ?? 0) >> 32
        var spare = [UInt64](repeating: 0, count: keys.count)
        var shift: UInt64 = 32
        while shift == 32 || largest >> (shift - 32) > 0 {
            var counts = [Int](repeating: 0, count: 2049)
            for k in keys { counts[Int((k >> shift) & 2047) + 1] += 1 }
            for d in 1...2048 { counts[d] += counts[d - 1] }
            for k in keys {
                let d = Int((k >> shift) & 2047)
                spare[counts[d]] = k
                counts[d] += 1
            }
            swap(&keys, &spare)
            shift += 11
        }
        return keys.map { pieces[Int($0 & 0xffff_ffff)] }
    }
}
