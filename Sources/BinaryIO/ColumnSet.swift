#if canImport(Glibc)
import Glibc
#endif
import Deflate

/// Named, typed columns of fixed-size values, held either in memory or in a memory-mapped file.
///
/// This is the storage under every frozen structure (road graphs, hierarchies, indexes): a builder
/// fills arrays, `ColumnSet` freezes them, and the same code reads them whether they came from a
/// builder in a test or from a dataset file mapped by a server in a few milliseconds.
public final class ColumnSet: @unchecked Sendable {
    public struct Entry: Sendable {
        public var name: String
        public var elementSize: Int
        public var count: Int
        /// Byte offset from the start of the data region (file) or of the owned buffer (memory).
        public internal(set) var offset: Int
        /// The CRC-32 of the column's bytes (padding excluded), recorded in the directory of a
        /// file; nil in memory and in files written before columns had one.
        public internal(set) var checksum: UInt32? = nil
    }

    public private(set) var entries: [String: Entry] = [:]
    public private(set) var metadata: [String: String]
    /// Whether opening checked the directory against a checksum of its own (files written before
    /// it was recorded have none; in memory there is nothing to check).
    public fileprivate(set) var directoryChecked = false
    private let base: UnsafeRawPointer
    private let release: @Sendable () -> Void

    init(entries: [String: Entry], metadata: [String: String], base: UnsafeRawPointer, release: @escaping @Sendable () -> Void) {
        self.entries = entries
        self.metadata = metadata
        self.base = base
        self.release = release
    }

    deinit { release() }

    public func contains(_ name: String) -> Bool { entries[name] != nil }

    /// The column's values; an absent or mistyped column is a format error, reported with its name.
    public func column<T: BitwiseCopyable>(_ name: String, as type: T.Type = T.self) throws(ColumnSetError) -> UnsafeBufferPointer<T> {
        guard let entry = entries[name] else { throw .missingColumn(name) }
        guard entry.elementSize == MemoryLayout<T>.stride else {
            throw .wrongElementSize(name, expected: MemoryLayout<T>.stride, found: entry.elementSize)
        }
        let pointer = (base + entry.offset).assumingMemoryBound(to: T.self)
        return UnsafeBufferPointer(start: entry.count == 0 ? nil : pointer, count: entry.count)
    }

    /// The column, or an empty buffer when absent.
    public func optionalColumn<T: BitwiseCopyable>(_ name: String, as type: T.Type = T.self) -> UnsafeBufferPointer<T> {
        (try? column(name, as: T.self)) ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    public var totalBytes: Int { entries.values.reduce(0) { $0 + $1.elementSize * $1.count } }
}

public enum ColumnSetError: Error, CustomStringConvertible, Sendable {
    case missingColumn(String)
    case wrongElementSize(String, expected: Int, found: Int)
    case notAColumnFile(String)
    case wrongFormatVersion(String, found: UInt32, expected: UInt32)
    case damaged(String, String)
    case io(FileIOError)

    public var description: String {
        switch self {
        case .missingColumn(let n): return "the data file has no column \"\(n)\"; re-import the dataset"
        case .wrongElementSize(let n, let e, let f): return "column \"\(n)\" has \(f)-byte values, expected \(e); re-import the dataset"
        case .notAColumnFile(let p): return "\(p) is not a Wayfinder data file"
        case .wrongFormatVersion(let p, let found, let expected):
            return "\(p) has format version \(found), this wayfinder reads version \(expected); re-import the dataset with this version"
        case .damaged(let p, let why): return "\(p) is damaged (\(why)); re-import the dataset"
        case .io(let e): return e.description
        }
    }
}

/// Where columns go as they are made: memory (`ColumnSetBuilder`) or a file (`ColumnFileWriter`).
public protocol ColumnSink {
    mutating func add<T: BitwiseCopyable>(_ name: String, _ values: UnsafeBufferPointer<T>)
}

extension ColumnSink {
    public mutating func add<T: BitwiseCopyable>(_ name: String, _ values: [T]) {
        values.withUnsafeBufferPointer { add(name, $0) }
    }
}

/// Collects columns in memory and freezes them (tests, drawn maps, small structures), or writes
/// them as one file through `ColumnFileWriter`.
///
/// File layout: a 64-byte header (magic, format version, directory offset/length, content CRC-32,
/// directory CRC-32), then each column aligned to 64 bytes, then a text directory with each
/// column's name, element size, count, offset and CRC-32. The content CRC covers every byte after
/// the header, so a flipped bit anywhere is caught by the full check; the directory's own CRC (with
/// its lowest bit set, so that 0 means a file written before it) lets a reader that defers the full
/// check still refuse a damaged directory at open, and then trust the columns' CRCs in it to check
/// only the columns it is about to read (`verify(path:columns:)`).
public struct ColumnSetBuilder: ColumnSink {
    private var columns: [(name: String, elementSize: Int, count: Int, bytes: [UInt8])] = []
    public var metadata: [String: String] = [:]

