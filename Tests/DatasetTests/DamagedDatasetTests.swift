import Foundation
import Testing
import MapsTestSupport
import Dataset
import DatasetImport

/// Every file of a dataset is checked at open against the checksums of its manifest: a flipped
/// byte in the places index or the base map is refused with a message naming the file, the same
/// as one in the graph.
@Suite struct DamagedDatasetTests {
    static func importTown() throws -> String {
        let dir = Fixtures.temporaryDirectory("wayfinder-damaged")
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir.path)
        options.profiles = [.car]
        options.timeZone = "Europe/Helsinki"
        _ = try DatasetImporter(options: options).run()
        return dir.path
    }

    @Test(arguments: [DatasetLayout.placesFileName, DatasetLayout.graphFileName, "basemap.wfm"])
    func aFlippedByteIsRefused(file: String) throws {
        let root = try Self.importTown()
        let dataset = try Dataset(path: root)
        let path = dataset.dataFile(file)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect { try Dataset(path: root) } throws: { error in
            let text = "\(error)"
            return text.contains("damaged") && (file == DatasetLayout.graphFileName || text.contains(file))
        }
    }

    /// Opened without `verify`, the places index and base map are left to `verifyFiles()`, but the
    /// graph is checked whole at open unless its check is deferred: its columns are indices the
    /// customization follows, so a flipped value would crash it. A flipped column name is refused
    /// by the directory's own checksum as well.
    @Test(arguments: ["column data", "column name"])
    func aServerChecksTheGraphWholeAtOpen(flip: String) throws {
        let root = try Self.importTown()
        _ = try flipInGraph(root, at: flip == "column name" ? .name : .data)
        #expect { try Dataset(path: root, verify: false) } throws: { "\($0)".contains("damaged") }
        #expect { try Dataset(path: root) } throws: { "\($0)".contains("damaged") }
    }

    /// A server starting defers the graph's whole check (`checkGraph()`, which routing waits
    /// for): a flipped value in a column opens, and the check refuses it, every time it is asked.
    /// A flipped column name is refused at open all the same, by the directory's checksum.
    @Test func aDeferredGraphCheckRefusesAFlippedValue() throws {
        let root = try Self.importTown()
        _ = try flipInGraph(root, at: .data)
        let dataset = try Dataset(path: root, verify: false, deferGraphCheck: true)
        #expect(!dataset.graphChecked)
        for _ in 0..<2 {
            #expect { try dataset.checkGraph() } throws: { "\($0)".contains("damaged") }
        }
        #expect(!dataset.graphChecked)
        let renamed = try Self.importTown()
        _ = try flipInGraph(renamed, at: .name)
        #expect { try Dataset(path: renamed, verify: false, deferGraphCheck: true) } throws: { "\($0)".contains("damaged") }
    }

    @Test func aDeferredGraphCheckPassesASoundFile() throws {
        let dataset = try Dataset(path: try Self.importTown(), verify: false, deferGraphCheck: true)
        #expect(!dataset.graphChecked)
        try dataset.checkGraph()
        #expect(dataset.graphChecked)
        #expect(try Dataset(path: dataset.layout.root).graphChecked)
    }

    /// A graph file written before the directory had a checksum of its own (zeros in its place)
    /// is checked whole at open, even by a server, even when it defers the check.
    @Test(arguments: [false, true])
    func aGraphWithoutADirectoryChecksumIsCheckedWholeAtOpen(deferred: Bool) throws {
        let root = try Self.importTown()
        let path = try flipInGraph(root, at: .data)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(36..<40, with: [0, 0, 0, 0])
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect { try Dataset(path: root, verify: false, deferGraphCheck: deferred) } throws: { "\($0)".contains("damaged") }
    }

    enum Place { case name, data }

    /// Flips one bit of the graph file: in the column name `car.cch.upHead` of its directory, or
    /// halfway to it, in the column data. Returns the file's path.
    func flipInGraph(_ root: String, at place: Place) throws -> String {
        let path = try Dataset(path: root).dataFile(DatasetLayout.graphFileName)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let name = Array("car.cch.upHead ".utf8)
        let at = try #require((0...(bytes.count - name.count)).last { i in
            bytes[i..<(i + name.count)].elementsEqual(name)
        })
        bytes[place == .name ? at : at / 2] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }
}
