/// Builds an `OSMBlock` in memory, for drawn test maps and synthetic networks.
public struct OSMBlockBuilder {
    public private(set) var block = OSMBlock()
    private var stringIndex: [String: Int32] = ["": 0]

    public init() {}

    private mutating func intern(_ s: String) -> Int32 {
        if let i = stringIndex[s] { return i }
        let i = Int32(block.strings.count)
        block.strings.append(s)
        stringIndex[s] = i
        return i
    }

    public mutating func addNode(id: Int64, latitudeE7: Int32, longitudeE7: Int32, tags: Tags = Tags()) {
        block.nodeIDs.append(id)
        block.nodeLatitudesE7.append(latitudeE7)
        block.nodeLongitudesE7.append(longitudeE7)
        for (k, v) in tags {
            block.nodeTagKeys.append(intern(k))
            block.nodeTagValues.append(intern(v))
        }
        block.nodeTagOffsets.append(Int32(block.nodeTagKeys.count))
    }

    public mutating func addWay(id: Int64, refs: [Int64], tags: Tags) {
        block.wayIDs.append(id)
        block.wayRefs.append(contentsOf: refs)
        block.wayRefOffsets.append(Int32(block.wayRefs.count))
        for (k, v) in tags {
            block.wayTagKeys.append(intern(k))
            block.wayTagValues.append(intern(v))
        }
        block.wayTagOffsets.append(Int32(block.wayTagKeys.count))
    }

    public mutating func addRelation(id: Int64, members: [(type: OSMMemberType, id: Int64, role: String)], tags: Tags) {
        block.relationIDs.append(id)
        for m in members {
            block.relationMemberIDs.append(m.id)
            block.relationMemberTypes.append(m.type)
            block.relationMemberRoles.append(intern(m.role))
        }
        block.relationMemberOffsets.append(Int32(block.relationMemberIDs.count))
        for (k, v) in tags {
            block.relationTagKeys.append(intern(k))
            block.relationTagValues.append(intern(v))
        }
        block.relationTagOffsets.append(Int32(block.relationTagKeys.count))
    }
}
