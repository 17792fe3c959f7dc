/// Clips rings and polylines against an axis-parallel half-plane, in world units.
///
/// The builder cuts large features along grid-cell edges by applying this recursively. Crossing
/// points are computed from the segment's endpoints in a fixed order, so the two sides of a cut
/// get bit-identical points and cut lines join without a seam.
struct HalfPlane {
    enum Axis { case x, y }
    var axis: Axis
    var limit: Double
    /// True keeps the side with values ≤ limit, false the side with values ≥ limit.
    var keepsLower: Bool

    @inline(__always)
    func value(_ p: MercatorPoint) -> Double { axis == .x ? Double(p.x) : Double(p.y) }

    @inline(__always)
    func inside(_ p: MercatorPoint) -> Bool { keepsLower ? value(p) <= limit : value(p) >= limit }

    func crossing(_ a: MercatorPoint, _ b: MercatorPoint) -> MercatorPoint {
        let (p, q) = (a.x, a.y) < (b.x, b.y) ? (a, b) : (b, a)
        let vp = value(p), vq = value(q)
        let t = vq == vp ? 0 : (limit - vp) / (vq - vp)
        let x = Double(p.x) + (Double(q.x) - Double(p.x)) * t
        let y = Double(p.y) + (Double(q.y) - Double(p.y)) * t
        return axis == .x ? MercatorPoint(x: MercatorPoint.quantize(limit), y: MercatorPoint.quantize(y))
                          : MercatorPoint(x: MercatorPoint.quantize(x), y: MercatorPoint.quantize(limit))
    }

    /// Sutherland–Hodgman for one closed ring; returns a closed ring or nil when nothing is left.
    func clipRing(_ ring: [MercatorPoint]) -> [MercatorPoint]? {
        guard ring.count >= 4 else { return nil }
        var output: [MercatorPoint] = []
        output.reserveCapacity(ring.count + 4)
        let n = ring.count - 1  // the last point repeats the first
        var previous = ring[n - 1]
        var previousInside = inside(previous)
        for i in 0..<n {
            let current = ring[i]
            let currentInside = inside(current)
            if currentInside {
                if !previousInside { output.append(crossing(previous, current)) }
                output.append(current)
            } else if previousInside {
                output.append(crossing(previous, current))
            }
            previous = current
            previousInside = currentInside
        }
        guard output.count >= 3 else { return nil }
        output.append(output[0])
        return output
    }

    /// The pieces of a polyline on the kept side.
    func clipLine(_ line: [MercatorPoint]) -> [[MercatorPoint]] {
        guard line.count >= 2 else { return [] }
        var pieces: [[MercatorPoint]] = []
        var current: [MercatorPoint] = []
        var previousInside = inside(line[0])
        if previousInside { current.append(line[0]) }
        for i in 1..<line.count {
            let p = line[i]
            let pInside = inside(p)
            if pInside {
                if !previousInside { current.append(crossing(line[i - 1], p)) }
                current.append(p)
            } else if previousInside {
                current.append(crossing(line[i - 1], p))
                if current.count >= 2 { pieces.append(current) }
                current = []
            }
            previousInside = pInside
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }
}
