import Foundation
import Synchronization
import Testing
import MapsTestSupport
import Dataset
@testable import DatasetImport

/// The import's disk: an import that cannot fit in the free space (less what is kept free for the
/// rest of the machine) is refused before it writes anything, and a disk that runs down to the
/// reserve while it runs is noticed within a second.
@Suite struct ImportDiskTests {
    static func importTown(_ dir: String, reserve: Int? = nil) throws -> DatasetImporter.Summary {
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir)
        options.profiles = [.car]
        options.timeZone = "Europe/Helsinki"
        options.diskReserveBytes = reserve
        return try DatasetImporter(options: options).run()
    }

    @Test func anImportThatCannotFitOnTheDiskIsRefusedAndChangesNothing() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-disk").path
        let first = try Self.importTown(dir)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let free = try #require(DiskSpace.filesystem(dir)).free
        #expect { try Self.importTown(dir, reserve: 2 * free) } throws: { error in
            guard case ImportError.notEnoughDisk(let message) = error else { return false }
            return message.contains("of disk") && message.contains("nothing was changed")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before)
        #expect(try Dataset(path: dir).manifest.id == first.manifest.id)
    }

    @Test func theEstimateIsBelowWhatAnImportWrites() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-disk-estimate").path
        let summary = try Self.importTown(dir)
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir)
        options.profiles = [.car]
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: DrawnTown.fixturePath)[.size] as? Int)
        let estimate = DiskSpace(fileBytes: fileBytes, options: options, filesystemBytes: 0)
        #expect(estimate.neededBytes > 0)
        #expect(estimate.neededBytes <= summary.manifest.fileBytes.values.reduce(0, +))
    }

    @Test func aDiskDownToTheReserveIsNoticedWhileTheImportRuns() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-disk-watch").path
        let free = try #require(DiskSpace.filesystem(dir)).free
        let seen = Mutex<Int?>(nil)
        let watch = DiskWatch(path: dir, reserveBytes: free * 2) { bytes in seen.withLock { $0 = bytes } }
        defer { watch.stop() }
        for _ in 0..<40 where seen.withLock({ $0 }) == nil { usleep(50_000) }
        #expect(seen.withLock { $0 } != nil)
        let calm = Mutex(false)
        let quiet = DiskWatch(path: dir, reserveBytes: 0) { _ in calm.withLock { $0 = true } }
        usleep(600_000)
        quiet.stop()
        #expect(!calm.withLock { $0 })
    }
}
