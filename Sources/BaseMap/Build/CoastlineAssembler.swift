/// Turns `natural=coastline` ways into the rings of the sea inside the extract's box.
///
/// OSM draws coastlines with the land on the left, so the sea is on the right. Chains cut by the
/// extract's edge are closed by walking clockwise along the box from where a chain leaves it to
/// where the next one enters (the sea stays on the right all the way). Closed islands keep their
/// counter-clockwise direction, so with nonzero filling they become holes in the sea.
enum CoastlineAssembler {
    /// Joins ways end to start by node ID (coastlines are never reversed).
    static func chains(from ways: [[Int64]]) -> [[Int64]] {
        var chains = ways.filter { $0.count >= 2 }
        var alive = [Bool](repeating: true, count: chains.count)
        var byStart: [Int64: Int] = [:]
        for (i, chain) in chains.enumerated() where byStart[chain[0]] == nil { byStart[chain[0]] = i }
        for i in chains.indices where alive[i] {
            for _ in 0..<chains.count {
                guard let last = chains[i].last, chains[i].first != last,
                      let j = byStart[last], j != i, alive[j] else { break }
                chains[i].append(contentsOf: chains[j].dropFirst())
                alive[j] = false
                if byStart[chains[j][0]] == j { byStart[chains[j][0]] = nil }
            }
        }
        return chains.indices.filter { alive[$0] }.map { chains[$0] }
    }

    /// The sea's rings (clockwise water, counter-clockwise islands) for chains of points.
    static func seaRings(chains: [[MercatorPoint]], box: MercatorBox) -> [[MercatorPoint]] {
        guard !box.isEmpty, box.maxX > box.minX, box.maxY > box.minY else { return [] }
        var rings: [[MercatorPoint]] = []
        var portions: [[MercatorPoint]] = []
        for chain in chains where chain.count >= 2 {
            let isClosed = chain.count >= 4 && chain.first == chain.last
            if isClosed && chain.allSatisfy(box.contains) {
                rings.append(chain)
                continue
            }
            var pieces = clip(chain, to: box)
            if isClosed, pieces.count >= 2, box.contains(chain[0]),
               let last = pieces.last, last.last == chain[0] {
                pieces[0] = last + pieces[0].dropFirst()
                pieces.removeLast()
            }
            // A chain that stops inside the box (the extract cut the coast there) is extended to
            // the nearest edge later. A short stub that stops inside and then leaves the box would
            // be extended into a loop with the sea on the wrong side: it is left out.
            let stubLength = perimeter(box) * 0.02
            let pieceCount = pieces.count
            pieces.removeAll { piece in
                let dangles = !isClosed && (piece.first == chain.first || piece.last == chain.last)
                return pieceCount > 1 && dangles && length(piece) < stubLength
            }
            portions.append(contentsOf: pieces)
        }
        if portions.isEmpty {
            if rings.contains(where: { RingMath.doubleSignedArea($0) < 0 }) {
                rings.append(boxRing(box))
            }
            return rings
        }
        rings.append(contentsOf: closeAlongBox(portions, box: box))
        return rings
    }

    static func perimeter(_ box: MercatorBox) -> Double {
        2 * ((Double(box.maxX) - Double(box.minX)) + (Double(box.maxY) - Double(box.minY)))
    }

    static func length(_ line: [MercatorPoint]) -> Double {
        var total = 0.0
        for i in line.indices.dropFirst() {
            let dx = Double(line[i].x) - Double(line[i - 1].x), dy = Double(line[i].y) - Double(line[i - 1].y)
            total += (dx * dx + dy * dy).squareRoot()
        }
        return total
    }

    static func boxRing(_ box: MercatorBox) -> [MercatorPoint] {
        [MercatorPoint(x: box.minX, y: box.minY), MercatorPoint(x: box.maxX, y: box.minY),
         MercatorPoint(x: box.maxX, y: box.maxY), MercatorPoint(x: box.minX, y: box.maxY),
         MercatorPoint(x: box.minX, y: box.minY)]
    }

