/// Which parts of a data block to decode; skipping parts a pass does not need saves most of the work.
public struct OSMContent: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let nodes = OSMContent(rawValue: 1)
    public static let ways = OSMContent(rawValue: 2)
    public static let relations = OSMContent(rawValue: 4)
    public static let all: OSMContent = [.nodes, .ways, .relations]
}

/// Decodes an uncompressed `PrimitiveBlock` message into an `OSMBlock`.
///
/// Validation happens here so that consumers never meet an index out of range: tag and role
/// indices must point into the string table, and parallel packed arrays must have equal lengths.
struct PrimitiveBlockDecoder {
    enum DecodeError: Error {
        case wire(WireReader.WireError)
        case invalid(String)
    }

    let content: OSMContent

    func decode(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> OSMBlock {
        var block = OSMBlock()
        block.strings = []
        var groups: [UnsafeRawBufferPointer] = []
        var granularity: Int64 = 100
        var latOffset: Int64 = 0
        var lonOffset: Int64 = 0
        do {
            var r = WireReader(bytes)
            while !r.isAtEnd {
                let (field, wire) = try r.key()
                switch (field, wire) {
                case (1, 2): block.strings = try decodeStringTable(r.lengthDelimited())
                case (2, 2): groups.append(try r.lengthDelimited())
                case (17, 0): granularity = Int64(truncatingIfNeeded: try r.varint())
                case (19, 0): latOffset = Int64(bitPattern: try r.varint())
                case (20, 0): lonOffset = Int64(bitPattern: try r.varint())
                default: try r.skip(wireType: wire)
                }
            }
        } catch { throw .wire(error) }
        if block.strings.isEmpty { block.strings = [""] }
        guard granularity > 0 && granularity <= 1_000_000_000 else { throw .invalid("granularity \(granularity) out of range") }
        let scale = Coordinates(granularity: granularity, latOffset: latOffset, lonOffset: lonOffset)
        for group in groups {
            try decodeGroup(group, into: &block, scale)
        }
        return block
    }

    private struct Coordinates {
        let granularity: Int64, latOffset: Int64, lonOffset: Int64
        /// Nanodegrees = offset + granularity × value; E7 = nanodegrees / 100.
        @inline(__always) func latE7(_ v: Int64) -> Int32 { Self.clamp((latOffset &+ granularity &* v) / 100, 900_000_000) }
        @inline(__always) func lonE7(_ v: Int64) -> Int32 { Self.clamp((lonOffset &+ granularity &* v) / 100, 1_800_000_000) }
        @inline(__always) static func clamp(_ v: Int64, _ limit: Int64) -> Int32 { Int32(max(-limit, min(limit, v))) }
    }

    private func decodeStringTable(_ bytes: UnsafeRawBufferPointer) throws(WireReader.WireError) -> [String] {
        var strings: [String] = []
        var r = WireReader(bytes)
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            if field == 1 && wire == 2 {
                strings.append(String(decoding: try r.lengthDelimited(), as: UTF8.self))
            } else {
                try r.skip(wireType: wire)
            }
        }
        return strings
    }

    private func decodeGroup(_ bytes: UnsafeRawBufferPointer, into block: inout OSMBlock, _ scale: Coordinates) throws(DecodeError) {
        do {
            var r = WireReader(bytes)
            while !r.isAtEnd {
                let (field, wire) = try r.key()
                switch (field, wire) {
                case (1, 2) where content.contains(.nodes): try decodeNode(r.lengthDelimited(), into: &block, scale)
                case (2, 2) where content.contains(.nodes): try decodeDense(r.lengthDelimited(), into: &block, scale)
                case (3, 2) where content.contains(.ways): try decodeWay(r.lengthDelimited(), into: &block)
                case (4, 2) where content.contains(.relations): try decodeRelation(r.lengthDelimited(), into: &block)
                default: try r.skip(wireType: wire)
                }
            }
        } catch let error as WireReader.WireError {
            throw .wire(error)
        } catch let error as DecodeError {
            throw error
        } catch {
            throw .invalid("\(error)")
        }
    }

    private func appendTags(keys: [Int32], values: [Int32], to keyColumn: inout [Int32], _ valueColumn: inout [Int32],
                            stringCount: Int, what: String) throws(DecodeError) {
        guard keys.count == values.count else {
            throw .invalid("\(what) has \(keys.count) tag keys but \(values.count) values")
        }
        for i in keys where i < 0 || Int(i) >= stringCount { throw .invalid("\(what) tag key index \(i) outside the string table") }
        for i in values where i < 0 || Int(i) >= stringCount { throw .invalid("\(what) tag value index \(i) outside the string table") }
        keyColumn.append(contentsOf: keys)
        valueColumn.append(contentsOf: values)
    }

