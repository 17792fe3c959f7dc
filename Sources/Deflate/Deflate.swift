import CDeflate

/// The one place Wayfinder calls libdeflate: DEFLATE in its three wrappings, and CRC-32.
/// libdeflate compresses and decompresses whole buffers (no streaming), which is what every
/// user here has: PBF blobs with their declared sizes, stored watch documents, HTTP bodies.
public enum DeflateFormat: Sendable {
    /// Bare DEFLATE (RFC 1951).
    case raw
    /// zlib (RFC 1950): PBF blobs.
    case zlib
    /// gzip (RFC 1952): HTTP `Content-Encoding: gzip`.
    case gzip
}

/// A compressor at one level. It holds several hundred KB of state: keep one per thread, or pool
/// them; one instance is not safe to share between threads at once.
public final class DeflateCompressor: @unchecked Sendable {
    private let handle: OpaquePointer
    /// 1 (fastest) … 12 (smallest).
    public let level: Int

    public init?(level: Int) {
        let level = max(1, min(12, level))
        guard let c = libdeflate_alloc_compressor(Int32(level)) else { return nil }
        handle = c
        self.level = level
    }

    deinit { libdeflate_free_compressor(handle) }

    /// The compressed bytes; nil only if libdeflate cannot (it always can with its bound).
    public func compress(_ input: UnsafeRawBufferPointer, _ format: DeflateFormat) -> [UInt8]? {
        let bound = switch format {
        case .raw: libdeflate_deflate_compress_bound(handle, input.count)
        case .zlib: libdeflate_zlib_compress_bound(handle, input.count)
        case .gzip: libdeflate_gzip_compress_bound(handle, input.count)
        }
        var ok = true
        let out = [UInt8](unsafeUninitializedCapacity: max(1, bound)) { buffer, count in
            count = switch format {
            case .raw: libdeflate_deflate_compress(handle, input.baseAddress, input.count, buffer.baseAddress, bound)
            case .zlib: libdeflate_zlib_compress(handle, input.baseAddress, input.count, buffer.baseAddress, bound)
            case .gzip: libdeflate_gzip_compress(handle, input.baseAddress, input.count, buffer.baseAddress, bound)
            }
            ok = count > 0 || input.isEmpty
        }
        return ok ? out : nil
    }

    public func compress(_ bytes: [UInt8], _ format: DeflateFormat) -> [UInt8]? {
        bytes.withUnsafeBytes { compress($0, format) }
    }
}

/// A decompressor (small; also one per thread at a time).
public final class DeflateDecompressor: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Why data did not decompress to what was expected.
    public enum Failure: Error, Sendable {
        /// It inflates to more than the room given (a declared size that lies, or a bomb).
        case tooLarge
        /// It inflates to fewer bytes than declared.
        case short(actual: Int)
        /// Not valid DEFLATE data.
        case damaged
    }

    public init?() {
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        handle = d
    }

    deinit { libdeflate_free_decompressor(handle) }

    /// Exactly `size` bytes, as PBF blobs and stored documents declare them.
    public func decompress(_ input: UnsafeRawBufferPointer, _ format: DeflateFormat, size: Int) -> Result<[UInt8], Failure> {
        var actual = 0
        var result = LIBDEFLATE_SUCCESS
        let out = [UInt8](unsafeUninitializedCapacity: max(1, size)) { buffer, count in
            result = run(format, input, buffer.baseAddress, size, &actual)
            count = result == LIBDEFLATE_SUCCESS && actual == size ? size : 0
        }
        switch result {
        case LIBDEFLATE_SUCCESS: return actual == size ? .success(out) : .failure(.short(actual: actual))
        case LIBDEFLATE_INSUFFICIENT_SPACE: return .failure(.tooLarge)
        case LIBDEFLATE_SHORT_OUTPUT: return .failure(.short(actual: actual))
        default: return .failure(.damaged)
        }
    }

    public func decompress(_ bytes: [UInt8], _ format: DeflateFormat, size: Int) -> Result<[UInt8], Failure> {
        bytes.withUnsafeBytes { decompress($0, format, size: size) }
    }

    /// Up to `maxBytes`, for data whose size is not declared; nil when damaged or larger.
    public func decompress(_ bytes: [UInt8], _ format: DeflateFormat, maxBytes: Int) -> [UInt8]? {
        var produced = 0
        var result = LIBDEFLATE_SUCCESS
        let out = [UInt8](unsafeUninitializedCapacity: max(maxBytes, 1)) { buffer, count in
            result = bytes.withUnsafeBytes { run(format, $0, buffer.baseAddress, maxBytes, &produced) }
            count = result == LIBDEFLATE_SUCCESS ? produced : 0
        }
        return result == LIBDEFLATE_SUCCESS ? out : nil
    }

    private func run(_ format: DeflateFormat, _ input: UnsafeRawBufferPointer, _ output: UnsafeMutableRawPointer?, _ room: Int,
                     _ actual: inout Int) -> libdeflate_result {
        switch format {
        case .raw: libdeflate_deflate_decompress(handle, input.baseAddress, input.count, output, room, &actual)
        case .zlib: libdeflate_zlib_decompress(handle, input.baseAddress, input.count, output, room, &actual)
        case .gzip: libdeflate_gzip_decompress(handle, input.baseAddress, input.count, output, room, &actual)
        }
    }
}

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
