public import Foundation
public import RoadNetwork
public import Routing
import BinaryIO

/// An opened dataset: the manifest and the memory-mapped road graphs.
///
/// Opening maps the graph file and (unless asked not to) checks the checksums of every file, so a
/// damaged file is refused with a message instead of answering wrongly. Nothing is copied at open:
/// the graphs and hierarchies are views of the mapped file.
public final class Dataset: @unchecked Sendable {
    public let layout: DatasetLayout
    public let manifest: DatasetManifest
    public let graphs: [TravelMode: RoadGraph]
    /// The contraction hierarchy structure per profile (customized by whoever routes).
    public let hierarchies: [TravelMode: CCHStructure]
    public let timeZone: TimeZone
    /// Milliseconds spent verifying checksums at open (every file's with `verify`).
    public let verificationMilliseconds: Double
    /// Opens the dataset at `path`. The graph file is always checked whole first: its columns are
    /// indices that the hierarchy's customization follows at start, so a flipped value would crash
    /// it (the fault scenario found a segmentation fault when the check ran in the background).
    /// With `verify`, the other files are checked too; without (a server, which calls
    /// `verifyFiles()` in the background), the places index and base map are checked while it serves.
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

    /// Checks the files not checked at open against the checksums the manifest recorded at import
    /// (the graph's content by its own), reading them through the page cache, not into this
    /// process's memory: a damaged file would otherwise answer wrongly, crash, or fail deep inside
    /// SQLite.
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
