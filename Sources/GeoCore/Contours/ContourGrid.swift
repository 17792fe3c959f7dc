/// A polygon in metres on a local plane: an outer ring (counter-clockwise) and its holes
/// (clockwise); rings are not closed (the last point does not repeat the first).
public struct PlanarPolygon: Sendable {
    public var outer: [PlanarPoint]
    public var holes: [[PlanarPoint]]
}

public struct PlanarPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// Values on a regular grid of points (row-major, `width` × `height`, spacing `spacing` metres,
/// point (0, 0) at `origin`), and the polygons where the value is at most a level: marching
/// squares with linear interpolation along cell sides, saddles decided by the cell's mean.
///
/// Level sets of one field are nested, so the polygons of a smaller level lie inside those of a
/// larger one. Points outside the grid count as above every level, so every ring is closed.
public struct ContourGrid: Sendable {
    public let width: Int
    public let height: Int
    public let spacing: Double
    public let origin: PlanarPoint
    public var values: [Float]

    public init(width: Int, height: Int, spacing: Double, origin: PlanarPoint, fill: Float) {
        precondition(width >= 1 && height >= 1 && spacing > 0)
        self.width = width
        self.height = height
        self.spacing = spacing
        self.origin = origin
        values = [Float](repeating: fill, count: width * height)
    }

    @inline(__always)
    public func value(_ x: Int, _ y: Int, outside: Float) -> Float {
        x < 0 || y < 0 || x >= width || y >= height ? outside : values[y * width + x]
    }

    /// The polygons enclosing every point whose value is at most `level`; `outside` is the value
    /// beyond the grid (larger than `level`). Holes smaller than `minimumHoleArea` (m²) are left out.
    public func polygons(level: Float, outside: Float, minimumHoleArea: Double = 0) -> [PlanarPolygon] {
        let rings = traceRings(level: level, outside: outside)
        var outers: [(ring: [PlanarPoint], area: Double, box: Box, holes: [[PlanarPoint]])] = []
        var holes: [[PlanarPoint]] = []
        for ring in rings where ring.count >= 3 {
            let area = Self.signedArea(ring)
            if area > 0 { outers.append((ring, area, Box(ring), [])) } else if -area >= max(minimumHoleArea, .leastNonzeroMagnitude) { holes.append(ring) }
        }
        // Each hole belongs to the smallest outer ring that contains it; the bounding box rules out
        // most rings before the point-in-ring walk.
        outers.sort { $0.area < $1.area }
        for hole in holes {
            let probe = hole[0]
            if let i = outers.firstIndex(where: { $0.box.contains(probe) && Self.contains($0.ring, probe) }) { outers[i].holes.append(hole) }
        }
        return outers.reversed().map { PlanarPolygon(outer: $0.ring, holes: $0.holes) }
    }