    static func clip(_ chain: [MercatorPoint], to box: MercatorBox) -> [[MercatorPoint]] {
        let planes = [HalfPlane(axis: .x, limit: Double(box.minX), keepsLower: false),
                      HalfPlane(axis: .x, limit: Double(box.maxX), keepsLower: true),
                      HalfPlane(axis: .y, limit: Double(box.minY), keepsLower: false),
                      HalfPlane(axis: .y, limit: Double(box.maxY), keepsLower: true)]
        var pieces = [chain]
        for plane in planes { pieces = pieces.flatMap(plane.clipLine) }
        return pieces
    }

    /// Position along the box's boundary, clockwise from the north-west corner, of the boundary
    /// point nearest to `p` (and that point).
    static func perimeterPosition(_ p: MercatorPoint, _ box: MercatorBox) -> (t: Double, point: MercatorPoint) {
        let x = Double(p.x), y = Double(p.y)
        let minX = Double(box.minX), minY = Double(box.minY), maxX = Double(box.maxX), maxY = Double(box.maxY)
        let width = maxX - minX, height = maxY - minY
        let top = y - minY, right = maxX - x, bottom = maxY - y, left = x - minX
        let nearest = min(top, right, bottom, left)
        if nearest == top {
            return (min(width, max(0, x - minX)), MercatorPoint(x: p.x, y: box.minY))
        } else if nearest == right {
            return (width + min(height, max(0, y - minY)), MercatorPoint(x: box.maxX, y: p.y))
        } else if nearest == bottom {
            return (width + height + min(width, max(0, maxX - x)), MercatorPoint(x: p.x, y: box.maxY))
        } else {
            return (2 * width + height + min(height, max(0, maxY - y)), MercatorPoint(x: box.minX, y: p.y))
        }
    }

    static func closeAlongBox(_ portions: [[MercatorPoint]], box: MercatorBox) -> [[MercatorPoint]] {
        let width = Double(box.maxX) - Double(box.minX), height = Double(box.maxY) - Double(box.minY)
        let perimeter = 2 * (width + height)
        let corners: [(t: Double, point: MercatorPoint)] = [
            (0, MercatorPoint(x: box.minX, y: box.minY)), (width, MercatorPoint(x: box.maxX, y: box.minY)),
            (width + height, MercatorPoint(x: box.maxX, y: box.maxY)), (2 * width + height, MercatorPoint(x: box.minX, y: box.maxY)),
        ]
        // Every portion starts and ends on the boundary; chains that stop inside the box (data
        // missing from the extract) are extended straight to the nearest edge.
        var pieces: [(points: [MercatorPoint], start: Double, end: Double)] = []
        for var points in portions {
            let (startT, startPoint) = perimeterPosition(points[0], box)
            if startPoint != points[0] { points.insert(startPoint, at: 0) }
            let (endT, endPoint) = perimeterPosition(points[points.count - 1], box)
            if endPoint != points[points.count - 1] { points.append(endPoint) }
            pieces.append((points, startT, endT))
        }
        func clockwiseDistance(_ from: Double, _ to: Double) -> Double {
            let d = (to - from).truncatingRemainder(dividingBy: perimeter)
            return d < 0 ? d + perimeter : d
        }
        var used = [Bool](repeating: false, count: pieces.count)
        var rings: [[MercatorPoint]] = []
        for first in pieces.indices where !used[first] {
            var ring: [MercatorPoint] = []
            var current = first
            var closed = false
            for _ in 0...pieces.count {
                used[current] = true
                ring.append(contentsOf: pieces[current].points)
                let endT = pieces[current].end
                var next = -1
                var best = Double.infinity
                for j in pieces.indices where !used[j] || j == first {
                    let d = clockwiseDistance(endT, pieces[j].start)
                    if d < best { best = d; next = j }
                }
                guard next >= 0 else { break }
                let passed = corners.map { (clockwiseDistance(endT, $0.t), $0.point) }
                    .filter { $0.0 > 0 && $0.0 < best }.sorted { $0.0 < $1.0 }
                ring.append(contentsOf: passed.map(\.1))
                if next == first { closed = true; break }
                current = next
            }
            guard closed else { continue }
            ring.append(ring[0])
            if ring.count >= 4 { rings.append(ring) }
        }
        return rings
    }
}