    public init() {}

    public mutating func add<T: BitwiseCopyable>(_ name: String, _ values: UnsafeBufferPointer<T>) {
        precondition(!columns.contains { $0.name == name }, "duplicate column \(name)")
        ColumnSetBuilder.checkName(name)
        columns.append((name, MemoryLayout<T>.stride, values.count, Array(UnsafeRawBufferPointer(values))))
    }

    static func checkName(_ name: String) {
        precondition(!name.isEmpty && !name.contains(" ") && !name.contains("\n"), "column names are single words")
    }

    /// Copies the columns into one owned allocation.
    public func freeze() -> ColumnSet {
        var entries: [String: ColumnSet.Entry] = [:]
        var offset = 0
        for c in columns {
            entries[c.name] = .init(name: c.name, elementSize: c.elementSize, count: c.count, offset: offset)
            offset += (c.bytes.count + 63) & ~63
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(offset, 64), alignment: 64)
        for c in columns {
            c.bytes.withUnsafeBytes { src in
                if let s = src.baseAddress { (memory + entries[c.name]!.offset).copyMemory(from: s, byteCount: src.count) }
            }
        }
        nonisolated(unsafe) let owned = memory
        return ColumnSet(entries: entries, metadata: metadata, base: UnsafeRawPointer(memory), release: { owned.deallocate() })
    }

    static let magic: [UInt8] = Array("WAYFINDR".utf8)
    static let headerSize = 64

    /// Writes the columns to `path` atomically (temporary name, fsync, rename).
    public func write(to path: String, formatVersion: UInt32) throws(FileIOError) {
        let writer = try ColumnFileWriter(path: path, formatVersion: formatVersion)
        writer.metadata = metadata
        for c in columns {
            try c.bytes.withUnsafeBytes { raw in
                Result { () throws(FileIOError) in try writer.append(c.name, elementSize: c.elementSize, count: c.count, raw) }
            }.get()
        }
        try writer.finish()
    }

    static func bytes<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "%": out += "%25"
            case " ": out += "%20"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    static func unescape(_ s: Substring) -> String {
        s.replacingOccurrences("%20", " ").replacingOccurrences("%0A", "\n").replacingOccurrences("%25", "%")
    }
}

extension StringProtocol {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        guard !target.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) { return i..<index(i, offsetBy: target.count) }
            i = index(after: i)
        }
        return nil
    }
}

