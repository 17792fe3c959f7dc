import Foundation
import Testing
import MapsTestSupport
import BinaryIO
import Dataset
import DatasetImport
import RoadNetwork

/// A server starting checks, before a profile's first route, only the graph file's columns that
/// profile reads (each column has a checksum of its own in the directory): a damaged column of
/// another profile does not hold car routing back, yet the whole check still finds it, by name.
@Suite struct ProfileColumnCheckTests {
    static func importTown() throws -> String {
        let dir = Fixtures.temporaryDirectory("wayfinder-columns")
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir.path)
        options.profiles = [.car, .bicycle]
        options.timeZone = "Europe/Helsinki"
        _ = try DatasetImporter(options: options).run()
        return dir.path
    }

    /// Flips one byte in the middle of `column`'s values.
    static func damage(_ column: String, in root: String) throws {
        let path = try Dataset(path: root).dataFile(DatasetLayout.graphFileName)
        let store = try ColumnSet.open(path: path, formatVersion: DatasetLayout.graphFormatVersion, verify: false)
        let entry = try #require(store.entries[column])
        #expect(entry.count > 0 && entry.checksum != nil)
        let at = 64 + entry.offset + entry.elementSize * entry.count / 2
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[at] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func aDamagedColumnOfAnotherProfileDoesNotDelayCarRouting() throws {
        let root = try Self.importTown()
        try Self.damage("bicycle.arc.edge", in: root)
        let dataset = try Dataset(path: root, verify: false, deferGraphCheck: true)
        try dataset.checkGraph(for: .car)
        #expect(!dataset.graphChecked)
        #expect(try dataset.graph(.car).arcEdge.count > 0)
        for _ in 0..<2 {
            #expect { try dataset.checkGraph(for: .bicycle) } throws: { "\($0)".contains("column \"bicycle.arc.edge\"") }
        }
        #expect { try dataset.checkGraph() } throws: { "\($0)".contains("column \"bicycle.arc.edge\"") }
        #expect { try Dataset(path: root, verify: false) } throws: { "\($0)".contains("damaged") }
    }

    @Test func aDamagedCarColumnIsRefusedBeforeCarRouting() throws {
        let root = try Self.importTown()
        try Self.damage("car.cch.upHead", in: root)
        let dataset = try Dataset(path: root, verify: false, deferGraphCheck: true)
        #expect { try dataset.checkGraph(for: .car) } throws: { "\($0)".contains("column \"car.cch.upHead\"") }
        try dataset.checkGraph(for: .bicycle)
    }

    @Test func aSoundFilePassesEveryProfilesCheck() throws {
        let dataset = try Dataset(path: try Self.importTown(), verify: false, deferGraphCheck: true)
        try dataset.checkGraph(for: .car)
        try dataset.checkGraph(for: .bicycle)
        #expect(!dataset.graphChecked)
        try dataset.checkGraph()
        #expect(dataset.graphChecked)
    }
}
