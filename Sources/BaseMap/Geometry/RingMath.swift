/// Areas, orientation and containment of closed rings (first point == last point) in world units.
enum RingMath {
    /// Twice the signed area; positive for rings that run clockwise on a north-up map (y grows south).
    static func doubleSignedArea(_ ring: [MercatorPoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        let x0 = Double(ring[0].x), y0 = Double(ring[0].y)
        for i in 0..<(ring.count - 1) {
            let ax = Double(ring[i].x) - x0, ay = Double(ring[i].y) - y0
            let bx = Double(ring[i + 1].x) - x0, by = Double(ring[i + 1].y) - y0
            sum += ax * by - bx * ay
        }
        return sum
    }

    /// Even-odd ray casting.
    static func contains(_ ring: [MercatorPoint], _ p: MercatorPoint) -> Bool {
        var inside = false
        let px = Double(p.x), py = Double(p.y)
        var j = ring.count - 1
        for i in 0..<ring.count {
            let xi = Double(ring[i].x), yi = Double(ring[i].y)
            let xj = Double(ring[j].x), yj = Double(ring[j].y)
            if (yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    static func box(_ points: [MercatorPoint]) -> MercatorBox {
        var box = MercatorBox.empty
        for p in points { box.formUnion(p) }
        return box
    }

    /// Orients every ring for nonzero filling: rings nested an even number of times inside the
    /// others run clockwise (outer), odd ones counter-clockwise (holes). OSM does not promise any
    /// orientation, so this is what lets a renderer fill many features in one path.
    static func normalizeOrientation(_ rings: inout [[MercatorPoint]]) {
        let boxes = rings.map(box)
        let areas = rings.map { abs(doubleSignedArea($0)) }
        for i in rings.indices {
            var depth = 0
            let probe = rings[i][0]
            for j in rings.indices where j != i && areas[j] > areas[i] {
                let b = boxes[j]
                guard b.contains(probe), b.minX <= boxes[i].minX, b.maxX >= boxes[i].maxX,
                      b.minY <= boxes[i].minY, b.maxY >= boxes[i].maxY else { continue }
                if contains(rings[j], probe) { depth += 1 }
            }
            let clockwise = doubleSignedArea(rings[i]) > 0
            if clockwise != (depth % 2 == 0) { rings[i].reverse() }
        }
    }
}
