import CDeflate

/// CRC-32 (the zlib polynomial) via libdeflate, which uses carry-less multiply and runs at
/// several GB/s, so checking a whole dataset file at open costs milliseconds.
public enum CRC32 {
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return libdeflate_crc32(crc, base, bytes.count)
    }

    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// The CRC of `A` followed by `B` from the CRCs of each and the length of `B` (zlib's
    /// `crc32_combine`: the first CRC is advanced over `B`'s length of zero bits by squaring the
    /// one-zero-bit operator in GF(2), then the second is added). Lets a writer know a whole
    /// file's checksum without reading it back.
    public static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        guard secondLength > 0 else { return first }
        func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var sum: UInt32 = 0, v = vector, i = 0
            while v != 0 {
                if v & 1 != 0 { sum ^= matrix[i] }
                v >>= 1
                i += 1
            }
            return sum
        }
        func square(_ matrix: [UInt32]) -> [UInt32] { (0..<32).map { times(matrix, matrix[$0]) } }
        // The operator for one zero bit: the reflected polynomial, then a shift.
        var odd = [UInt32](repeating: 0, count: 32)
        odd[0] = 0xEDB8_8320
        for n in 1..<32 { odd[n] = 1 << UInt32(n - 1) }
        var even = square(odd)  // two zero bits
        odd = square(even)      // four
        var crc = first, length = secondLength
        repeat {
            even = square(odd)  // one zero byte on the first pass, then ever doubling
            if length & 1 != 0 { crc = times(even, crc) }
            length >>= 1
            if length == 0 { break }
            odd = square(even)
            if length & 1 != 0 { crc = times(odd, crc) }
            length >>= 1
        } while length != 0
        return crc ^ second
    }
}
