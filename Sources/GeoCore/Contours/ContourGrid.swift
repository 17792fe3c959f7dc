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
        // most rings before the point-in-ring walk, which on a large ring reads one band of it.
        outers.sort { $0.area < $1.area }
        var bands: [Int: RingBands] = [:]
        for hole in holes {
            let probe = hole[0]
            for i in outers.indices where outers[i].box.contains(probe) {
                let inside: Bool
                if outers[i].ring.count < RingBands.smallestRing { inside = Self.contains(outers[i].ring, probe) } else {
                    if bands[i] == nil { bands[i] = RingBands(outers[i].ring, bandHeight: spacing) }
                    inside = bands[i]!.contains(probe)
                }
                if inside { outers[i].holes.append(hole); break }
            }
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

    /// A ring's sides by horizontal band, for point-in-ring tests on rings of many points: only a
    /// side spanning the point's y can cross the ray from it, and every such side is listed in the
    /// point's band, so the even-odd count (and `contains`'s answer) is the same.
    struct RingBands {
        static let smallestRing = 64
        let ring: [PlanarPoint]
        let minY: Double, bandHeight: Double
        /// Per band, the index `i` of each side (`ring[i]`, `ring[i - 1]`) that reaches into it.
        var sides: [[Int32]]

        init(_ ring: [PlanarPoint], bandHeight: Double) {
            self.ring = ring
            self.bandHeight = bandHeight
            let ys = ring.map(\.y)
            minY = ys.min() ?? 0
            sides = [[Int32]](repeating: [], count: Int(((ys.max() ?? 0) - minY) / bandHeight) + 1)
            for i in ring.indices {
                let a = ring[i].y, b = ring[i == 0 ? ring.count - 1 : i - 1].y
                for band in Int((min(a, b) - minY) / bandHeight)...Int((max(a, b) - minY) / bandHeight) { sides[band].append(Int32(i)) }
            }
        }

        func contains(_ p: PlanarPoint) -> Bool {
            let offset = (p.y - minY) / bandHeight
            guard offset >= 0, offset < Double(sides.count) else { return false }
            var inside = false
            for i32 in sides[Int(offset)] {
                let i = Int(i32)
                let a = ring[i], b = ring[i == 0 ? ring.count - 1 : i - 1]
                if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            }
            return inside
        }
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
        // Which points are inside, with a ring of outside points around the grid: point (x, y) at
        // (y + 1) × (width + 2) + x + 1, so no cell's corner needs a bounds test.
        let stride = width + 2
        var inside = [UInt8](repeating: 0, count: stride * (height + 2))
        for y in 0..<height {
            for x in 0..<width where values[y * width + x] <= level { inside[(y + 1) * stride + x + 1] = 1 }
        }
        for y in -1..<height {
            for x in -1..<width {
                // Corners: bl (x, y), br (x+1, y), tr (x+1, y+1), tl (x, y+1); y grows northwards.
                let i = (y + 1) * stride + x + 1
                let code = Int(inside[i] | inside[i + 1] << 1 | inside[i + stride + 1] << 2 | inside[i + stride] << 3)
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
