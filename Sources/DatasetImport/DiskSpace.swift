import Foundation
import BinaryIO
#if canImport(Glibc)
import Glibc
#endif

/// What an import needs on disk: judged before it starts from the extract's size, and watched as it
/// goes, so that a full disk ends it with a clear message and its half-written folder removed
/// instead of a failed write deep in a stage (or a disk left full for everything else on it).
struct DiskSpace {
    /// Dataset bytes per extract byte at the least, for each kind of data (the smallest ratios
    /// measured here: Milan's car graph 5.8× its PBF and its full dataset 40×; the synthetic
    /// networks, every object a road, 28× and 134×).
    static let graphPerProfile = 4
    static let places = 8
    static let baseMap = 4

    /// The least the dataset will take.
    let neededBytes: Int
    /// Free space kept for the rest of the machine, while the import runs and after it.
    let reserveBytes: Int

    init(fileBytes: Int, options: DatasetImporter.Options, filesystemBytes: Int) {
        let perByte = Self.graphPerProfile * options.profiles.count + (options.skipPlaces ? 0 : Self.places)
            + (options.skipBaseMap ? 0 : Self.baseMap)
        neededBytes = fileBytes * perByte
        reserveBytes = options.diskReserveBytes ?? max(512 << 20, filesystemBytes / 100)
    }

    /// Throws when the dataset cannot fit in the free space less the reserve.
    func check(output: String, extractPath: String, freeBytes: Int) throws {
        guard neededBytes <= freeBytes - reserveBytes else {
            throw ImportError.notEnoughDisk("""
                \(extractPath) needs at least \(MemoryEstimate.gigabytes(neededBytes)) of disk for its dataset, and \(output) has \
                \(MemoryEstimate.gigabytes(max(0, freeBytes))) free, of which \(MemoryEstimate.gigabytes(reserveBytes)) is kept free; \
                nothing was changed. Free disk space, import to another disk, import fewer profiles (--profiles car) or skip \
                the places index (--skip-places)
                """)
        }
    }

    /// Free bytes for an unprivileged writer, and the filesystem's size, where `path` lies.
    static func filesystem(_ path: String) -> (free: Int, total: Int)? {
        var st = statvfs()
        guard statvfs(path, &st) == 0 else { return nil }
        return (Int(st.f_bavail) * Int(st.f_frsize), Int(st.f_blocks) * Int(st.f_frsize))
    }

    /// Ends an import whose disk is down to the reserve: removes its half-written folder (the
    /// manifest still names the previous data) and exits with a clear message.
    static func stop(free: Int, reserve: Int, dataFolder: String, output: String) -> Never {
        FileIO.remove(dataFolder)
        let message = """
            wayfinder: the import stopped before filling the disk: \(MemoryEstimate.gigabytes(free)) was left, less than the \
            \(MemoryEstimate.gigabytes(reserve)) kept free. Nothing was changed in \(output) (the previous dataset, if any, is \
            still the one served). Free disk space, import to another disk, import fewer profiles (--profiles car) or skip the \
            places index (--skip-places).

            """
        message.withCString { _ = write(2, $0, strlen($0)) }
        _exit(75)
    }
}

/// Checks the free space where a dataset is written twice a second while an import runs; the
/// first time it is below the reserve, `low` runs (once).
final class DiskWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var low: (@Sendable (_ freeBytes: Int) -> Void)?
    private var stopped = false

    init(path: String, reserveBytes: Int, low: @escaping @Sendable (_ freeBytes: Int) -> Void) {
        self.low = low
        let thread = Thread { [weak self] in
            while let self, self.sample(path: path, reserve: reserveBytes) { usleep(500_000) }
        }
        thread.name = "wayfinder.disk"
        thread.stackSize = 1 << 16
        thread.start()
    }

    deinit { stop() }

    func stop() {
        lock.lock()
        stopped = true
        low = nil
        lock.unlock()
    }

    private func sample(path: String, reserve: Int) -> Bool {
        let free = DiskSpace.filesystem(path)?.free
        lock.lock()
        if stopped { lock.unlock(); return false }
        var fire: (@Sendable (Int) -> Void)?
        if let free, free < reserve {
            fire = low
            low = nil
        }
        lock.unlock()
        fire?(free ?? 0)
        return true
    }
}
