import CDeflate

/// Raw DEFLATE with libdeflate, for the stored watch documents (JSON shrinks about 6×).
/// Not thread-safe: `WatchStore` uses its one instance under its lock.
final class Deflate {
    private let compressor: OpaquePointer
    private let decompressor: OpaquePointer

    init?() {
        guard let c = libdeflate_alloc_compressor(6) else { return nil }
        guard let d = libdeflate_alloc_decompressor() else { libdeflate_free_compressor(c); return nil }
        compressor = c
        decompressor = d
    }

    deinit {
        libdeflate_free_compressor(compressor)
        libdeflate_free_decompressor(decompressor)
    }

    func compress(_ bytes: [UInt8]) -> [UInt8] {
        let bound = libdeflate_deflate_compress_bound(compressor, bytes.count)
        return [UInt8](unsafeUninitializedCapacity: max(1, bound)) { buffer, count in
            count = bytes.withUnsafeBytes { input in
                libdeflate_deflate_compress(compressor, input.baseAddress, input.count, buffer.baseAddress, bound)
            }
        }
    }

    /// The original bytes, whose length is `size`; nil when the data is damaged.
    func decompress(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var result = LIBDEFLATE_SUCCESS
        let out = [UInt8](unsafeUninitializedCapacity: max(1, size)) { buffer, count in
            result = bytes.withUnsafeBytes { input in
                libdeflate_deflate_decompress(decompressor, input.baseAddress, input.count, buffer.baseAddress, size, nil)
            }
            count = result == LIBDEFLATE_SUCCESS ? size : 0
        }
        return result == LIBDEFLATE_SUCCESS ? out : nil
    }
}
