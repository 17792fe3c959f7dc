/// What an OSM relation member refers to.
public enum OSMMemberType: UInt8, Sendable {
    case node = 0, way = 1, relation = 2
}

/// The decoded contents of one PBF data block, in flat columns.
///
/// Strings are interned per block: tag keys, values and member roles are indices into `strings`
/// (index 0 is the empty string by PBF convention). Offsets columns have `count + 1` entries.
/// Every index in a block produced by `PBFReader` has been validated, so consumers may index freely.
public struct OSMBlock: Sendable {
    public var strings: [String] = [""]

    public var nodeIDs: [Int64] = []
    public var nodeLatitudesE7: [Int32] = []
    public var nodeLongitudesE7: [Int32] = []
    public var nodeTagOffsets: [Int32] = [0]
    public var nodeTagKeys: [Int32] = []
    public var nodeTagValues: [Int32] = []

    public var wayIDs: [Int64] = []
    public var wayRefOffsets: [Int32] = [0]
    public var wayRefs: [Int64] = []
    public var wayTagOffsets: [Int32] = [0]
    public var wayTagKeys: [Int32] = []
    public var wayTagValues: [Int32] = []

    public var relationIDs: [Int64] = []
    public var relationMemberOffsets: [Int32] = [0]
    public var relationMemberIDs: [Int64] = []
    public var relationMemberTypes: [OSMMemberType] = []
    public var relationMemberRoles: [Int32] = []
    public var relationTagOffsets: [Int32] = [0]
    public var relationTagKeys: [Int32] = []
    public var relationTagValues: [Int32] = []

    public init() {}

    public var nodeCount: Int { nodeIDs.count }
    public var wayCount: Int { wayIDs.count }
    public var relationCount: Int { relationIDs.count }

    // MARK: Access

    @inlinable
    public func nodeTagRange(_ i: Int) -> Range<Int> { Int(nodeTagOffsets[i])..<Int(nodeTagOffsets[i + 1]) }
    @inlinable
    public func wayTagRange(_ i: Int) -> Range<Int> { Int(wayTagOffsets[i])..<Int(wayTagOffsets[i + 1]) }
    @inlinable
    public func wayRefRange(_ i: Int) -> Range<Int> { Int(wayRefOffsets[i])..<Int(wayRefOffsets[i + 1]) }
    @inlinable
    public func relationTagRange(_ i: Int) -> Range<Int> { Int(relationTagOffsets[i])..<Int(relationTagOffsets[i + 1]) }
    @inlinable
    public func relationMemberRange(_ i: Int) -> Range<Int> {
        Int(relationMemberOffsets[i])..<Int(relationMemberOffsets[i + 1])
    }

    public func nodeTags(_ i: Int) -> Tags { tags(nodeTagRange(i), nodeTagKeys, nodeTagValues) }
    public func wayTags(_ i: Int) -> Tags { tags(wayTagRange(i), wayTagKeys, wayTagValues) }
    public func relationTags(_ i: Int) -> Tags { tags(relationTagRange(i), relationTagKeys, relationTagValues) }

    private func tags(_ range: Range<Int>, _ keys: [Int32], _ values: [Int32]) -> Tags {
        var pairs: [(key: String, value: String)] = []
        pairs.reserveCapacity(range.count)
        for t in range { pairs.append((strings[Int(keys[t])], strings[Int(values[t])])) }
        return Tags(pairs)
    }

    /// The string-table index of `text`, or nil when the block never mentions it.
    /// Lets a consumer test "has key highway" with integer compares.
    public func stringIndex(of text: String) -> Int32? {
        strings.firstIndex(of: text).map { Int32($0) }
    }

    public func nodeCoordinateE7(_ i: Int) -> (latitudeE7: Int32, longitudeE7: Int32) {
        (nodeLatitudesE7[i], nodeLongitudesE7[i])
    }
}
