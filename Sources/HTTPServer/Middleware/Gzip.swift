import Deflate
import Synchronization

/// gzip (RFC 1952) compression of response bodies.
///
/// Compressors hold several hundred KB of state, so they are pooled per level (at most
/// `maxPooledPerLevel` idle ones each) instead of allocated per response.
enum Gzip {
    private static let pool = Mutex<[Int: [DeflateCompressor]]>([:])
    private static let maxPooledPerLevel = 8

    /// The gzip encoding of `bytes` at `level` (1 fastest ... 12 smallest), or nil if libdeflate fails.
    static func compress(_ bytes: [UInt8], level: Int) -> [UInt8]? {
        let level = max(1, min(12, level))
        guard let compressor = pool.withLock({ $0[level, default: []].popLast() }) ?? DeflateCompressor(level: level) else { return nil }
        defer {
            pool.withLock { pool in
                if pool[level, default: []].count < maxPooledPerLevel { pool[level, default: []].append(compressor) }
            }
        }
        return compressor.compress(bytes, .gzip)
    }

    /// Decompresses a gzip member whose uncompressed size is at most `maxBytes` (used by tests
    /// and by callers checking round trips).
    static func decompress(_ bytes: [UInt8], maxBytes: Int) -> [UInt8]? {
        DeflateDecompressor()?.decompress(bytes, .gzip, maxBytes: maxBytes)
    }
}
