public import Foundation
public import RoadExtract
import RoadNetwork
import OSMPBF
import BinaryIO
import GeoCore
import Dataset
import Routing
import BaseMap
import Places
import Parallelism
import Synchronization

/// `wayfinder import`: reads an extract and writes a complete dataset folder.
///
/// Everything goes into a fresh `data-<id>/` folder; the manifest switch at the very end makes
/// the new data current in one atomic rename, so a crash or kill at any point leaves the previous
/// dataset answering exactly as before.
///
/// Memory: profiles are built one at a time and their columns go straight to the graph file as
/// they are made (`ColumnFileWriter`); each profile's hierarchy reads its graph back from that
/// file's pages rather than from a second copy. Every stage's time and peak resident memory are
/// measured (`MemoryMeter`) and reported.
public struct DatasetImporter {
    public struct Options {
        public var extractPath: String
        public var outputPath: String
        public var profiles: [Profile] = Profile.all
        public var timeZone: String?
        public var skipPlaces = false
        /// Skip the base map (tiles); routing-only datasets for benchmarks.
        public var skipBaseMap = false
        /// Threads the heavy stages may use (nil: every core).
        public var threads: Int?
        public var memoryLimit: MemoryLimit = .none
        /// Disk space kept free where the dataset is written (nil: 1 % of the filesystem, at least 512 MB).
        public var diskReserveBytes: Int?
        public var progress: ((ImportEvent) -> Void)?

        public init(extractPath: String, outputPath: String) {
            self.extractPath = extractPath
            self.outputPath = outputPath
        }
    }

    public struct Summary: Sendable {
        public var manifest: DatasetManifestSummary
        public var seconds: Double
        public var peakMemoryBytes: Int
        public var stages: [ImportStage]
        /// The memory estimate made before the import started, and the limit it ran under (0: none).
        public var estimatedPeakBytes: Int
        public var memoryLimitBytes: Int
        /// The estimate made once the roads were read, and the node references of those roads.
        public var estimatedPeakAfterReadingBytes: Int
        public var wayNodeReferences: Int
    }

    /// The parts of a manifest a summary prints.
    public struct DatasetManifestSummary: Sendable {
        public var id: String
        public var timeZone: String
        public var timeZoneSource: String
        public var profiles: [String: [String: Int]]
        public var graphBytes: Int
        public var fileBytes: [String: Int]
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    /// Runs the import on a thread of its own with a 64 MB stack, whatever thread calls it: the
    /// extraction's frames (large in unoptimized builds, with every profile's tables) overflowed
    /// the half-megabyte stacks of the task pool that tests and apps call from.
    public func run() throws -> Summary {
        nonisolated(unsafe) var outcome: Result<Summary, any Error>?
        nonisolated(unsafe) let importer = self
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome = Result { try importer.runHere() }
            finished.signal()
        }
        thread.name = "wayfinder-import"
        thread.stackSize = 64 << 20
        thread.start()
        finished.wait()
        return try outcome!.get()
    }

