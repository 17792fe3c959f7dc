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
    /// Whether the graph file's content was checked at open (else `verifyFiles()` checks it).
    private let graphChecked: Bool

    /// Opens the dataset at `path`. With `verify`, every file is checked against its checksum
    /// first. Without (a server, which calls `verifyFiles()` in the background so that a country's
    /// dataset answers at once instead of after reading gigabytes), only the graph file's header
    /// and column directory are: a flipped column name or offset is refused at open, a flipped
    /// value is found by the background check, which stops the server. A graph file written
    /// before the directory had a checksum of its own is checked whole at open, as it was then.
    public init(path: String, verify: Bool = true) throws {
        layout = DatasetLayout(root: path)
        manifest = try layout.readManifest()
        let graphPath = layout.file(DatasetLayout.graphFileName, id: manifest.id)
        let store: ColumnSet
        let start = DispatchTime.now()
        do {
            let opened = try ColumnSet.open(path: graphPath, formatVersion: DatasetLayout.graphFormatVersion, verify: verify)
            graphChecked = verify || !opened.directoryChecked
            if !verify && graphChecked { try ColumnSet.verify(path: graphPath) }
            store = opened
        } catch {
            throw DatasetError.damaged("\(error)")
        }
        let graphMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        verificationMilliseconds = graphMilliseconds + (verify ? try Self.verifyOtherFiles(layout: layout, manifest: manifest, graph: false) : 0)
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
    public func verifyFiles() throws -> Double { try Self.verifyOtherFiles(layout: layout, manifest: manifest, graph: !graphChecked) }

    static func verifyOtherFiles(layout: DatasetLayout, manifest: DatasetManifest, graph: Bool) throws -> Double {
        let start = DispatchTime.now()
        if graph {
            do { try ColumnSet.verify(path: layout.file(DatasetLayout.graphFileName, id: manifest.id)) } catch {
                throw DatasetError.damaged("\(error)")
            }
        }
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
