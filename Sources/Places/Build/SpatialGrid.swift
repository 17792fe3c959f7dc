import GeoCore

/// A uniform grid over points, for nearest-neighbour questions during the build.
struct SpatialGrid {
    let cellLatitudeE7: Int64
    let cellLongitudeE7: Int64
    let cellMeters: Double
    let cosLatitude: Double
    private(set) var cells: [Int64: [Int32]] = [:]
    private(set) var positions: [Coordinate] = []

    init(cellMeters: Double, referenceLatitude: Double) {
        self.cellMeters = cellMeters
        cosLatitude = max(0.05, Geodesy.cosine(ofLatitude: referenceLatitude))
        cellLatitudeE7 = max(1, Int64(cellMeters / Geodesy.metersPerDegreeLatitude * 1e7))
        cellLongitudeE7 = max(1, Int64(Double(cellLatitudeE7) / cosLatitude))
    }

    private func cell(_ c: Coordinate) -> (Int64, Int64) {
        (Int64(c.latitudeE7).floorDiv(cellLatitudeE7), Int64(c.longitudeE7).floorDiv(cellLongitudeE7))
    }

    private static func key(_ y: Int64, _ x: Int64) -> Int64 { (y << 32) ^ (x & 0xFFFF_FFFF) }

    /// Adds a point; its id is its insertion order.
    @discardableResult
    mutating func insert(_ c: Coordinate) -> Int32 {
        let id = Int32(positions.count)
        positions.append(c)
        let (y, x) = cell(c)
        cells[Self.key(y, x), default: []].append(id)
        return id
    }

    /// The nearest accepted point within `maxMeters`.
    func nearest(to p: Coordinate, maxMeters: Double, accept: (Int32) -> Bool = { _ in true }) -> (id: Int32, meters: Double)? {
        let (cy, cx) = cell(p)
        let rings = Int(min(64, (maxMeters / cellMeters).rounded(.up))) + 1
        var best: (id: Int32, meters: Double)?
        for r in 0...rings {
            if let b = best, b.meters < Double(r - 1) * cellMeters { break }
            for y in (cy - Int64(r))...(cy + Int64(r)) {
                for x in (cx - Int64(r))...(cx + Int64(r)) where max(abs(y - cy), abs(x - cx)) == Int64(r) {
                    for id in cells[Self.key(y, x)] ?? [] {
                        let d = Geodesy.approximateDistanceMeters(p, positions[Int(id)], cosLatitude: cosLatitude)
                        if d <= maxMeters && d < (best?.meters ?? .infinity) && accept(id) { best = (id, d) }
                    }
                }
            }
        }
        return best
    }

    /// Every point within `maxMeters`, unordered.
    func within(_ p: Coordinate, meters maxMeters: Double) -> [(id: Int32, meters: Double)] {
        let (cy, cx) = cell(p)
        let r = Int64(min(64, (maxMeters / cellMeters).rounded(.up)))
        var out: [(id: Int32, meters: Double)] = []
        for y in (cy - r)...(cy + r) {
            for x in (cx - r)...(cx + r) {
                for id in cells[Self.key(y, x)] ?? [] {
                    let d = Geodesy.approximateDistanceMeters(p, positions[Int(id)], cosLatitude: cosLatitude)
                    if d <= maxMeters { out.append((id, d)) }
                }
            }
        }
        return out
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (grid cells west of 0° and south of the equator).
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
