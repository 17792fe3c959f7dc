public import Foundation
public import RoadNetwork
public import Routing
import BinaryIO

/// An opened dataset: the manifest and the memory-mapped road graphs.
///
/// Opening maps the graph file and checks its content checksum, and the checksums of the other
/// files, before anything is served, so a damaged file is refused with a message instead of
/// answering wrongly.
public final class Dataset: @unchecked Sendable {
    public let layout: DatasetLayout
    public let manifest: DatasetManifest
    public let graphs: [TravelMode: RoadGraph]
    /// The contraction hierarchy structure per profile (customized by whoever routes).
    public let hierarchies: [TravelMode: CCHStructure]
    public let timeZone: TimeZone
    /// Milliseconds spent verifying the files' checksums at open.
    public let verificationMilliseconds: Double

    public init(path: String, verify: Bool = true) throws {
        layout = DatasetLayout(root: path)
        manifest = try layout.readManifest()
        let graphPath = layout.file(DatasetLayout.graphFileName, id: manifest.id)
        let start = DispatchTime.now()
        let store: ColumnSet
        do {
            store = try ColumnSet.open(path: graphPath, formatVersion: DatasetLayout.graphFormatVersion, verify: verify)
        } catch {
            throw DatasetError.damaged("\(error)")
        }
        // The other files (places index, base map) against the checksums the manifest recorded:
        // a damaged index would otherwise answer wrongly or fail deep inside SQLite.
        if verify {
            for (name, entry) in manifest.files.sorted(by: { $0.key < $1.key }) where name != DatasetLayout.graphFileName {
                let path = layout.root + "/" + entry.path
                let crc: UInt32
                do { crc = try FileIO.checksum(ofFile: path) } catch { throw DatasetError.damaged("\(error)") }
                guard FileIO.fileSize(path) == entry.bytes, crc == entry.crc32 else {
                    throw DatasetError.damaged("\(name) does not match the checksum recorded at import")
                }
            }
        }
        verificationMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        var graphs: [TravelMode: RoadGraph] = [:]
        var hierarchies: [TravelMode: CCHStructure] = [:]
        for name in manifest.profiles {
            guard let mode = TravelMode(rawValue: name) else { continue }
            graphs[mode] = try RoadGraph(mode: mode, store: store)
            if CCHStructure.hasColumns(store, mode: mode) { hierarchies[mode] = try CCHStructure(store: store, mode: mode) }
        }
        self.graphs = graphs
        self.hierarchies = hierarchies
        timeZone = TimeZone(identifier: manifest.timeZone) ?? TimeZone(identifier: "UTC")!
    }

    public func graph(_ mode: TravelMode) throws -> RoadGraph {
        guard let g = graphs[mode] else {
            throw DatasetError.missingProfile(mode.rawValue, available: manifest.profiles)
        }
        return g
    }

    public var stateFolder: String { layout.stateFolder }
    public func dataFile(_ name: String) -> String { layout.file(name, id: manifest.id) }
}
