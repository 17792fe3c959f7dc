public import Foundation
public import RoadNetwork
public import Routing
import BinaryIO

/// An opened dataset: the manifest and the memory-mapped road graphs.
///
/// Opening maps the graph file and (unless asked not to) checks its content checksum and the
/// checksums of the other files, so a damaged file is refused with a message instead of answering
/// wrongly. Nothing is copied at open: the graphs and hierarchies are views of the mapped file.
public final class Dataset: @unchecked Sendable {
    public let layout: DatasetLayout
    public let manifest: DatasetManifest
    public let graphs: [TravelMode: RoadGraph]
    /// The contraction hierarchy structure per profile (customized by whoever routes).
    public let hierarchies: [TravelMode: CCHStructure]
    public let timeZone: TimeZone
    /// Milliseconds spent verifying checksums at open: the graph file's always, the others' with `verify`.
    public let verificationMilliseconds: Double

    /// Opens the dataset at `path`. The graph file is always checked against its checksum first:
    /// the hierarchies are customized from it at once, and a flipped index there would crash
    /// instead of being refused. With `verify`, the other files (places index, base map) are
    /// checked too; a server opens without and calls `verifyFiles()` in the background, so that a
    /// large dataset answers at once.
    public init(path: String, verify: Bool = true) throws {
        layout = DatasetLayout(root: path)
        manifest = try layout.readManifest()
        let graphPath = layout.file(DatasetLayout.graphFileName, id: manifest.id)
        let store: ColumnSet
        let start = DispatchTime.now()
        do {
            store = try ColumnSet.open(path: graphPath, formatVersion: DatasetLayout.graphFormatVersion, verify: true)
        } catch {
            throw DatasetError.damaged("\(error)")
        }
        let graphMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        verificationMilliseconds = graphMilliseconds + (verify ? try Self.verifyOtherFiles(layout: layout, manifest: manifest) : 0)
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

    /// Checks the files other than the graph (checked at open) against the checksums the manifest
    /// recorded at import: a damaged places index or base map would otherwise answer wrongly or fail
    /// deep inside SQLite.
    /// - Returns: the milliseconds it took.
    @discardableResult
    public func verifyFiles() throws -> Double { try Self.verifyOtherFiles(layout: layout, manifest: manifest) }

    static func verifyOtherFiles(layout: DatasetLayout, manifest: DatasetManifest) throws -> Double {
        let start = DispatchTime.now()
        for (name, entry) in manifest.files.sorted(by: { $0.key < $1.key }) where name != DatasetLayout.graphFileName {
            let path = layout.root + "/" + entry.path
            let crc: UInt32
            do { crc = try FileIO.checksum(ofFile: path) } catch { throw DatasetError.damaged("\(error)") }
            guard FileIO.fileSize(path) == entry.bytes, crc == entry.crc32 else {
                throw DatasetError.damaged("\(name) does not match the checksum recorded at import")
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
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
