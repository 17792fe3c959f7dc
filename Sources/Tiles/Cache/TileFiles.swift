#if canImport(Glibc)
import Glibc
#endif
import BinaryIO
import Synchronization

/// File helpers of the tile cache: whole-file reads, and writes through a unique temporary
/// name and a rename, so a reader sees a complete tile or none.
enum TileFiles {
    private static let counter = Atomic<UInt64>(0)

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The IEND chunk every complete PNG ends with (length 0, type, CRC).
    static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// True for bytes that start like a PNG and end with its IEND chunk (so not torn).
    static func isCompletePNG(_ bytes: [UInt8]) -> Bool {
        bytes.count > pngSignature.count + pngEnd.count
            && bytes.prefix(pngSignature.count).elementsEqual(pngSignature)
            && bytes.suffix(pngEnd.count).elementsEqual(pngEnd)
    }

    static func read(_ path: String) -> [UInt8]? {
        guard FileIO.exists(path) else { return nil }
        return try? FileIO.readAll(path, limit: 16 << 20)
    }

    /// Writes without fsync: a tile lost in a crash is simply rendered again, and a torn one is
    /// refused by `isCompletePNG`.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileIOError) {
        let n = counter.add(1, ordering: .relaxed).newValue
        let temporary = "\(path).tmp-\(getpid())-\(n)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .errno(temporary, "cannot create") }
        let written = bytes.withUnsafeBytes { raw in Result { () throws(FileIOError) in try FileIO.writeAll(fd: fd, raw, path: temporary) } }
        close(fd)
        if case .failure(let error) = written {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = FileIOError.errno(path, "cannot rename into place")
            unlink(temporary)
            throw error
        }
    }
}
