/// A protobuf wire-format cursor over borrowed bytes.
///
/// Every read is bounds-checked and throws `WireError` instead of trapping, because the bytes come
/// from files we do not trust. Only the four wire types used by OSM PBF are accepted.
struct WireReader {
    enum WireError: Error {
        case truncated(at: Int)
        case badVarint(at: Int)
        case badWireType(Int, at: Int)
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        position = 0
    }

    var isAtEnd: Bool { position >= bytes.count }

    @inline(__always)
    mutating func varint() throws(WireError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < bytes.count else { throw .truncated(at: start) }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw .badVarint(at: start) }
        }
    }

    @inline(__always)
    mutating func signedVarint() throws(WireError) -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// Reads a field key; returns (field number, wire type).
    @inline(__always)
    mutating func key() throws(WireError) -> (field: Int, wireType: Int) {
        let k = try varint()
        return (Int(truncatingIfNeeded: k >> 3), Int(k & 7))
    }

    mutating func lengthDelimited() throws(WireError) -> UnsafeRawBufferPointer {
        let start = position
        let length = try varint()
        guard length <= UInt64(bytes.count - position) else { throw .truncated(at: start) }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + Int(length))])
        position += Int(length)
        return slice
    }

    mutating func skip(wireType: Int) throws(WireError) {
        switch wireType {
        case 0: _ = try varint()
        case 1:
            guard bytes.count - position >= 8 else { throw .truncated(at: position) }
            position += 8
        case 2: _ = try lengthDelimited()
        case 5:
            guard bytes.count - position >= 4 else { throw .truncated(at: position) }
            position += 4
        default: throw .badWireType(wireType, at: position)
        }
    }

    /// Decodes a packed repeated varint field into `out`, applying `transform` to each raw value.
    mutating func packedVarints(into out: inout [UInt64]) throws(WireError) {
        var inner = WireReader(try lengthDelimited())
        while !inner.isAtEnd { out.append(try inner.varint()) }
    }

    /// Decodes a packed repeated sint64 field with delta coding (running sum).
    mutating func packedDeltaSigned(into out: inout [Int64]) throws(WireError) {
        var inner = WireReader(try lengthDelimited())
        var running: Int64 = 0
        while !inner.isAtEnd {
            running &+= try inner.signedVarint()
            out.append(running)
        }
    }

    /// Decodes a packed repeated uint32/int32 field.
    mutating func packedInt32(into out: inout [Int32]) throws(WireError) {
        var inner = WireReader(try lengthDelimited())
        while !inner.isAtEnd { out.append(Int32(truncatingIfNeeded: try inner.varint())) }
    }
}
