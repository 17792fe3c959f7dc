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

    /// A server opens without checking the places index and base map first, but never without
    /// checking the graph: its hierarchies are customized at once, and a flipped index there would
    /// crash the server, a flipped column name would read as a dataset from another version.
    @Test(arguments: ["column data", "column name"])
    func theGraphIsCheckedEvenWhenTheRestIsNot(flip: String) throws {
        let root = try Self.importTown()
        let path = try Dataset(path: root).dataFile(DatasetLayout.graphFileName)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let name = Array("car.cch.upHead ".utf8)
        let at = try #require((0...(bytes.count - name.count)).last { i in
            bytes[i..<(i + name.count)].elementsEqual(name)
        })
        bytes[flip == "column name" ? at : at / 2] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect { try Dataset(path: root, verify: false) } throws: { error in
            "\(error)".contains("damaged")
        }
    }
}
