#if canImport(Glibc)
import Glibc
#endif
import Deflate
import Dispatch
import Parallelism

/// Reads an `.osm.pbf` file block by block, decoding blocks in parallel and delivering them in file order.
///
/// Memory is bounded by one batch of blocks (a few per core), never by the file: blobs are read with
/// `pread` as they are needed. Inflate uses libdeflate rather than zlib: on the Helsinki and Porto
/// extracts libdeflate inflated PBF blobs 2.1–2.4× faster than zlib's `uncompress` on this machine
/// (measured 2026-11-29 with a one-off harness that is not kept: Porto's 3.2 MB of blobs, 640 MB/s vs 290 MB/s),
/// and PBF blobs carry the exact `raw_size` libdeflate needs.
public final class PBFReader: @unchecked Sendable {
    public let path: String
    public let fileSize: Int
    public let header: PBFHeader
    private let fd: Int32
    private let firstDataOffset: Int

    /// The PBF spec caps a blob header at 64 KiB and a blob at 32 MiB; larger claims are corruption.
    static let maxBlobHeaderSize = 64 * 1024
    static let maxBlobSize = 32 * 1024 * 1024

    public init(path: String) throws(PBFError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PBFError(.cannotOpen, offset: 0, String(cString: strerror(errno)), path: path)
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw PBFError(.cannotOpen, offset: 0, "not a regular file", path: path)
        }
        self.fd = fd
        fileSize = Int(st.st_size)
        do throws(PBFError) {
            guard fileSize > 0 else { throw PBFError(.truncated, offset: 0, "the file is empty") }
            let first = try Self.readBlob(fd: fd, at: 0, fileSize: fileSize)
            guard first.type == "OSMHeader" else {
                throw PBFError(.malformed, offset: 0, "the first block is \"\(first.type)\", expected \"OSMHeader\" (is this really an .osm.pbf file?)")
            }
            let bytes = try Self.inflate(first, decompressor: nil)
            let decoded = bytes.withUnsafeBytes { raw in
                Result { () throws(WireReader.WireError) in try PBFHeader.decode(raw) }
            }
            guard case .success(let header) = decoded else {
                throw PBFError(.malformed, offset: 0, "the header block is not valid protobuf")
            }
            for feature in header.requiredFeatures where !PBFHeader.supportedFeatures.contains(feature) {
                throw PBFError(.unsupported, offset: 0, "the file requires the feature \"\(feature)\", which this reader does not support")
            }
            self.header = header
            firstDataOffset = first.nextOffset
        } catch {
            close(fd)
            var e = error
            e.path = path
            throw e
        }
    }

    deinit { close(fd) }

    struct RawBlob {
        var type: String
        var offset: Int
        var nextOffset: Int
        var data: [UInt8]
    }

    /// Reads the blob header and the blob bytes at `offset`, checking every size against the file.
    static func readBlob(fd: Int32, at offset: Int, fileSize: Int, readData: Bool = true) throws(PBFError) -> RawBlob {
        guard fileSize - offset >= 4 else {
            throw PBFError(.truncated, offset: offset, "the file ends inside a block length (\(fileSize - offset) of 4 bytes present)")
        }
        let lengthBytes = try readExactly(fd: fd, count: 4, at: offset)
        let headerLength = Int(lengthBytes[0]) << 24 | Int(lengthBytes[1]) << 16 | Int(lengthBytes[2]) << 8 | Int(lengthBytes[3])
        guard headerLength > 0 && headerLength <= maxBlobHeaderSize else {
            throw PBFError(.malformed, offset: offset, "block header length \(headerLength) is outside 1...\(maxBlobHeaderSize)")
        }
        guard fileSize - offset - 4 >= headerLength else {
            throw PBFError(.truncated, offset: offset, "the file ends inside a block header (needs \(headerLength) bytes, \(fileSize - offset - 4) left)")
        }
        let headerBytes = try readExactly(fd: fd, count: headerLength, at: offset + 4)
        var type = ""
        var declaredSize: UInt64?
        let parsed = headerBytes.withUnsafeBytes { raw in
            Result { () throws(WireReader.WireError) in
                var r = WireReader(raw)
                while !r.isAtEnd {
                    let (field, wire) = try r.key()
                    switch (field, wire) {
                    case (1, 2): type = String(decoding: try r.lengthDelimited(), as: UTF8.self)
                    case (3, 0): declaredSize = try r.varint()
                    default: try r.skip(wireType: wire)
                    }
                }
            }
        }
        if case .failure(let error) = parsed {
            throw PBFError(.malformed, offset: offset, "the block header is not valid protobuf (\(error))")
        }
        guard let declaredSize else { throw PBFError(.malformed, offset: offset, "the block header has no data size") }
        guard declaredSize <= UInt64(maxBlobSize) else {
            throw PBFError(.tooLarge, offset: offset, "a block claims \(declaredSize) bytes; the format allows at most \(maxBlobSize)")
        }
        let dataSize = Int(declaredSize)
        let dataOffset = offset + 4 + headerLength
        guard fileSize - dataOffset >= dataSize else {
            throw PBFError(.truncated, offset: offset, "the file ends inside a block (needs \(dataSize) bytes, \(fileSize - dataOffset) left): the download is probably incomplete")
        }
        let data = readData ? try readExactly(fd: fd, count: dataSize, at: dataOffset) : []
        return RawBlob(type: type, offset: offset, nextOffset: dataOffset + dataSize, data: data)
    }

    private static func readExactly(fd: Int32, count: Int, at offset: Int) throws(PBFError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw PBFError(.truncated, offset: offset, "read failed after \(done) of \(count) bytes") }
            done += n
        }
        return buffer
    }

    /// The `raw_size` a `Blob` message declares, capped at the format's limit; 0 when it has none
    /// or cannot be read (decoding then reports the problem with its offset).
    static func inflatedSizeBound(_ data: [UInt8]) -> Int {
        data.withUnsafeBytes { raw in
            var r = WireReader(raw)
            while !r.isAtEnd {
                guard let (field, wire) = try? r.key() else { return 0 }
                if field == 2 && wire == 0 {
                    guard let size = try? r.varint() else { return 0 }
                    return Int(min(size, UInt64(maxBlobSize)))
                }
                guard (try? r.skip(wireType: wire)) != nil else { return 0 }
            }
            return 0
        }
    }

    /// Unpacks a `Blob` message: raw bytes or zlib data with its exact raw size.
    static func inflate(_ blob: RawBlob, decompressor: DeflateDecompressor?) throws(PBFError) -> [UInt8] {
        let result = blob.data.withUnsafeBytes { raw in
            Result { () throws(PBFError) -> [UInt8] in try inflate(raw, blobOffset: blob.offset, decompressor: decompressor) }
        }
        return try result.get()
    }

    private static func inflate(_ raw: UnsafeRawBufferPointer, blobOffset: Int, decompressor: DeflateDecompressor?) throws(PBFError) -> [UInt8] {
        var r = WireReader(raw)
        var rawData: UnsafeRawBufferPointer?
        var zlibData: UnsafeRawBufferPointer?
        var declaredRawSize: UInt64?
        var other: Int?
        do throws(WireReader.WireError) {
            while !r.isAtEnd {
                let (field, wire) = try r.key()
                switch (field, wire) {
                case (1, 2): rawData = try r.lengthDelimited()
                case (2, 0): declaredRawSize = try r.varint()
                case (3, 2): zlibData = try r.lengthDelimited()
                case (4, 2), (5, 2), (6, 2), (7, 2):
                    other = field
                    try r.skip(wireType: wire)
                default: try r.skip(wireType: wire)
                }
            }
        } catch {
            throw PBFError(.malformed, offset: blobOffset, "the block is not valid protobuf (\(error))")
        }
        if let rawData { return Array(rawData) }
        if let zlibData {
            guard let declaredRawSize else {
                throw PBFError(.malformed, offset: blobOffset, "a compressed block does not declare its raw_size")
            }
            guard declaredRawSize <= UInt64(maxBlobSize) else {
                throw PBFError(.tooLarge, offset: blobOffset, "a block claims to inflate to \(declaredRawSize) bytes; the format allows at most \(maxBlobSize)")
            }
            let rawSize = Int(declaredRawSize)
            guard let inflater = decompressor ?? DeflateDecompressor() else {
                throw PBFError(.tooLarge, offset: blobOffset, "no memory for a decompressor")
            }
            switch inflater.decompress(zlibData, .zlib, size: rawSize) {
            case .success(let out): return out
            case .failure(let failure):
                let why = switch failure {
                case .tooLarge: "inflates to more than its declared \(rawSize) bytes"
                case .short(let actual): "inflates to \(actual) bytes, fewer than its declared \(rawSize)"
                case .damaged: "has corrupt zlib data"
                }
                throw PBFError(.malformed, offset: blobOffset, "a compressed block \(why)")
            }
        }
        let names = [4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd"]
        if let other {
            throw PBFError(.unsupported, offset: blobOffset, "the block uses \(names[other] ?? "unknown") compression; re-encode the file with zlib (osmium cat -f pbf)")
        }
        throw PBFError(.malformed, offset: blobOffset, "the block holds no data")
    }

    /// How many data blocks the file holds, from the block headers alone (nothing is inflated):
    /// with the file size, what an import can estimate its memory from before it starts.
    public func dataBlockCount() throws(PBFError) -> Int {
        var offset = firstDataOffset, count = 0
        while offset < fileSize {
            let blob: RawBlob
            do throws(PBFError) { blob = try Self.readBlob(fd: fd, at: offset, fileSize: fileSize, readData: false) } catch {
                var named = error
                named.path = path
                throw named
            }
            if blob.type == "OSMData" { count += 1 }
            offset = blob.nextOffset
        }
        return count
    }

    /// Decodes every data block, in parallel on all cores, and calls `body` with each in file order.
    ///
    /// - Parameters:
    ///   - content: which kinds of objects to decode (others are skipped cheaply).
    ///   - progress: called on the caller's thread with (bytes read, file size) after each batch.
    ///   - body: runs on the caller's thread; throwing from it stops the read and rethrows.
    public func forEachBlock(content: OSMContent = .all,
                             progress: ((Int, Int) -> Void)? = nil,
                             _ body: (OSMBlock) throws -> Void) throws {
        let cores = Parallelism.threads
        let batchSize = cores * 4
        var offset = firstDataOffset
        let decoder = PrimitiveBlockDecoder(content: content)
        while offset < fileSize {
            var blobs: [RawBlob] = []
            // Bounded by what the blocks inflate to, not by their size on disk: a 32 KB zlib bomb
            // inflates to 32 MiB and decodes to ~300 MB of strings, and a batch of 4 per core of them
            // took 2.2 GB on 2 cores. Now a batch holds at most about two maximal blocks.
            var batchBytes = 0
            while offset < fileSize && blobs.count < batchSize && batchBytes < Self.maxBlobSize {
                var blob: RawBlob
                do throws(PBFError) { blob = try Self.readBlob(fd: fd, at: offset, fileSize: fileSize) } catch {
                    var named = error
                    named.path = path
                    throw named
                }
                offset = blob.nextOffset
                guard blob.type == "OSMData" else { continue }  // unknown block types are skipped by spec
                batchBytes += max(blob.data.count, Self.inflatedSizeBound(blob.data))
                blob.type = ""
                blobs.append(blob)
            }
            let results = UnsafeMutableBufferPointer<Result<OSMBlock, PBFError>?>.allocate(capacity: blobs.count)
            results.initialize(repeating: nil)
            defer { results.deinitialize(); results.deallocate() }
            nonisolated(unsafe) let slots = results
            let input = blobs
            Parallelism.perform(iterations: input.count) { i in
                slots[i] = Self.decode(input[i], decoder: decoder)
            }
            for i in 0..<blobs.count {
                switch results[i]! {
                case .success(let block): try body(block)
                case .failure(var error):
                    error.path = path
                    throw error
                }
            }
            progress?(offset, fileSize)
        }
    }

    private static func decode(_ blob: RawBlob, decoder: PrimitiveBlockDecoder) -> Result<OSMBlock, PBFError> {
        let bytes: [UInt8]
        do throws(PBFError) { bytes = try inflate(blob, decompressor: nil) } catch { return .failure(error) }
        let decoded = bytes.withUnsafeBytes { raw in
            Result { () throws(PrimitiveBlockDecoder.DecodeError) in try decoder.decode(raw) }
        }
        switch decoded {
        case .success(let block): return .success(block)
        case .failure(.wire(let w)): return .failure(PBFError(.malformed, offset: blob.offset, "a data block is not valid protobuf (\(w))"))
        case .failure(.invalid(let why)): return .failure(PBFError(.malformed, offset: blob.offset, why))
        }
    }
}
