import BinaryIO
public import GeoCore

/// A base map opened from a `basemap.wfm` file (memory-mapped) or built in memory.
///
/// File format (a `ColumnSet`, format version 1, CRC-checked):
/// - `points` — `MercatorPoint` (x, y: UInt32 in a 2³² world), every part's points back to back;
/// - `partStart` — UInt32, parts + 1 offsets into `points`;
/// - `featureFirstPart` — UInt32, features + 1 offsets into the parts; a part is a closed ring
///   (areas: clockwise outer, counter-clockwise holes, for nonzero filling), a polyline (lines) or
///   one point (place labels);
/// - `featureKind` (UInt8 `BaseMapKind`), `featureFlags` (UInt8 `FeatureFlags`), `featureLayer`
///   (Int8 OSM layer), `featureName` (UInt32 into the names; 0 = unnamed), `featureBox` (`MercatorBox`);
/// - `nameStart` (UInt32, names + 1) and `nameBytes` (UTF-8);
/// - per zoom band *b*: `band<b>.cellKey` (UInt64, `cx << 32 | cy` of the band's cell zoom, sorted)
///   and `band<b>.cellFirst` (UInt32, cells + 1): the features of a cell are a contiguous range.
/// - metadata: `bands` ("0-10@8/10,…" = min–max zoom @ cell zoom / detail zoom), `dataBounds` and
///   `extractBounds` ("minLatE7,minLonE7,maxLatE7,maxLonE7").
///
/// Features of a band are ordered by cell, then by kind. A feature larger than a quarter cell is
/// stored as pieces cut along cell edges, so a query reads only cells near the tile.
/// Thread-safe: immutable after opening.
public final class BaseMap: @unchecked Sendable {
    public static let formatVersion: UInt32 = 1
    public static let fileName = "basemap.wfm"

    public let bands: [ZoomBand]
    /// The extent of every node in the source.
    public let dataBounds: BoundingBox
    /// The box along which the coastline was closed.
    public let extractBounds: BoundingBox

    private let columns: ColumnSet
    @usableFromInline let points: UnsafeBufferPointer<MercatorPoint>
    @usableFromInline let partStart: UnsafeBufferPointer<UInt32>
    @usableFromInline let featureFirstPart: UnsafeBufferPointer<UInt32>
    @usableFromInline let kinds: UnsafeBufferPointer<UInt8>
    @usableFromInline let flags: UnsafeBufferPointer<UInt8>
    @usableFromInline let layers: UnsafeBufferPointer<Int8>
    @usableFromInline let nameIDs: UnsafeBufferPointer<UInt32>
    @usableFromInline let boxes: UnsafeBufferPointer<MercatorBox>
    private let nameStart: UnsafeBufferPointer<UInt32>
    private let nameBytes: UnsafeBufferPointer<UInt8>
    private let cellKeys: [UnsafeBufferPointer<UInt64>]
    private let cellFirst: [UnsafeBufferPointer<UInt32>]

    /// Opens and validates a base-map file; with `verify`, the whole-file CRC is checked too.
    public convenience init(path: String, verify: Bool = true) throws(BaseMapError) {
        let columns: ColumnSet
        do {
            columns = try ColumnSet.open(path: path, formatVersion: Self.formatVersion, verify: verify)
        } catch {
            throw .file(error)
        }
        try self.init(columns: columns, origin: path)
    }

    init(columns: ColumnSet, origin: String) throws(BaseMapError) {
        self.columns = columns
        do {
            points = try columns.column("points")
            partStart = try columns.column("partStart")
            featureFirstPart = try columns.column("featureFirstPart")
            kinds = try columns.column("featureKind")
            flags = try columns.column("featureFlags")
            layers = try columns.column("featureLayer")
            nameIDs = try columns.column("featureName")
            boxes = try columns.column("featureBox")
            nameStart = try columns.column("nameStart")
            nameBytes = try columns.column("nameBytes")
        } catch {
            throw .file(error)
        }
        var bands: [ZoomBand] = []
        for text in (columns.metadata["bands"] ?? "").split(separator: ",") {
            guard let band = ZoomBand(parsing: text) else { throw .damaged(origin, "unreadable zoom band \"\(text)\"") }
            bands.append(band)
        }
        guard !bands.isEmpty else { throw .damaged(origin, "no zoom bands") }
        self.bands = bands
        var keys: [UnsafeBufferPointer<UInt64>] = [], first: [UnsafeBufferPointer<UInt32>] = []
        do {
            for b in bands.indices {
                keys.append(try columns.column("band\(b).cellKey"))
                first.append(try columns.column("band\(b).cellFirst"))
            }
        } catch {
            throw .file(error)
        }
        cellKeys = keys
        cellFirst = first
        dataBounds = Self.parseBounds(columns.metadata["dataBounds"])
        extractBounds = Self.parseBounds(columns.metadata["extractBounds"])
        if let problem = validate() { throw .damaged(origin, problem) }
    }

    private static func parseBounds(_ text: String?) -> BoundingBox {
        let values = (text ?? "").split(separator: ",").compactMap { Int32($0) }
        guard values.count == 4 else { return .empty }
        return BoundingBox(minLatitudeE7: values[0], minLongitudeE7: values[1], maxLatitudeE7: values[2], maxLongitudeE7: values[3])
    }