    private func runHere() throws -> Summary {
        let started = Date()
        if let threads = options.threads { Parallelism.limit(to: threads) }
        let layout = DatasetLayout(root: options.outputPath)
        try FileIO.makeDirectory(layout.root)
        try FileIO.makeDirectory(layout.stateFolder)

        let reader = try PBFReader(path: options.extractPath)
        let estimate = try MemoryEstimate(reader: reader, options: options)
        let limit = try estimate.check(options.memoryLimit, extractPath: options.extractPath)
        let filesystem = DiskSpace.filesystem(layout.root)
        let disk = DiskSpace(fileBytes: reader.fileSize, options: options, filesystemBytes: filesystem?.total ?? 0)
        if let filesystem { try disk.check(output: layout.root, extractPath: options.extractPath, freeBytes: filesystem.free) }

        let id = Self.makeID()
        let dataFolder = layout.dataFolder(id: id)
        FileIO.remove(dataFolder)
        try FileIO.makeDirectory(dataFolder)
        // A failed import (a full disk, a bad extract) takes its half-written folder with it, so it
        // does not keep holding the space; the manifest still names the previous data.
        var committed = false
        defer { if !committed { FileIO.remove(dataFolder) } }
        Self.unfinished.withLock { _ = $0.insert(dataFolder) }
        defer { Self.unfinished.withLock { _ = $0.remove(dataFolder) } }
        let root = layout.root
        let stop: @Sendable (Int) -> Void = { resident in
            MemoryEstimate.stop(resident: resident, limit: limit, dataFolder: dataFolder, output: root)
        }
        let meter = MemoryMeter(limitBytes: limit, exceeded: limit > 0 ? stop : nil)
        defer { meter.stop() }
        let reserve = disk.reserveBytes
        let diskWatch = DiskWatch(path: dataFolder, reserveBytes: reserve) { free in
            DiskSpace.stop(free: free, reserve: reserve, dataFolder: dataFolder, output: root)
        }
        defer { diskWatch.stop() }
        let stages = Stages(meter: meter, progress: options.progress)

        let sourceCRC = try FileIO.checksum(ofFile: options.extractPath)
        let extractor = Extractor(profiles: options.profiles)
        extractor.progress = { step, fraction in stages.report(step, fraction) }
        try stages.run("read ways") { try extractor.readWaysAndRelations(reader) }
        try stages.run("read nodes") { try extractor.readNodes(reader) }
        let wayNodeReferences = extractor.wayNodeReferences
        let estimateAfterReading = estimate.afterReading(residentBytes: MemoryMeter.resident().anonymous, wayNodeReferences: wayNodeReferences,
                                                         profiles: options.profiles.count)
        try MemoryEstimate.checkAfterReading(estimateAfterReading, limit: limit, wayNodeReferences: wayNodeReferences,
                                             extractPath: options.extractPath)
        // The country: its boundary in the extract, else (with no --timezone) the box around the centre;
        // a time zone given by hand tells the driving side when the extract names no country. Its law
        // decides who may use trunk roads (`CountryAccess`); its driving side, what car turns cost.
        let center = extractor.nodeBounds.center
        let country = TimeZoneInference.country(hints: extractor.timeZoneHints, center: options.timeZone == nil ? center : nil)
        let (zone, zoneSource): (String, String)
        if let tz = options.timeZone {
            guard TimeZone(identifier: tz) != nil else { throw ImportError.unknownTimeZone(tz) }
            (zone, zoneSource) = (tz, "--timezone")
        } else {
            (zone, zoneSource) = TimeZoneInference.infer(hints: extractor.timeZoneHints, center: center)
        }
        let drivingSide = country.map(DrivingSide.init(countryCode:)) ?? DrivingSide(timeZoneIdentifier: zone)
        extractor.applyCountry(country, drivingSide: drivingSide)

        let graphPath = layout.file(DatasetLayout.graphFileName, id: id)
        let writer = try ColumnFileWriter(path: graphPath, formatVersion: DatasetLayout.graphFormatVersion)
        var bounds = BoundingBox.empty
        var statistics: [String: [String: Int]] = [:]
        // Orders made so far: a profile whose graph is the same road network as an earlier one's (a
        // taxi's beside a car's, as a rule) takes that order instead of dissecting again. The earlier
        // graph is mapped again only for the comparison, so that its pages do not stay resident.
        var orders: [(mode: TravelMode, order: [ArcID])] = []
        for p in options.profiles.indices {
            let mode = options.profiles[p].mode
            try stages.run("\(mode.rawValue) graph") {
                let builder = extractor.buildGraph(p)
                for c in builder.nodeCoordinates { bounds.formUnion(c) }
                statistics[mode.rawValue] = [
                    "nodes": builder.nodeCoordinates.count, "edges": builder.edgeTail.count,
                    "arcs": builder.arcEdge.count, "turns": builder.turnTarget.count,
                    "conditionalTurns": builder.conditionalTurns.count, "conditionalArcs": builder.conditionalArcs.count,
                    "unsupportedConditions": extractor.statistics.unsupportedConditions,
                ]
                var sink = writer
                builder.freeze(into: &sink)
            }
            // The hierarchy's order and structure depend only on the graph, so they are made here,
            // once; customization with weights happens when a server opens the dataset.
            try stages.run("\(mode.rawValue) hierarchy") {
                let graph = try RoadGraph(mode: mode, store: writer.mappedView())
                stages.report("order", 0)
                let shared = try orders.first { try NestedDissection.sameInput(RoadGraph(mode: $0.mode, store: writer.mappedView()), graph) }
                let order = shared?.order ?? NestedDissection.order(graph)
                orders.append((mode, order))
                stages.report("contract", 0.6)
                var sink = writer
                CCHStructure.build(graph: graph, order: order, into: &sink)
                // The free-flow fastest metric, customized now so that a server starts without
                // customizing (it checks that its own weights are these before using them).
                stages.report("customize", 0.8)
                let view = try writer.mappedView()
                let structure = try CCHStructure(store: view, mode: mode)
                let turnWeight = MetricFactory.make(graph, key: .fastest, arcMs: graph.arcDurationMs.map { max(1, $0) }).turnWeight
                StoredWeights.columns(CCHMetric(structure: structure, turnWeight: turnWeight), turnWeight: turnWeight, into: &sink)
            }
        }
        writer.metadata = ["timeZone": zone, "source": (options.extractPath as NSString).lastPathComponent,
                           "sourceCRC32": String(sourceCRC), "datasetID": id]
        try stages.run("write graph") { try writer.finish() }
        extractor.release()

        var written = [DatasetLayout.graphFileName]
        if !options.skipBaseMap {
            try stages.run("base map") {
                try BaseMapBuilder().build(source: reader, outputPath: layout.file(BaseMap.fileName, id: id),
                                           progress: { step, fraction in stages.report(step, fraction) })
            }
            written.append(BaseMap.fileName)
        }

        if !options.skipPlaces {
            try stages.run("places") {
                let builder = PlacesIndexBuilder(options: .init(sourceDescription: (options.extractPath as NSString).lastPathComponent))
                builder.progress = { step, fraction in stages.report(step, fraction) }
                try builder.build(from: reader, to: layout.file(DatasetLayout.placesFileName, id: id))
            }
            written.append(DatasetLayout.placesFileName)
        }

        meter.disarm()
        diskWatch.stop()
        var files: [String: DatasetManifest.FileEntry] = [:]
        try stages.run("commit") {
            for name in written {
                let path = layout.file(name, id: id)
                // The graph file's checksum is known from writing it (gigabytes at country size).
                let crc = name == DatasetLayout.graphFileName ? writer.fileChecksum : nil
                files[name] = .init(path: "data-\(id)/\(name)", bytes: FileIO.fileSize(path) ?? 0, crc32: try crc ?? FileIO.checksum(ofFile: path))
            }
            let replication = reader.header.replicationTimestamp.map {
                ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval($0)))
            }
            let manifest = DatasetManifest(
                id: id, createdAt: ISO8601DateFormatter().string(from: Date()),
                source: .init(name: (options.extractPath as NSString).lastPathComponent, bytes: reader.fileSize,
                              crc32: sourceCRC, replicationTimestamp: replication),
                timeZone: zone, timeZoneSource: zoneSource,
                boundingBox: bounds.isEmpty ? [0, 0, 0, 0] : [bounds.southWest.longitude, bounds.southWest.latitude,
                                                             bounds.northEast.longitude, bounds.northEast.latitude],
                profiles: options.profiles.map(\.mode.rawValue), files: files, statistics: statistics, countryCode: country,
                drivingSide: drivingSide.rawValue)
            // Under the lock, so that `abandonUnfinished` never removes a folder the manifest names.
            try Self.unfinished.withLock { folders in
                try layout.writeManifest(manifest)
                committed = true
                folders.remove(dataFolder)
            }
            layout.removeStaleData(keeping: id)
        }
        return Summary(manifest: .init(id: id, timeZone: zone, timeZoneSource: zoneSource, profiles: statistics,
                                       graphBytes: files[DatasetLayout.graphFileName]?.bytes ?? 0,
                                       fileBytes: files.mapValues(\.bytes)),
                       seconds: Date().timeIntervalSince(started), peakMemoryBytes: MemoryMeter.highWaterMark(),
                       stages: stages.finished, estimatedPeakBytes: estimate.peakBytes, memoryLimitBytes: limit,
                       estimatedPeakAfterReadingBytes: estimateAfterReading, wayNodeReferences: wayNodeReferences)
    }

    /// The data folders of this process's imports that are not committed yet.
    private static let unfinished = Mutex<Set<String>>([])

    /// Removes the half-written data folders of this process's running imports (their manifests
    /// still name the previous data), for a process about to end on a signal; a folder whose
    /// manifest switch is under way is left to it.
    ///
    /// Each folder is first renamed aside, so that a writer still running on another thread can no
    /// longer create files in it by name while it is being emptied (removing it in place raced with
    /// such a writer and could leave the folder behind). The new name still starts with "data-", so
    /// the next import's `removeStaleData` clears whatever a writer still managed to put there.
    public static func abandonUnfinished() {
        unfinished.withLock { folders in
            for folder in folders {
                let aside = "\(folder).abandoned-\(getpid())"
                FileIO.remove(rename(folder, aside) == 0 ? aside : folder)
            }
            folders.removeAll()
        }
    }

    static func makeID() -> String {
        let stamp = Int(Date().timeIntervalSince1970)
        return String(stamp, radix: 36) + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// Peak resident memory of this process so far (VmHWM).
    public static func peakMemoryBytes() -> Int { MemoryMeter.highWaterMark() }
}