    struct Box {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        init(_ ring: [PlanarPoint]) {
            for p in ring { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) }
        }
        func contains(_ p: PlanarPoint) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
    }

    /// Closed boundary rings with the region on their left: outer rings come out counter-clockwise,
    /// holes clockwise.
    func traceRings(level: Float, outside: Float) -> [[PlanarPoint]] {
        // Crossing points are named by the grid side they lie on: side (x, y, vertical?) as one Int.
        func sideKey(_ x: Int, _ y: Int, _ vertical: Bool) -> Int { ((y + 1) * (width + 2) + (x + 1)) * 2 + (vertical ? 1 : 0) }
        func point(_ x: Int, _ y: Int, _ vertical: Bool) -> PlanarPoint {
            let a = value(x, y, outside: outside)
            let b = vertical ? value(x, y + 1, outside: outside) : value(x + 1, y, outside: outside)
            let t = a == b ? 0.5 : Double(max(0, min(1, (level - a) / (b - a))))
            let px = Double(x) + (vertical ? 0 : t), py = Double(y) + (vertical ? t : 0)
            return PlanarPoint(x: origin.x + px * spacing, y: origin.y + py * spacing)
        }
        // next[from side] = to side: one directed segment per crossing, region on the left; each
        // side is crossed by at most one segment leaving it.
        var next = [Int32](repeating: -1, count: (width + 3) * (height + 3) * 2)
        func segment(_ from: (Int, Int, Bool), _ to: (Int, Int, Bool)) {
            next[sideKey(from.0, from.1, from.2)] = Int32(sideKey(to.0, to.1, to.2))
        }
        // The side a key names, for the crossing point on it.
        func point(key: Int) -> PlanarPoint {
            let cell = key >> 1, row = cell / (width + 2)
            return point(cell - row * (width + 2) - 1, row - 1, key & 1 == 1)
        }
        for y in -1..<height {
            for x in -1..<width {
                // Corners: bl (x, y), br (x+1, y), tr (x+1, y+1), tl (x, y+1); y grows northwards.
                let bl = value(x, y, outside: outside) <= level, br = value(x + 1, y, outside: outside) <= level
                let tr = value(x + 1, y + 1, outside: outside) <= level, tl = value(x, y + 1, outside: outside) <= level
                let code = (bl ? 1 : 0) | (br ? 2 : 0) | (tr ? 4 : 0) | (tl ? 8 : 0)
                if code == 0 || code == 15 { continue }
                // Sides: bottom (x, y, h), right (x+1, y, v), top (x, y+1, h), left (x, y, v).
                let bottom = (x, y, false), right = (x + 1, y, true), top = (x, y + 1, false), left = (x, y, true)
                switch code {
                case 1: segment(bottom, left)
                case 2: segment(right, bottom)
                case 3: segment(right, left)
                case 4: segment(top, right)
                case 6: segment(top, bottom)
                case 7: segment(top, left)
                case 8: segment(left, top)
                case 9: segment(bottom, top)
                case 11: segment(right, top)
                case 12: segment(left, right)
                case 13: segment(bottom, right)
                case 14: segment(left, bottom)
                case 5, 10:
                    let mean = (value(x, y, outside: outside) + value(x + 1, y, outside: outside)
                                + value(x + 1, y + 1, outside: outside) + value(x, y + 1, outside: outside)) / 4
                    let joined = mean <= level
                    if code == 5 {  // bl and tr inside
                        if joined { segment(bottom, right); segment(top, left) } else { segment(bottom, left); segment(top, right) }
                    } else {        // br and tl inside
                        if joined { segment(left, bottom); segment(right, top) } else { segment(right, bottom); segment(left, top) }
                    }
                default: break
                }
            }
        }
        var rings: [[PlanarPoint]] = []
        // Rings start at their lowest side key, as a scan in key order meets them.
        for start in next.indices where next[start] >= 0 {
            var ring: [PlanarPoint] = []
            var k = start
            while next[k] >= 0 {
                ring.append(point(key: k))
                let n = Int(next[k])
                next[k] = -1
                k = n
            }
            if ring.count >= 3 { rings.append(ring) }
        }
        return rings
    }

    /// Twice the signed area is the shoelace sum; positive for counter-clockwise rings (m²).
    public static func signedArea(_ ring: [PlanarPoint]) -> Double {
        var s = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }

    /// Whether a point lies inside a ring (even-odd rule).
    public static func contains(_ ring: [PlanarPoint], _ p: PlanarPoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Douglas–Peucker simplification of a closed ring with a tolerance in metres; keeps at least
    /// four points (a ring too small for the tolerance stays as it is).
    public static func simplify(_ ring: [PlanarPoint], tolerance: Double) -> [PlanarPoint] {
        guard tolerance > 0, ring.count > 4 else { return ring }
        // Split at the point farthest from the first, so both halves are open polylines.
        var far = 0, farDistance = -1.0
        for (i, p) in ring.enumerated() {
            let d = (p.x - ring[0].x) * (p.x - ring[0].x) + (p.y - ring[0].y) * (p.y - ring[0].y)
            if d > farDistance { farDistance = d; far = i }
        }
        var keep = [Bool](repeating: false, count: ring.count + 1)
        keep[0] = true; keep[far] = true; keep[ring.count] = true
        let closed = ring + [ring[0]]
        var stack = [(0, far), (far, ring.count)]
        let t2 = tolerance * tolerance
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            var best = -1.0, index = -1
            for i in (a + 1)..<b {
                let d = segmentDistanceSquared(closed[i], closed[a], closed[b])
                if d > best { best = d; index = i }
            }
            if best > t2 { keep[index] = true; stack.append((a, index)); stack.append((index, b)) }
        }
        let kept = (0..<ring.count).filter { keep[$0] }.map { ring[$0] }
        return kept.count >= 4 ? kept : ring
    }

    static func segmentDistanceSquared(_ p: PlanarPoint, _ a: PlanarPoint, _ b: PlanarPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
        t = max(0, min(1, t))
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        return ex * ex + ey * ey
    }
}