    /// Checks every offset and index once, so that accessors can index without checks.
    private func validate() -> String? {
        let features = kinds.count
        guard flags.count == features, layers.count == features, nameIDs.count == features, boxes.count == features,
              featureFirstPart.count == features + 1 else { return "feature columns differ in length" }
        guard Self.isMonotone(featureFirstPart, end: partStart.count - 1) else { return "feature parts out of order" }
        guard Self.isMonotone(partStart, end: points.count) else { return "part offsets out of order" }
        guard Self.isMonotone(nameStart, end: nameBytes.count) else { return "name offsets out of order" }
        let names = UInt32(nameStart.count - 1)
        for i in 0..<features {
            guard BaseMapKind(rawValue: kinds[i]) != nil else { return "unknown feature kind \(kinds[i])" }
            guard nameIDs[i] < names else { return "name index out of range" }
        }
        for b in bands.indices {
            let keys = cellKeys[b], first = cellFirst[b]
            guard first.count == keys.count + 1, let last = first.last, Int(last) <= features else { return "band \(b) cells out of range" }
            for i in first.indices.dropFirst() where first[i - 1] > first[i] { return "band \(b) cells out of order" }
            for i in keys.indices.dropFirst() where keys[i - 1] >= keys[i] { return "band \(b) cell keys not sorted" }
        }
        return nil
    }

    private static func isMonotone(_ offsets: UnsafeBufferPointer<UInt32>, end: Int) -> Bool {
        guard let first = offsets.first, first == 0, let last = offsets.last, Int(last) == end else { return false }
        for i in offsets.indices.dropFirst() where offsets[i - 1] > offsets[i] { return false }
        return true
    }

    // MARK: Features

    public var featureCount: Int { kinds.count }

    @inlinable
    public func kind(_ f: BaseMapFeatureID) -> BaseMapKind { BaseMapKind(rawValue: kinds[f.index]) ?? .building }

    @inlinable
    public func flags(_ f: BaseMapFeatureID) -> FeatureFlags { FeatureFlags(rawValue: flags[f.index]) }

    @inlinable
    public func layer(_ f: BaseMapFeatureID) -> Int8 { layers[f.index] }

    @inlinable
    public func box(_ f: BaseMapFeatureID) -> MercatorBox { boxes[f.index] }

    /// Indices of the feature's parts, for `points(ofPart:)`.
    @inlinable
    public func parts(_ f: BaseMapFeatureID) -> Range<Int> { Int(featureFirstPart[f.index])..<Int(featureFirstPart[f.index + 1]) }

    @inlinable
    public func points(ofPart part: Int) -> UnsafeBufferPointer<MercatorPoint> {
        UnsafeBufferPointer(rebasing: points[Int(partStart[part])..<Int(partStart[part + 1])])
    }

    /// The feature's name, or nil when it has none.
    public func name(_ f: BaseMapFeatureID) -> String? {
        let id = Int(nameIDs[f.index])
        guard id > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: nameBytes[Int(nameStart[id])..<Int(nameStart[id + 1])]), as: UTF8.self)
    }

    /// The interned name number (equal names, equal numbers; 0 = unnamed).
    @inlinable
    public func nameID(_ f: BaseMapFeatureID) -> UInt32 { nameIDs[f.index] }

    // MARK: Queries

    /// The band that serves `zoom` (the last band serves every zoom past its end).
    public func bandIndex(forZoom zoom: Int) -> Int {
        bands.firstIndex { zoom >= $0.minZoom && zoom <= $0.maxZoom } ?? (zoom < bands[0].minZoom ? 0 : bands.count - 1)
    }

    /// Appends to `result` the features of the band for `zoom` whose box meets `box`.
    /// - Complexity: O(columns × log cells + features in the cells read).
    public func features(in box: MercatorBox, zoom: Int, into result: inout [BaseMapFeatureID]) {
        let b = bandIndex(forZoom: zoom)
        let keys = cellKeys[b], first = cellFirst[b]
        guard !keys.isEmpty else { return }
        let shift = UInt64(bands[b].cellShift)
        let reach = UInt32(truncatingIfNeeded: (UInt64(1) << shift) / 4)
        let search = box.expanded(by: reach)
        let cx0 = UInt64(search.minX) >> shift, cx1 = UInt64(search.maxX) >> shift
        let cy0 = UInt64(search.minY) >> shift, cy1 = UInt64(search.maxY) >> shift
        // Only columns that exist: jump from one stored cell column to the next.
        var i = lowerBound(keys, cx0 << 32 | cy0)
        while i < keys.count {
            let cx = keys[i] >> 32
            guard cx <= cx1 else { break }
            var j = lowerBound(keys, cx << 32 | cy0, from: i)
            while j < keys.count && keys[j] >> 32 == cx && (keys[j] & 0xFFFF_FFFF) <= cy1 {
                for f in Int(first[j])..<Int(first[j + 1]) where boxes[f].intersects(box) {
                    result.append(BaseMapFeatureID(UInt32(f)))
                }
                j += 1
            }
            i = lowerBound(keys, (cx + 1) << 32 | cy0, from: i + 1)
        }
    }

    private func lowerBound(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64, from start: Int = 0) -> Int {
        var low = start, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
