import Dispatch
import Foundation
import GeoCore
import MapsTestSupport
import Synchronization
import Testing
import Tiles

@Suite struct TileCacheTests {
    let tile = TestMap.helsinkiTile

    func renderer() throws -> TileRenderer {
        var m = TestMap(tile: tile)
        m.rectangle(20, 20, 110, 110, ["natural": "water"])
        return TileRenderer(baseMap: try m.baseMap())
    }

    func files(under folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func roundTripServesFromDiskWithAStableETag() throws {
        let folder = Fixtures.temporaryDirectory("tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try TileCache(folder: folder.path + "/ds1", datasetID: "ds1", renderer: try renderer())
        let first = try cache.tile(tile)
        #expect(!first.fromDisk)
        #expect(first.png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let second = try cache.tile(tile)
        #expect(second.fromDisk)
        #expect(second.png == first.png)
        #expect(second.etag == first.etag)
        #expect(first.etag == cache.etag(for: tile))
        #expect(first.etag.hasPrefix("\"ds1-") && first.etag.hasSuffix("\""))
        #expect(cache.etag(for: TileID(zoom: 16, x: 1, y: 2)!) != first.etag)
        #expect(cache.renderCount == 1)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/ds1/16/\(tile.x)/\(tile.y).png"))
        // Written through a temporary name: nothing else is left behind.
        #expect(files(under: folder.appendingPathComponent("ds1")).filter { $0.contains(".tmp") }.isEmpty)

        // A second cache over the same folder (a restarted server) reads the same file.
        let reopened = try TileCache(folder: folder.path + "/ds1", datasetID: "ds1", renderer: try renderer())
        #expect(try reopened.tile(tile).fromDisk)
        #expect(reopened.renderCount == 0)
    }

    @Test func tornFilesAreRenderedAgain() throws {
        let folder = Fixtures.temporaryDirectory("tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try TileCache(folder: folder.path, datasetID: "ds1", renderer: try renderer())
        let good = try cache.tile(tile)
        let path = cache.path(for: tile)
        try Data(good.png.prefix(good.png.count / 2)).write(to: URL(fileURLWithPath: path))
        let again = try cache.tile(tile)
        #expect(!again.fromDisk)
        #expect(again.png == good.png)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(good.png))
    }

    @Test func concurrentRequestsRenderOnce() throws {
        let folder = Fixtures.temporaryDirectory("tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let renderer = try renderer()
        let calls = Atomic<Int>(0)
        let cache = try TileCache(folder: folder.path, datasetID: "ds1", styleVersion: "1") { t in
            calls.add(1, ordering: .relaxed)
            usleep(150_000)
            return try renderer.renderPNG(t)
        }
        let sizes = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let size = (try? cache.tile(tile).png.count) ?? -1
            sizes.withLock { $0.append(size) }
        }
        #expect(calls.load(ordering: .relaxed) == 1)
        let all = sizes.withLock { $0 }
        #expect(all.count == 6 && Set(all).count == 1 && all[0] > 0)
    }

    @Test func renderFailuresReachEveryWaiterAndAreNotCached() throws {
        struct Boom: Error {}
        let folder = Fixtures.temporaryDirectory("tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try TileCache(folder: folder.path, datasetID: "ds1", styleVersion: "1") { _ in throw Boom() }
        #expect(throws: Boom.self) { try cache.tile(tile) }
        #expect(!FileManager.default.fileExists(atPath: cache.path(for: tile)))
    }

    @Test func aNewStyleEmptiesTheFolder() throws {
        let folder = Fixtures.temporaryDirectory("tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let renderer = try renderer()
        let old = try TileCache(folder: folder.path, datasetID: "ds1", styleVersion: "1") { try renderer.renderPNG($0) }
        _ = try old.tile(tile)
        let oldTag = old.etag(for: tile)
        let same = try TileCache(folder: folder.path, datasetID: "ds1", styleVersion: "1") { try renderer.renderPNG($0) }
        #expect(FileManager.default.fileExists(atPath: same.path(for: tile)))
        let new = try TileCache(folder: folder.path, datasetID: "ds1", styleVersion: "2") { try renderer.renderPNG($0) }
        #expect(!FileManager.default.fileExists(atPath: new.path(for: tile)))
        #expect(new.etag(for: tile) != oldTag)
        #expect(!(try new.tile(tile).fromDisk))
    }

    @Test func staleDatasetFoldersAreRemoved() throws {
        let root = Fixtures.temporaryDirectory("tiles")
        defer { try? FileManager.default.removeItem(at: root) }
        for id in ["old1", "old2", "current"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("\(id)/15"), withIntermediateDirectories: true)
        }
        TileCache.removeStaleFolders(tilesRoot: root.path, keeping: "current")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["current"])
    }
}
