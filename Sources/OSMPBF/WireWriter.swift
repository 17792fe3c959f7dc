/// Appends protobuf wire-format fields to a byte buffer (the inverse of `WireReader`).
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func key(_ field: Int, _ wireType: Int) { varint(UInt64(field << 3 | wireType)) }

    mutating func uint(_ field: Int, _ value: UInt64) {
        key(field, 0)
        varint(value)
    }

    mutating func sint(_ field: Int, _ value: Int64) {
        key(field, 0)
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func bytesField(_ field: Int, _ data: [UInt8]) {
        key(field, 2)
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    mutating func string(_ field: Int, _ text: String) { bytesField(field, Array(text.utf8)) }

    mutating func message(_ field: Int, _ build: (inout WireWriter) -> Void) {
        var inner = WireWriter()
        build(&inner)
        bytesField(field, inner.bytes)
    }

    mutating func packedUInt(_ field: Int, _ values: some Sequence<UInt64>) {
        var inner = WireWriter()
        for v in values { inner.varint(v) }
        bytesField(field, inner.bytes)
    }

    mutating func packedDeltaSigned(_ field: Int, _ values: some Sequence<Int64>) {
        var inner = WireWriter()
        var previous: Int64 = 0
        for v in values {
            let d = v &- previous
            inner.varint(UInt64(bitPattern: (d << 1) ^ (d >> 63)))
            previous = v
        }
        bytesField(field, inner.bytes)
    }
}
