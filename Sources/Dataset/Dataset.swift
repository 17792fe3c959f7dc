public import Foundation
public import RoadNetwork
public import Routing
import BinaryIO
import Synchronization

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
    private let graphPath: String
    private let store: ColumnSet
    /// The outcome of the graph file's whole check (nil: deferred and not run yet).
    private let graphCheck: Mutex<Result<Double, DatasetError>?>
    /// The outcome of each profile's columns' check (`checkGraph(for:)`).
    private let profileChecks = Mutex<[TravelMode: Result<Double, DatasetError>]>([:])

    /// Opens the dataset at `path`. The graph file is checked whole first, unless `deferGraphCheck`:
    /// its columns are indices that routing follows, so a flipped value could crash it (the fault
    /// scenario found a segmentation fault when a server customized while the check still ran).
    /// With `verify`, the other files are checked too; without (a server, which calls
    /// `verifyFiles()` in the background), the places index and base map are checked while it serves.
    ///
    /// With `deferGraphCheck` (a server starting), only the graph file's header and directory are
    /// checked at open, in time independent of its size, and `checkGraph()` must succeed before
    /// anything reads the graphs' columns. A file without a directory checksum of its own is
    /// checked whole at open all the same: nothing else vouches for where its columns lie.
    public init(path: String, verify: Bool = true, deferGraphCheck: Bool = false) throws {
        layout = DatasetLayout(root: path)
        manifest = try layout.readManifest()
        graphPath = layout.file(DatasetLayout.graphFileName, id: manifest.id)
        let store: ColumnSet
        let start = DispatchTime.now()
        var checked = !deferGraphCheck
        do {
            store = try ColumnSet.open(path: graphPath, formatVersion: DatasetLayout.graphFormatVersion, verify: checked)
            if !store.directoryChecked && !checked {
                try ColumnSet.verify(path: graphPath)
                checked = true
            }
        } catch {
            throw DatasetError.damaged("\(error)")
        }
        let graphMilliseconds = Self.milliseconds(since: start)
        graphCheck = Mutex(checked ? .success(graphMilliseconds) : nil)
        verificationMilliseconds = graphMilliseconds + (verify ? try Self.verifyOtherFiles(layout: layout, manifest: manifest) : 0)
        var graphs: [TravelMode: RoadGraph] = [:]
        var hierarchies: [TravelMode: CCHStructure] = [:]
        for name in manifest.profiles {
            guard let mode = TravelMode(rawValue: name) else { continue }
            graphs[mode] = try RoadGraph(mode: mode, store: store)
            if CCHStructure.hasColumns(store, mode: mode) { hierarchies[mode] = try CCHStructure(store: store, mode: mode) }
        }
        self.store = store
        self.graphs = graphs
        self.hierarchies = hierarchies
        timeZone = TimeZone(identifier: manifest.timeZone) ?? TimeZone(identifier: "UTC")!
    }

    /// Checks the graph file whole against the checksum in its header, once: the first caller reads
    /// it (seconds at country size, through the page cache), callers meanwhile wait for its outcome,
    /// and later ones get it at once. A dataset opened without `deferGraphCheck` was checked at open.
    /// - Returns: the milliseconds the check took.
    @discardableResult
    public func checkGraph() throws(DatasetError) -> Double {
        let path = graphPath, store = store
        return try graphCheck.withLock { outcome in
            if let outcome { return outcome }
            let start = DispatchTime.now()
            let made: Result<Double, DatasetError>
            do throws(ColumnSetError) {
                try ColumnSet.verify(path: path)
                made = .success(Self.milliseconds(since: start))
            } catch {
                // Name the damaged column when the file records their checksums (the damage may
                // also lie in padding, which only the whole checksum covers).
                var named = error
                if store.columnsChecksummed {
                    do throws(ColumnSetError) { try store.verify(path: path, columns: store.entries.keys.sorted()) } catch { named = error }
                }
                made = .failure(.damaged("\(named)"))
            }
            outcome = made
            return made
        }.get()
    }

    /// Checks, once, the graph file's columns that `mode`'s graph and hierarchy read (those named
    /// after it, and any named after no profile) against their own checksums, so that its first
    /// route waits for them only, not for the other profiles' (which `checkGraph()` covers).
    /// Callers meanwhile wait for the outcome; a damaged column is named. A file without column
    /// checksums, or one checked whole already, is checked (or was) whole instead.
    /// - Returns: the milliseconds the check took.
    @discardableResult
    public func checkGraph(for mode: TravelMode) throws(DatasetError) -> Double {
        guard store.columnsChecksummed, !graphChecked else { return try checkGraph() }
        let path = graphPath, store = store
        let prefixes = manifest.profiles.map { $0 + "." }
        let names = store.entries.keys.filter { name in
            name.hasPrefix(mode.rawValue + ".") || !prefixes.contains { name.hasPrefix($0) }
        }
        return try profileChecks.withLock { checks in
            if let outcome = checks[mode] { return outcome }
            let start = DispatchTime.now()
            let made: Result<Double, DatasetError>
            do throws(ColumnSetError) {
                try store.verify(path: path, columns: names.sorted())
                made = .success(Self.milliseconds(since: start))
            } catch {
                made = .failure(.damaged("\(error)"))
            }
            checks[mode] = made
            return made
        }.get()
    }

    /// Whether the graph file has been checked whole (and found sound).
    public var graphChecked: Bool { graphCheck.withLock { if case .success = $0 { true } else { false } } }

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
        return milliseconds(since: start)
    }

    static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
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