    private func decodeNode(_ bytes: UnsafeRawBufferPointer, into block: inout OSMBlock, _ scale: Coordinates) throws {
        var r = WireReader(bytes)
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var keys: [Int32] = [], values: [Int32] = []
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 0): id = try r.signedVarint()
            case (2, 2): try r.packedInt32(into: &keys)
            case (3, 2): try r.packedInt32(into: &values)
            case (8, 0): lat = try r.signedVarint()
            case (9, 0): lon = try r.signedVarint()
            default: try r.skip(wireType: wire)
            }
        }
        try appendTags(keys: keys, values: values, to: &block.nodeTagKeys, &block.nodeTagValues,
                       stringCount: block.strings.count, what: "node \(id)")
        block.nodeIDs.append(id)
        block.nodeLatitudesE7.append(scale.latE7(lat))
        block.nodeLongitudesE7.append(scale.lonE7(lon))
        block.nodeTagOffsets.append(Int32(block.nodeTagKeys.count))
    }

    private func decodeDense(_ bytes: UnsafeRawBufferPointer, into block: inout OSMBlock, _ scale: Coordinates) throws {
        var r = WireReader(bytes)
        var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = []
        var keysVals: [Int32] = []
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): try r.packedDeltaSigned(into: &ids)
            case (8, 2): try r.packedDeltaSigned(into: &lats)
            case (9, 2): try r.packedDeltaSigned(into: &lons)
            case (10, 2): try r.packedInt32(into: &keysVals)
            default: try r.skip(wireType: wire)
            }
        }
        guard ids.count == lats.count && ids.count == lons.count else {
            throw DecodeError.invalid("dense nodes have \(ids.count) ids, \(lats.count) latitudes and \(lons.count) longitudes")
        }
        let stringCount = block.strings.count
        block.nodeIDs.append(contentsOf: ids)
        block.nodeLatitudesE7.reserveCapacity(block.nodeLatitudesE7.count + ids.count)
        block.nodeLongitudesE7.reserveCapacity(block.nodeLongitudesE7.count + ids.count)
        for i in 0..<ids.count {
            block.nodeLatitudesE7.append(scale.latE7(lats[i]))
            block.nodeLongitudesE7.append(scale.lonE7(lons[i]))
        }
        // keys_vals: for each node, (key, value)* followed by 0; empty when no node has tags.
        var k = 0
        for i in 0..<ids.count {
            if !keysVals.isEmpty {
                while true {
                    guard k < keysVals.count else {
                        throw DecodeError.invalid("dense node tags end before node \(ids[i])")
                    }
                    let key = keysVals[k]
                    k += 1
                    if key == 0 { break }
                    guard k < keysVals.count else { throw DecodeError.invalid("dense node \(ids[i]) has a tag key without a value") }
                    let value = keysVals[k]
                    k += 1
                    guard key > 0 && Int(key) < stringCount && value >= 0 && Int(value) < stringCount else {
                        throw DecodeError.invalid("dense node \(ids[i]) tag index outside the string table")
                    }
                    block.nodeTagKeys.append(key)
                    block.nodeTagValues.append(value)
                }
            }
            block.nodeTagOffsets.append(Int32(block.nodeTagKeys.count))
        }
    }

    private func decodeWay(_ bytes: UnsafeRawBufferPointer, into block: inout OSMBlock) throws {
        var r = WireReader(bytes)
        var id: Int64 = 0
        var keys: [Int32] = [], values: [Int32] = []
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 0): id = Int64(bitPattern: try r.varint())
            case (2, 2): try r.packedInt32(into: &keys)
            case (3, 2): try r.packedInt32(into: &values)
            case (8, 2): try r.packedDeltaSigned(into: &block.wayRefs)
            default: try r.skip(wireType: wire)
            }
        }
        try appendTags(keys: keys, values: values, to: &block.wayTagKeys, &block.wayTagValues,
                       stringCount: block.strings.count, what: "way \(id)")
        block.wayIDs.append(id)
        block.wayRefOffsets.append(Int32(block.wayRefs.count))
        block.wayTagOffsets.append(Int32(block.wayTagKeys.count))
    }

    private func decodeRelation(_ bytes: UnsafeRawBufferPointer, into block: inout OSMBlock) throws {
        var r = WireReader(bytes)
        var id: Int64 = 0
        var keys: [Int32] = [], values: [Int32] = []
        var roles: [Int32] = [], memberIDs: [Int64] = [], types: [Int32] = []
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 0): id = Int64(bitPattern: try r.varint())
            case (2, 2): try r.packedInt32(into: &keys)
            case (3, 2): try r.packedInt32(into: &values)
            case (8, 2): try r.packedInt32(into: &roles)
            case (9, 2): try r.packedDeltaSigned(into: &memberIDs)
            case (10, 2): try r.packedInt32(into: &types)
            default: try r.skip(wireType: wire)
            }
        }
        guard roles.count == memberIDs.count && types.count == memberIDs.count else {
            throw DecodeError.invalid("relation \(id) has \(memberIDs.count) members but \(roles.count) roles and \(types.count) types")
        }
        let stringCount = block.strings.count
        for role in roles where role < 0 || Int(role) >= stringCount {
            throw DecodeError.invalid("relation \(id) member role index \(role) outside the string table")
        }
        var memberTypes: [OSMMemberType] = []
        memberTypes.reserveCapacity(types.count)
        for t in types {
            guard let type = OSMMemberType(rawValue: UInt8(truncatingIfNeeded: t)), t >= 0 && t <= 2 else {
                throw DecodeError.invalid("relation \(id) has member type \(t)")
            }
            memberTypes.append(type)
        }
        try appendTags(keys: keys, values: values, to: &block.relationTagKeys, &block.relationTagValues,
                       stringCount: stringCount, what: "relation \(id)")
        block.relationIDs.append(id)
        block.relationMemberIDs.append(contentsOf: memberIDs)
        block.relationMemberTypes.append(contentsOf: memberTypes)
        block.relationMemberRoles.append(contentsOf: roles)
        block.relationMemberOffsets.append(Int32(block.relationMemberIDs.count))
        block.relationTagOffsets.append(Int32(block.relationTagKeys.count))
    }
}
