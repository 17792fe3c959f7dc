import GeoCore

/// A uniform grid over points, for nearest-neighbour questions during the build. Built once from all
/// its points and stored flat (cell keys sorted, with each cell's point ids in one array), so a
/// million points cost a few tens of megabytes rather than a dictionary of arrays.
struct SpatialGrid {
    let cellLatitudeE7: Int64
    let cellLongitudeE7: Int64
    let cellMeters: Double
    let cosLatitude: Double
    let positions: [Coordinate]
    private let cellKeys: [Int64]
    private let cellStarts: [Int32]
    private let ids: [Int32]

    /// Point `i` of `positions` has id `i`.
    init(_ positions: [Coordinate], cellMeters: Double, referenceLatitude: Double? = nil) {
        self.cellMeters = cellMeters
        self.positions = positions
        let cosLatitude = max(0.05, Geodesy.cosine(ofLatitude: referenceLatitude ?? positions.first?.latitude ?? 0))
        self.cosLatitude = cosLatitude
        let cellLatitudeE7 = max(1, Int64(cellMeters / Geodesy.metersPerDegreeLatitude * 1e7))
        self.cellLatitudeE7 = cellLatitudeE7
        let cellLongitudeE7 = max(1, Int64(Double(cellLatitudeE7) / cosLatitude))
        self.cellLongitudeE7 = cellLongitudeE7
        var order = positions.indices.map { (key: Self.key(Self.cell(positions[$0], cellLatitudeE7, cellLongitudeE7)), id: Int32($0)) }
        order.sort { ($0.key, $0.id) < ($1.key, $1.id) }
        var keys: [Int64] = [], starts: [Int32] = []
        for (i, entry) in order.enumerated() where keys.last != entry.key {
            keys.append(entry.key)
            starts.append(Int32(i))
        }
        starts.append(Int32(order.count))
        cellKeys = keys
        cellStarts = starts
        ids = order.map(\.id)
    }

    private static func cell(_ c: Coordinate, _ dy: Int64, _ dx: Int64) -> (Int64, Int64) {
        (Int64(c.latitudeE7).floorDiv(dy), Int64(c.longitudeE7).floorDiv(dx))
    }

    private func cell(_ c: Coordinate) -> (Int64, Int64) { Self.cell(c, cellLatitudeE7, cellLongitudeE7) }

    private static func key(_ yx: (Int64, Int64)) -> Int64 { (yx.0 << 32) ^ (yx.1 & 0xFFFF_FFFF) }

    /// The point ids of one cell.
    private func members(_ y: Int64, _ x: Int64) -> ArraySlice<Int32> {
        let key = Self.key((y, x))
        var lo = 0, hi = cellKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cellKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        guard lo < cellKeys.count, cellKeys[lo] == key else { return [] }
        return ids[Int(cellStarts[lo])..<Int(cellStarts[lo + 1])]
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
                    for id in members(y, x) {
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
                for id in members(y, x) {
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
