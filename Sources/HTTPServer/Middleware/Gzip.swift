import CDeflate
import Synchronization

/// gzip (RFC 1952) compression with libdeflate. The only file in this module that calls libdeflate.
///
/// libdeflate compressors hold several hundred KB of state, so they are pooled per level
/// (at most `maxPooledPerLevel` idle ones each) instead of allocated per response.
enum Gzip {
    private static let pool = Mutex<[Int32: [UInt]]>([:])
    private static let maxPooledPerLevel = 8

    /// The gzip encoding of `bytes` at `level` (1 fastest ... 12 smallest), or nil if libdeflate fails.
    static func compress(_ bytes: [UInt8], level: Int) -> [UInt8]? {
        let level = Int32(max(1, min(12, level)))
        guard let compressor = checkOut(level) else { return nil }
        defer { checkIn(compressor, level) }
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        var ok = true
        let out = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = bytes.withUnsafeBytes { input in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, buffer.baseAddress, bound)
            }
            ok = count > 0
        }
        return ok ? out : nil
    }

    /// Decompresses a gzip member whose uncompressed size is at most `maxBytes` (used by tests
    /// and by callers checking round trips).
    static func decompress(_ bytes: [UInt8], maxBytes: Int) -> [UInt8]? {
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        var produced = 0
        var result = LIBDEFLATE_SUCCESS
        let out = [UInt8](unsafeUninitializedCapacity: max(maxBytes, 1)) { buffer, count in
            result = bytes.withUnsafeBytes { input in
                libdeflate_gzip_decompress(d, input.baseAddress, input.count, buffer.baseAddress, maxBytes, &produced)
            }
            count = result == LIBDEFLATE_SUCCESS ? produced : 0
        }
        return result == LIBDEFLATE_SUCCESS ? out : nil
    }

    private static func checkOut(_ level: Int32) -> OpaquePointer? {
        let pooled = pool.withLock { pool -> UInt? in pool[level, default: []].popLast() }
        if let pooled { return OpaquePointer(bitPattern: pooled) }
        return libdeflate_alloc_compressor(level)
    }

    private static func checkIn(_ compressor: OpaquePointer, _ level: Int32) {
        let kept = pool.withLock { pool -> Bool in
            guard pool[level, default: []].count < maxPooledPerLevel else { return false }
            pool[level, default: []].append(UInt(bitPattern: compressor))
            return true
        }
        if !kept { libdeflate_free_compressor(compressor) }
    }
}
