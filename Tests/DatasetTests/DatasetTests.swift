import Foundation
import Testing
import MapsTestSupport
import Dataset
import DatasetImport
import RoadNetwork
import RoadExtract

/// A dataset folder as an import leaves it and a server opens it: the manifest names every file
/// with its size and checksum, each profile's graph and hierarchy open from the one graph file,
/// and `state/` is kept across imports while old data folders go.
@Suite struct DatasetTests {
    static func importTown(into dir: URL, profiles: [Profile] = [.car, .pedestrian]) throws -> Dataset {
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir.path)
        options.profiles = profiles
        options.timeZone = "Europe/Helsinki"
        _ = try DatasetImporter(options: options).run()
        return try Dataset(path: dir.path)
    }

    @Test func anImportedDatasetOpensWithItsGraphsAndManifest() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-dataset")
        let dataset = try Self.importTown(into: dir)
        #expect(dataset.manifest.profiles == ["car", "pedestrian"])
        #expect(Set(dataset.graphs.keys) == [.car, .pedestrian])
        #expect(Set(dataset.hierarchies.keys) == [.car, .pedestrian])
        #expect(dataset.timeZone.identifier == "Europe/Helsinki")
        #expect(dataset.manifest.source.name == "drawn-town.osm.pbf")
        let car = try dataset.graph(.car)
        #expect(car.edgeCount == 17)
        #expect(car.arcCount == 32)  // Keskuskatu's two edges are one-way
        #expect(throws: DatasetError.self) { try dataset.graph(.bicycle) }
        for (name, entry) in dataset.manifest.files {
            let path = dataset.layout.root + "/" + entry.path
            #expect(FileManager.default.fileExists(atPath: path), "\(name)")
            #expect((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == entry.bytes, "\(name)")
        }
        let box = dataset.manifest.boundingBox
        #expect(box.count == 4 && box[0] < box[2] && box[1] < box[3])
    }

    @Test func aReimportKeepsStateAndReplacesTheData() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-dataset")
        let first = try Self.importTown(into: dir)
        let marker = first.stateFolder + "/kept.txt"
        try FileManager.default.createDirectory(atPath: first.stateFolder, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: marker))
        let second = try Self.importTown(into: dir, profiles: [.car])
        #expect(second.manifest.id != first.manifest.id)
        #expect(second.manifest.profiles == ["car"])
        #expect(FileManager.default.fileExists(atPath: marker))
        let dataFolders = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("data-") }
        #expect(dataFolders == ["data-" + second.manifest.id])
    }

    @Test func aFolderWithoutAManifestIsAnErrorNotACrash() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-dataset")
        #expect(throws: (any Error).self) { try Dataset(path: dir.path) }
        try Data("{\"formatVersion\": 99}".utf8).write(to: dir.appendingPathComponent("manifest.json"))
        #expect(throws: (any Error).self) { try Dataset(path: dir.path) }
    }
}
