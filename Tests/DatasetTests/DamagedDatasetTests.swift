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
}
