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
}
