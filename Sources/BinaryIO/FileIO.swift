#if canImport(Glibc)
import Glibc
#endif
import Deflate

/// I/O failures with the path and the system's reason.
public struct FileIOError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public static func errno(_ path: String, _ action: String) -> FileIOError {
        FileIOError(path: path, reason: "\(action): \(String(cString: strerror(Glibc.errno)))")
    }

    public var description: String { "\(path): \(reason)" }
}

/// Small POSIX helpers used by every writer: whole-file writes through a temporary name and rename,
/// so that readers never see half a file and a crash never leaves one under the final name.
public enum FileIO {
    /// Writes `bytes` to `path + ".tmp-PID"`, fsyncs, then renames over `path`.
    public static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to path: String) throws(FileIOError) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .errno(temporary, "cannot create") }
        do throws(FileIOError) {
            try writeAll(fd: fd, bytes, path: temporary)
            guard fsync(fd) == 0 else { throw .errno(temporary, "cannot sync") }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = FileIOError.errno(path, "cannot rename into place")
            unlink(temporary)
            throw error
        }
    }

    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileIOError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(FileIOError) in try writeAtomically(raw, to: path) } }
        try result.get()
    }

    public static func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileIOError) {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .errno(path, "cannot write (\(done) of \(bytes.count) bytes written)") }
            done += n
        }
    }

    public static func readAll(_ path: String, limit: Int = 1 << 30) throws(FileIOError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .errno(path, "cannot open") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .errno(path, "cannot stat") }
        let size = Int(st.st_size)
        guard size <= limit else { throw FileIOError(path: path, reason: "file is \(size) bytes, more than the \(limit) allowed") }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        if done < size { bytes.removeSubrange(done...) }
        return bytes
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    public static func makeDirectory(_ path: String) throws(FileIOError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST { throw .errno(partial, "cannot create directory") }
        }
    }

    /// Removes a file or a directory tree; missing paths are fine.
    public static func remove(_ path: String) {
        if isDirectory(path), let dir = opendir(path) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    public static func listDirectory(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public static func fileSize(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    /// Reads of `fd` bring pages into the page cache one by one instead of by readahead, which
    /// would cache them in large folios (see `ColumnFileWriter.writeChunk`) that a later memory
    /// mapping of the same file then holds resident whole.
    public static func adviseRandomReads(_ fd: Int32) {
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_RANDOM))
    }

    /// CRC-32 of a whole file, streamed in 4 MiB chunks.
    public static func checksum(ofFile path: String) throws(FileIOError) -> UInt32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .errno(path, "cannot open") }
        defer { close(fd) }
        adviseRandomReads(fd)
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        var crc: UInt32 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .errno(path, "cannot read") }
            if n == 0 { break }
            crc = buffer.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<n]), continuing: crc) }
        }
        return crc
    }
}