extension ColumnSet {
    /// Maps a column file read-only. With `verify`, the content CRC is checked before anything is
    /// returned, so a damaged file is refused instead of served; without, only the directory's CRC
    /// is (when the file records one: `directoryChecked`), in time independent of the file's size.
    public static func open(path: String, formatVersion: UInt32, verify: Bool = true) throws(ColumnSetError) -> ColumnSet {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(.errno(path, "cannot open")) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(.errno(path, "cannot stat")) }
        let size = Int(st.st_size)
        guard size >= ColumnSetBuilder.headerSize else { throw .notAColumnFile(path) }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
            throw .io(.errno(path, "cannot map"))
        }
        let base = UnsafeRawPointer(mapping)
        nonisolated(unsafe) let unmapAddress = mapping
        let unmap: @Sendable () -> Void = { munmap(unmapAddress, size) }
        do throws(ColumnSetError) {
            let header = UnsafeRawBufferPointer(start: base, count: ColumnSetBuilder.headerSize)
            guard Array(header[0..<8]) == ColumnSetBuilder.magic else { throw .notAColumnFile(path) }
            let version = header.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            guard version == formatVersion else { throw .wrongFormatVersion(path, found: version, expected: formatVersion) }
            // The header is outside the content CRC: its reserved bytes (written as zeros) are checked instead.
            guard header[12..<16].allSatisfy({ $0 == 0 }), header[40..<ColumnSetBuilder.headerSize].allSatisfy({ $0 == 0 }) else {
                throw .damaged(path, "the header's reserved bytes are not zero")
            }
            let directoryOffset = Int(header.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            let directoryLength = Int(header.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            let storedCRC = header.loadUnaligned(fromByteOffset: 32, as: UInt32.self)
            let directoryCRC = header.loadUnaligned(fromByteOffset: 36, as: UInt32.self)
            let bodySize = size - ColumnSetBuilder.headerSize
            guard directoryOffset >= 0, directoryLength >= 0, directoryOffset + directoryLength == bodySize else {
                throw .damaged(path, "the directory does not fit the file size (truncated?)")
            }
            let body = base + ColumnSetBuilder.headerSize
            if verify { try checkContent(path: path, fd: fd, size: size, storedCRC: storedCRC) }
            let directoryBytes = UnsafeRawBufferPointer(start: body + directoryOffset, count: directoryLength)
            if directoryCRC != 0 && CRC32.checksum(directoryBytes) | 1 != directoryCRC {
                throw .damaged(path, "the column directory does not match its checksum")
            }
            let directory = String(decoding: directoryBytes, as: UTF8.self)
            var entries: [String: Entry] = [:]
            var metadata: [String: String] = [:]
            for line in directory.split(separator: "\n") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: false)
                if parts.first == "meta", parts.count == 3 {
                    metadata[ColumnSetBuilder.unescape(parts[1])] = ColumnSetBuilder.unescape(parts[2])
                } else if parts.first == "column", parts.count == 5 || parts.count == 6,
                          let elementSize = Int(parts[2]), let count = Int(parts[3]), let offset = Int(parts[4]),
                          elementSize > 0, count >= 0, offset >= 0, offset % 64 == 0,
                          count <= (directoryOffset - offset) / elementSize {
                    // Five fields: a file written before columns had checksums of their own.
                    let checksum = parts.count == 6 ? UInt32(parts[5]) : nil
                    guard parts.count == 5 || checksum != nil else { throw .damaged(path, "unreadable directory line \"\(line.prefix(60))\"") }
                    entries[String(parts[1])] = Entry(name: String(parts[1]), elementSize: elementSize, count: count, offset: offset,
                                                      checksum: checksum)
                } else {
                    throw .damaged(path, "unreadable directory line \"\(line.prefix(60))\"")
                }
            }
            let set = ColumnSet(entries: entries, metadata: metadata, base: body, release: unmap)
            set.directoryChecked = directoryCRC != 0
            return set
        } catch {
            unmap()
            throw error
        }
    }

    /// Checks a column file's content against the checksum in its header, reading it with `pread`
    /// (through the page cache, never into this process's resident memory), so that a server can
    /// run the check in the background while it already answers from the mapped file.
    public static func verify(path: String) throws(ColumnSetError) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(.errno(path, "cannot open")) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(.errno(path, "cannot stat")) }
        var header = [UInt8](repeating: 0, count: ColumnSetBuilder.headerSize)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n == ColumnSetBuilder.headerSize else { throw .notAColumnFile(path) }
        let storedCRC = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 32, as: UInt32.self) }
        try checkContent(path: path, fd: fd, size: Int(st.st_size), storedCRC: storedCRC)
    }

    /// Whether every column has a checksum of its own in a directory that was itself checked at
    /// open, so that `verify(path:columns:)` can vouch for a part of the file.
    public var columnsChecksummed: Bool { directoryChecked && entries.values.allSatisfy { $0.checksum != nil } }

    /// Checks the named columns of the file this set was opened from against their checksums in
    /// the directory, reading only their bytes with `pread` (through the page cache, not into this
    /// process's resident memory). Needs `columnsChecksummed`; a damaged column is named.
    public func verify(path: String, columns names: some Sequence<String>) throws(ColumnSetError) {
        precondition(columnsChecksummed, "the file records no column checksums")
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(.errno(path, "cannot open")) }
        defer { close(fd) }
        FileIO.adviseRandomReads(fd)
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        for name in names {
            guard let entry = entries[name], let expected = entry.checksum else { throw .missingColumn(name) }
            let start = ColumnSetBuilder.headerSize + entry.offset
            let crc = try Self.checksum(fd: fd, path: path, from: start, to: start + entry.elementSize * entry.count, buffer: &buffer)
            guard crc == expected else { throw .damaged(path, "column \"\(name)\" does not match its checksum") }
        }
    }

    /// The CRC-32 of the file's bytes `start..<end`, read with `pread` through `buffer`.
    private static func checksum(fd: Int32, path: String, from start: Int, to end: Int,
                                 buffer: inout [UInt8]) throws(ColumnSetError) -> UInt32 {
        var offset = start
        var crc: UInt32 = 0
        while offset < end {
            let want = min(buffer.count, end - offset)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, want, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .io(.errno(path, "cannot read")) }
            crc = buffer.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<n]), continuing: crc) }
            offset += n
        }
        return crc
    }

    private static func checkContent(path: String, fd: Int32, size: Int, storedCRC: UInt32) throws(ColumnSetError) {
        FileIO.adviseRandomReads(fd)
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        let crc = try checksum(fd: fd, path: path, from: ColumnSetBuilder.headerSize, to: size, buffer: &buffer)
        guard crc == storedCRC else { throw .damaged(path, "content checksum mismatch") }
    }
}