/// One finished stage of an import: how long it took and the most memory it held.
public struct ImportStage: Sendable {
    public var name: String
    public var seconds: Double
    public var peakMemoryBytes: Int
}

/// What an import tells its caller as it goes.
public enum ImportEvent: Sendable {
    /// A step within `stage` (e.g. "read ways" while reading) and how far it is, 0...1.
    case progress(stage: String, step: String, fraction: Double)
    case finished(ImportStage)
}

/// How much resident memory an import may take before it stops with a clear error (rather than
/// be ended by the kernel's OOM killer with none).
public enum MemoryLimit: Sendable, Equatable {
    case none
    /// What the system has available at the start, less a reserve for everything else.
    case automatic
    case bytes(Int)
}

/// Runs the import's stages in order, timing and measuring each (a class: steps report progress
/// from inside a running stage).
final class Stages {
    let meter: MemoryMeter
    let progress: ((ImportEvent) -> Void)?
    private(set) var finished: [ImportStage] = []
    private var current = ""

    init(meter: MemoryMeter, progress: ((ImportEvent) -> Void)?) {
        self.meter = meter
        self.progress = progress
    }

    func run(_ name: String, _ body: () throws -> Void) throws {
        current = name
        meter.beginStage()
        let start = Date()
        progress?(.progress(stage: name, step: "", fraction: 0))
        try body()
        let stage = ImportStage(name: name, seconds: Date().timeIntervalSince(start), peakMemoryBytes: meter.endStage())
        finished.append(stage)
        progress?(.finished(stage))
    }

    func report(_ step: String, _ fraction: Double) {
        progress?(.progress(stage: current, step: step, fraction: fraction))
    }
}

public enum ImportError: Error, CustomStringConvertible {
    case unknownTimeZone(String)
    case notEnoughMemory(String)
    case notEnoughDisk(String)

    public var description: String {
        switch self {
        case .unknownTimeZone(let tz): return "unknown time zone \"\(tz)\"; use an IANA name such as Europe/Helsinki"
        case .notEnoughMemory(let why), .notEnoughDisk(let why): return why
        }
    }
}
