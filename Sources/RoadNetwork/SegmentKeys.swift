public import BinaryIO

/// OSM node pairs (as in OSRM's segment speed files) to the arcs that run along them, sorted by
/// (from, to) for binary search.
///
/// Each key is only the segment's position in the shape columns (`code` = first point << 1, | 1
/// when the arc runs against the shape) and its arc: the node ids and the length are read from the
/// shape columns, so a key costs 8 bytes instead of the 28 that copying them took. A directory of
/// equal-width buckets over the `from` ids, made at import, narrows each lookup to a few dozen keys.
public struct SegmentKeys: @unchecked Sendable {
    let code: UnsafeBufferPointer<UInt32>
    public let arc: UnsafeBufferPointer<ArcID>
    let shapeOSMIDs: UnsafeBufferPointer<Int64>
    let segmentLengthCm: UnsafeBufferPointer<UInt32>
    /// [lowest from id, bucket width]
    let directoryParams: UnsafeBufferPointer<Int64>
    let bucketStart: UnsafeBufferPointer<UInt32>

    init(store: ColumnSet, prefix p: String, shapeOSMIDs: UnsafeBufferPointer<Int64>) throws(ColumnSetError) {
        code = try store.column(p + "segment.code")
        arc = try store.column(p + "segment.arc")
        segmentLengthCm = try store.column(p + "shape.segmentLengthCm")
        directoryParams = try store.column(p + "segment.directoryParams")
        bucketStart = try store.column(p + "segment.bucketStart")
        self.shapeOSMIDs = shapeOSMIDs
        guard code.count == arc.count, directoryParams.count == 2, bucketStart.count >= 2,
              segmentLengthCm.count == shapeOSMIDs.count, Int(bucketStart[bucketStart.count - 1]) == code.count else {
            throw .damaged(p + "segment", "segment key columns do not agree")
        }
    }

    public var count: Int { code.count }

    /// The OSM node a key's segment starts from, in travel order.
    public func from(_ k: Int) -> Int64 { shapeOSMIDs[Self.firstPoint(code[k])] }
    /// The OSM node a key's segment leads to.
    public func to(_ k: Int) -> Int64 { shapeOSMIDs[Self.lastPoint(code[k])] }
    /// The segment's length, centimetres.
    public func lengthCm(_ k: Int) -> UInt32 { segmentLengthCm[Int(code[k] >> 1)] }

    static func firstPoint(_ c: UInt32) -> Int { Int(c >> 1) + Int(c & 1) }
    static func lastPoint(_ c: UInt32) -> Int { Int(c >> 1) + 1 - Int(c & 1) }

    /// The key positions of the segment `from → to` (usually one; several when ways overlap).
    public func keys(from a: Int64, to b: Int64) -> Range<Int> {
        let minFrom = directoryParams[0], width = directoryParams[1]
        guard a >= minFrom, !code.isEmpty else { return 0..<0 }
        let bucket = Int((a - minFrom) / width)
        guard bucket + 1 < bucketStart.count else { return 0..<0 }
        var lo = Int(bucketStart[bucket]), hi = Int(bucketStart[bucket + 1])
        while lo < hi {
            let mid = (lo + hi) / 2
            let f = from(mid)
            if f < a || (f == a && to(mid) < b) { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < code.count && from(end) == a && to(end) == b { end += 1 }
        return lo..<end
    }

    /// The arcs that traverse OSM node `from` then `to` directly (usually one).
    public func arcs(from a: Int64, to b: Int64) -> ArraySlice<ArcID> {
        ArraySlice(arc[keys(from: a, to: b)])
    }
}

extension SegmentKeys {
    /// Writes the keys of every segment of every original arc, the shape's segment lengths and the
    /// lookup directory.
    static func columns(arcEdge: [UInt32], arcOriginal: [ArcID], edgeShapeStart: [UInt32], shapeOSMIDs: [Int64],
                        segmentLengthCm: [UInt32], into out: inout some ColumnSink, prefix p: String) {
        var keys: [(from: Int64, to: Int64, code: UInt32, arc: ArcID)] = []
        keys.reserveCapacity(2 * max(0, shapeOSMIDs.count - edgeShapeStart.count + 1))
        precondition(shapeOSMIDs.count < Int(UInt32.max >> 1), "more shape points than segment keys can address")
        for a in 0..<arcEdge.count where arcOriginal[a].index == a {
            let e = Int(arcEdge[a] >> 1)
            let backward = arcEdge[a] & 1
            for i in Int(edgeShapeStart[e])..<(Int(edgeShapeStart[e + 1]) - 1) {
                let code = UInt32(i) << 1 | backward
                keys.append((shapeOSMIDs[firstPoint(code)], shapeOSMIDs[lastPoint(code)], code, ArcID(a)))
            }
        }
        keys.sort { $0.from != $1.from ? $0.from < $1.from : ($0.to != $1.to ? $0.to < $1.to : $0.arc < $1.arc) }
        // The directory: `from` ids in equal-width buckets (OSM ids are spread evenly enough for this).
        let buckets = max(1, min(1 << 20, keys.count / 8))
        let minFrom = keys.first?.from ?? 0
        let width = keys.isEmpty ? 1 : max(1, (keys[keys.count - 1].from - minFrom) / Int64(buckets) + 1)
        var starts = [UInt32](repeating: 0, count: buckets + 1)
        var k = 0
        for b in 0..<buckets {
            let boundary = minFrom &+ Int64(b) &* width
            while k < keys.count && keys[k].from < boundary { k += 1 }
            starts[b] = UInt32(k)
        }
        starts[buckets] = UInt32(keys.count)
        out.add(p + "segment.code", keys.map(\.code))
        out.add(p + "segment.arc", keys.map(\.arc))
        out.add(p + "segment.directoryParams", [minFrom, width])
        out.add(p + "segment.bucketStart", starts)
        out.add(p + "shape.segmentLengthCm", segmentLengthCm)
    }
}
