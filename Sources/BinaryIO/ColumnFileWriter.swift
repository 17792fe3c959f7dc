#if canImport(Glibc)
import Glibc
#endif
import Deflate

/// Writes a column file as the columns come, so that no column is held twice: each `add` goes
/// straight to a temporary file (`path.tmp-PID`) with its CRC taken on the way; `finish` writes
/// the directory and header, syncs and renames into place. A writer dropped unfinished removes its
/// temporary file, so a failed import never leaves half a file under either name.
///
/// The layout is `ColumnSetBuilder`'s (header, 64-byte aligned columns, text directory).
/// `mappedView` maps what is written so far, so a later stage can read earlier columns from the
/// page cache instead of keeping its own copy.
public final class ColumnFileWriter: ColumnSink {
    public let path: String
    public var metadata: [String: String] = [:]
    private let temporary: String
    private let formatVersion: UInt32
    private var fd: Int32
    private var bodyBytes = 0
    private var crc: UInt32 = 0
    private var directory: [ColumnSet.Entry] = []
    private var names: Set<String> = []
    /// The first write error; `add` cannot throw (it is a `ColumnSink`), so `finish` reports it.
    private var failure: FileIOError?

    public init(path: String, formatVersion: UInt32) throws(FileIOError) {
        self.path = path
        self.formatVersion = formatVersion
        temporary = "\(path).tmp-\(getpid())"
        fd = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .errno(temporary, "cannot create") }
        let header = [UInt8](repeating: 0, count: ColumnSetBuilder.headerSize)
        do throws(FileIOError) {
            let temporary = temporary, fd = fd
            try header.withUnsafeBytes { raw in Result { () throws(FileIOError) in try FileIO.writeAll(fd: fd, raw, path: temporary) } }.get()
        } catch {
            discard()
            throw error
        }
    }

    deinit { if fd >= 0 { discard() } }

    private func discard() {
        close(fd)
        unlink(temporary)
        fd = -1
    }

    /// Bytes of column data written so far (the file is this plus the header and directory).
    public var writtenBytes: Int { bodyBytes }

    /// The CRC-32 of the whole file, known once it is finished (from the header's and the body's,
    /// so the file need not be read back).
    public private(set) var fileChecksum: UInt32?

    public func add<T: BitwiseCopyable>(_ name: String, _ values: UnsafeBufferPointer<T>) {
        do throws(FileIOError) {
            try append(name, elementSize: MemoryLayout<T>.stride, count: values.count, UnsafeRawBufferPointer(values))
        } catch {
            if failure == nil { failure = error }
        }
    }

    /// Appends one column's raw bytes (`count` values of `elementSize` bytes).
    func append(_ name: String, elementSize: Int, count: Int, _ bytes: UnsafeRawBufferPointer) throws(FileIOError) {
        precondition(fd >= 0, "the writer is finished")
        precondition(names.insert(name).inserted, "duplicate column \(name)")
        ColumnSetBuilder.checkName(name)
        precondition(bytes.count == elementSize * count, "column \(name): \(bytes.count) bytes for \(count) values of \(elementSize)")
        if let failure { throw failure }
        // The column's own checksum, folded into the file's: a server checks the columns one
        // profile reads before that profile's first route, without reading the others.
        let checksum = CRC32.checksum(bytes)
        directory.append(.init(name: name, elementSize: elementSize, count: count, offset: bodyBytes, checksum: checksum))
        try writeBody(bytes, checksum: checksum)
        let padding = ((bodyBytes + 63) & ~63) - bodyBytes
        if padding > 0 {
            let zeros = [UInt8](repeating: 0, count: padding)
            try writeBody(zeros)
        }
    }

    private func writeBody(_ bytes: [UInt8]) throws(FileIOError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(FileIOError) in try writeBody(raw) } }.get()
    }

    /// Writes in pieces of at most 64 KiB: the page cache then holds the file in small folios.
    /// A large write makes large ones (up to 2 MiB on Linux 6.x with ext4), and a server that
    /// maps the file would hold a whole folio resident for every byte it reads (measured here:
    /// 2 MiB per scattered read instead of the 64 KiB fault-around).
    static let writeChunk = 64 << 10

    /// `checksum`: the bytes' CRC-32 when the caller has it already (it is not taken twice).
    private func writeBody(_ bytes: UnsafeRawBufferPointer, checksum: UInt32? = nil) throws(FileIOError) {
        guard bytes.count > 0 else { return }
        do throws(FileIOError) {
            var done = 0
            while done < bytes.count {
                let n = min(Self.writeChunk, bytes.count - done)
                try FileIO.writeAll(fd: fd, UnsafeRawBufferPointer(rebasing: bytes[done..<(done + n)]), path: temporary)
                done += n
            }
        } catch {
            failure = failure ?? error
            throw error
        }
        crc = checksum.map { CRC32.combine(crc, $0, secondLength: bytes.count) } ?? CRC32.checksum(bytes, continuing: crc)
        bodyBytes += bytes.count
    }

    /// The columns written so far, memory-mapped from the temporary file (pages come from the
    /// page cache, so reading them costs no second copy). Valid while the returned set lives,
    /// even after `finish` renames the file.
    public func mappedView() throws(FileIOError) -> ColumnSet {
        if let failure { throw failure }
        let size = ColumnSetBuilder.headerSize + bodyBytes
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
            throw .errno(temporary, "cannot map")
        }
        nonisolated(unsafe) let address = mapping
        var entries: [String: ColumnSet.Entry] = [:]
        for e in directory { entries[e.name] = e }
        return ColumnSet(entries: entries, metadata: metadata, base: UnsafeRawPointer(mapping) + ColumnSetBuilder.headerSize,
                         release: { munmap(address, size) })
    }

    /// Writes the directory and header, syncs, and renames the file into place.
    public func finish() throws(FileIOError) {
        precondition(fd >= 0, "the writer is finished")
        do throws(FileIOError) {
            if let failure { throw failure }
            var text = ""
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                text += "meta \(ColumnSetBuilder.escape(key)) \(ColumnSetBuilder.escape(value))\n"
            }
            for c in directory { text += "column \(c.name) \(c.elementSize) \(c.count) \(c.offset) \(c.checksum ?? 0)\n" }
            let directoryOffset = bodyBytes
            let directoryBytes = Array(text.utf8)
            try writeBody(directoryBytes)
            var header = ColumnSetBuilder.magic
            header += ColumnSetBuilder.bytes(formatVersion)
            header += ColumnSetBuilder.bytes(UInt32(0))
            header += ColumnSetBuilder.bytes(UInt64(directoryOffset))
            header += ColumnSetBuilder.bytes(UInt64(directoryBytes.count))
            header += ColumnSetBuilder.bytes(crc)
            // The directory's own checksum: a reader that leaves the content's check for later
            // (a server at start) still refuses a damaged directory at once.
            header += ColumnSetBuilder.bytes(directoryBytes.withUnsafeBytes { CRC32.checksum($0) } | 1)
            header += [UInt8](repeating: 0, count: ColumnSetBuilder.headerSize - header.count)
            let written = header.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            guard written == header.count else { throw .errno(temporary, "cannot write the header") }
            guard fsync(fd) == 0 else { throw .errno(temporary, "cannot sync") }
            fileChecksum = CRC32.combine(CRC32.checksum(header), crc, secondLength: bodyBytes)
            guard rename(temporary, path) == 0 else { throw .errno(path, "cannot rename into place") }
        } catch {
            discard()
            throw error
        }
        close(fd)
        fd = -1
    }
}
