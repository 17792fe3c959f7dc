public import GeoCore
public import BinaryIO

/// A uniform grid over the graph's shape segments, stored as sorted cell keys with CSR entries,
/// so finding the nearest road is a handful of binary searches rather than a scan.
///
/// Cells are about 100 m square. Long segments (ferries, motorways) are rasterised along their
/// line, not their bounding box, so one segment fills only the cells it passes through.
public struct SnapGrid: @unchecked Sendable {
    /// [cell height E7, cell width E7, origin latitude E7, origin longitude E7]
    let params: UnsafeBufferPointer<Int64>
    let cellKeys: UnsafeBufferPointer<UInt64>
    let cellStart: UnsafeBufferPointer<UInt32>
    /// Shape index of each segment's first point (segment = point i → i + 1 of one edge).
    let entries: UnsafeBufferPointer<UInt32>

    init(store: ColumnSet, prefix: String) throws(ColumnSetError) {
        params = try store.column(prefix + "snap.params")
        cellKeys = try store.column(prefix + "snap.cellKeys")
        cellStart = try store.column(prefix + "snap.cellStart")
        entries = try store.column(prefix + "snap.entries")
    }

    static let cellHeightE7: Int64 = 9_000  // 0.0009° ≈ 100 m

    static func columns(shape: [Coordinate], edgeShapeStart: [UInt32], into out: inout some ColumnSink, prefix: String) {
        var bounds = BoundingBox.empty
        for c in shape { bounds.formUnion(c) }
        if bounds.isEmpty { bounds = BoundingBox(minLatitudeE7: 0, minLongitudeE7: 0, maxLatitudeE7: 0, maxLongitudeE7: 0) }
        let cosLat = max(0.05, Geodesy.cosine(ofLatitude: bounds.center.latitude))
        let cellHeight = cellHeightE7
        let cellWidth = Int64((Double(cellHeight) / cosLat).rounded())
        let originLat = Int64(bounds.minLatitudeE7) - cellHeight, originLon = Int64(bounds.minLongitudeE7) - cellWidth
        func key(_ lat: Int64, _ lon: Int64) -> UInt64 {
            UInt64((lat - originLat) / cellHeight) << 32 | UInt64((lon - originLon) / cellWidth)
        }
        var pairs: [(key: UInt64, segment: UInt32)] = []
        pairs.reserveCapacity(shape.count * 2)
        for e in 0..<(edgeShapeStart.count - 1) {
            let start = Int(edgeShapeStart[e]), end = Int(edgeShapeStart[e + 1])
            guard end - start >= 2 else { continue }
            for i in start..<(end - 1) {
                let a = shape[i], b = shape[i + 1]
                let dLat = Int64(b.latitudeE7) - Int64(a.latitudeE7), dLon = Int64(b.longitudeE7) - Int64(a.longitudeE7)
                let steps = Int(max(abs(dLat) * 2 / cellHeight, abs(dLon) * 2 / cellWidth)) + 1
                var last: UInt64 = .max
                for s in 0...steps {
                    let k = key(Int64(a.latitudeE7) + dLat * Int64(s) / Int64(steps), Int64(a.longitudeE7) + dLon * Int64(s) / Int64(steps))
                    if k != last { pairs.append((k, UInt32(i))); last = k }
                }
            }
        }
        pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.segment < $1.segment }
        var keys: [UInt64] = [], starts: [UInt32] = [], entries: [UInt32] = []
        for p in pairs {
            if keys.last != p.key {
                keys.append(p.key)
                starts.append(UInt32(entries.count))
            } else if entries.last == p.segment {
                continue
            }
            entries.append(p.segment)
        }
        starts.append(UInt32(entries.count))
        out.add(prefix + "snap.params", [cellHeight, cellWidth, originLat, originLon])
        out.add(prefix + "snap.cellKeys", keys)
        out.add(prefix + "snap.cellStart", starts)
        out.add(prefix + "snap.entries", entries)
    }

    /// Calls `visit` with every segment stored in cells within `ring` cells of `point`'s cell,
    /// ring by ring; `visit` returns false to stop. Returns the metres a ring spans, for stopping rules.
    func forEachSegment(near point: Coordinate, maxRings: Int, _ visit: (_ ring: Int, _ segment: UInt32) -> Bool) {
        guard params.count == 4, !cellKeys.isEmpty else { return }
        let cellHeight = params[0], cellWidth = params[1], originLat = params[2], originLon = params[3]
        let cy = (Int64(point.latitudeE7) - originLat).floorDivided(by: cellHeight)
        let cx = (Int64(point.longitudeE7) - originLon).floorDivided(by: cellWidth)
        for ring in 0...maxRings {
            for dy in -ring...ring {
                let y = cy + Int64(dy)
                let xs: [Int64] = abs(dy) == ring ? Array((cx - Int64(ring))...(cx + Int64(ring))) : [cx - Int64(ring), cx + Int64(ring)]
                for x in xs where x >= 0 && y >= 0 {
                    let k = UInt64(y) << 32 | UInt64(x)
                    guard let c = cellIndex(k) else { continue }
                    for i in Int(cellStart[c])..<Int(cellStart[c + 1]) where !visit(ring, entries[i]) { return }
                }
            }
        }
    }

    /// Calls `visit` with every segment stored in the cells that overlap the square of
    /// `radiusMeters` around `point` (a segment in several of them comes once per cell).
    func forEachSegment(within radiusMeters: Double, of point: Coordinate, _ visit: (_ segment: UInt32) -> Void) {
        guard params.count == 4, !cellKeys.isEmpty else { return }
        let cellHeight = params[0], cellWidth = params[1], originLat = params[2], originLon = params[3]
        let dLat = Int64((radiusMeters / Geodesy.metersPerDegreeLatitude * 1e7).rounded(.up))
        let dLon = Int64((Double(dLat) / max(0.05, Geodesy.cosine(ofLatitude: point.latitude))).rounded(.up))
        let lat = Int64(point.latitudeE7), lon = Int64(point.longitudeE7)
        let y0 = max(0, (lat - dLat - originLat).floorDivided(by: cellHeight)), y1 = (lat + dLat - originLat).floorDivided(by: cellHeight)
        let x0 = max(0, (lon - dLon - originLon).floorDivided(by: cellWidth)), x1 = (lon + dLon - originLon).floorDivided(by: cellWidth)
        guard y0 <= y1, x0 <= x1 else { return }
        for y in y0...y1 {
            // Keys of one row are consecutive: one binary search finds the row's first cell.
            var c = lowerBound(UInt64(y) << 32 | UInt64(x0))
            let last = UInt64(y) << 32 | UInt64(x1)
            while c < cellKeys.count && cellKeys[c] <= last {
                for i in Int(cellStart[c])..<Int(cellStart[c + 1]) { visit(entries[i]) }
                c += 1
            }
        }
    }

    /// The metres one cell spans (its smaller side), for ring-distance bounds.
    var cellSizeMeters: Double { Double(Self.cellHeightE7) * 1e-7 * Geodesy.metersPerDegreeLatitude }

    private func cellIndex(_ key: UInt64) -> Int? {
        let lo = lowerBound(key)
        return lo < cellKeys.count && cellKeys[lo] == key ? lo : nil
    }

    /// The first cell whose key is not below `key`.
    private func lowerBound(_ key: UInt64) -> Int {
        var lo = 0, hi = cellKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cellKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

extension Int64 {
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
