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

/// `wayfinder import`: reads an extract and writes a complete dataset folder.
///
/// Everything goes into a fresh `data-<id>/` folder; the manifest switch at the very end makes
/// the new data current in one atomic rename, so a crash or kill at any point leaves the previous
/// dataset answering exactly as before.
public struct DatasetImporter {
    public struct Options {
        public var extractPath: String
        public var outputPath: String
        public var profiles: [Profile] = Profile.all
        public var timeZone: String?
        public var skipPlaces = false
        /// Skip the base map (tiles); routing-only datasets for benchmarks.
        public var skipBaseMap = false
        public var progress: ((_ stage: String, _ fraction: Double) -> Void)?

        public init(extractPath: String, outputPath: String) {
            self.extractPath = extractPath
            self.outputPath = outputPath
        }
    }

    public struct Summary: Sendable {
        public var manifest: DatasetManifestSummary
        public var seconds: Double
        public var peakMemoryBytes: Int
        public var stageSeconds: [(String, Double)]
    }

    /// The parts of a manifest a summary prints.
    public struct DatasetManifestSummary: Sendable {
        public var id: String
        public var timeZone: String
        public var timeZoneSource: String
        public var profiles: [String: [String: Int]]
        public var graphBytes: Int
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    public func run() throws -> Summary {
        let started = Date()
        var stages: [(String, Double)] = []
        var stageStart = Date()
        func endStage(_ name: String) {
            stages.append((name, Date().timeIntervalSince(stageStart)))
            stageStart = Date()
        }
        let layout = DatasetLayout(root: options.outputPath)
        try FileIO.makeDirectory(layout.root)
        try FileIO.makeDirectory(layout.stateFolder)

        let reader = try PBFReader(path: options.extractPath)
        let sourceCRC = try FileIO.checksum(ofFile: options.extractPath)
        let extractor = Extractor(profiles: options.profiles)
        extractor.progress = options.progress
        let builders = try extractor.run(source: reader)
        endStage("extract")

        let id = Self.makeID()
        let dataFolder = layout.dataFolder(id: id)
        FileIO.remove(dataFolder)
        try FileIO.makeDirectory(dataFolder)
        // A failed import (a full disk, a bad extract) takes its half-written folder with it, so it
        // does not keep holding the space; the manifest still names the previous data.
        var committed = false
        defer { if !committed { FileIO.remove(dataFolder) } }

        var columns = ColumnSetBuilder()
        var bounds = BoundingBox.empty
        var statistics: [String: [String: Int]] = [:]
        for builder in builders {
            options.progress?("prepare \(builder.mode.rawValue) hierarchy", 0)
            builder.freeze(into: &columns)
            // The hierarchy's order and structure depend only on the graph, so they are made here,
            // once; customization with weights happens when a server opens the dataset.
            let graph = builder.build()
            let order = NestedDissection.order(graph)
            options.progress?("prepare \(builder.mode.rawValue) hierarchy", 0.7)
            CCHStructure.build(graph: graph, order: order, into: &columns)
            for c in builder.nodeCoordinates { bounds.formUnion(c) }
            statistics[builder.mode.rawValue] = [
                "nodes": builder.nodeCoordinates.count, "edges": builder.edgeTail.count,
                "arcs": builder.arcEdge.count, "turns": builder.turnTarget.count,
            ]
            options.progress?("prepare \(builder.mode.rawValue) hierarchy", 1)
        }
        let (zone, zoneSource): (String, String)
        if let tz = options.timeZone {
            guard TimeZone(identifier: tz) != nil else { throw ImportError.unknownTimeZone(tz) }
            (zone, zoneSource) = (tz, "--timezone")
        } else {
            (zone, zoneSource) = TimeZoneInference.infer(hints: extractor.timeZoneHints, center: bounds.center)
        }
        // The country: its boundary in the extract, else (with no --timezone) the box around the centre;
        // a time zone given by hand tells the driving side when the extract names no country.
        let country = TimeZoneInference.country(hints: extractor.timeZoneHints, center: options.timeZone == nil ? bounds.center : nil)
        columns.metadata = ["timeZone": zone, "source": (options.extractPath as NSString).lastPathComponent,
                            "sourceCRC32": String(sourceCRC), "datasetID": id]
        let graphPath = layout.file(DatasetLayout.graphFileName, id: id)
        endStage("hierarchy")
        try columns.write(to: graphPath, formatVersion: DatasetLayout.graphFormatVersion)
        endStage("write graph")

        var written = [DatasetLayout.graphFileName]
        if !options.skipBaseMap {
            try BaseMapBuilder().build(source: reader, outputPath: layout.file(BaseMap.fileName, id: id), progress: options.progress)
            written.append(BaseMap.fileName)
            endStage("base map")
        }

        if !options.skipPlaces {
            var builder = PlacesIndexBuilder(options: .init(sourceDescription: (options.extractPath as NSString).lastPathComponent))
            builder.progress = options.progress
            try builder.build(from: reader, to: layout.file(DatasetLayout.placesFileName, id: id))
            written.append(DatasetLayout.placesFileName)
            endStage("places")
        }

        var files: [String: DatasetManifest.FileEntry] = [:]
        for name in written {
            let path = layout.file(name, id: id)
            files[name] = .init(path: "data-\(id)/\(name)", bytes: FileIO.fileSize(path) ?? 0, crc32: try FileIO.checksum(ofFile: path))
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
            profiles: builders.map(\.mode.rawValue), files: files, statistics: statistics, countryCode: country,
            drivingSide: (country.map(DrivingSide.init(countryCode:)) ?? DrivingSide(timeZoneIdentifier: zone)).rawValue)
        try layout.writeManifest(manifest)
        committed = true
        layout.removeStaleData(keeping: id)
        endStage("commit")
        return Summary(manifest: .init(id: id, timeZone: zone, timeZoneSource: zoneSource, profiles: statistics,
                                       graphBytes: files[DatasetLayout.graphFileName]?.bytes ?? 0),
                       seconds: Date().timeIntervalSince(started), peakMemoryBytes: Self.peakMemoryBytes(),
                       stageSeconds: stages)
    }

    static func makeID() -> String {
        let stamp = Int(Date().timeIntervalSince1970)
        return String(stamp, radix: 36) + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// Peak resident memory of this process so far (`getrusage`'s `ru_maxrss`).
    public static func peakMemoryBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}

public enum ImportError: Error, CustomStringConvertible {
    case unknownTimeZone(String)

    public var description: String {
        switch self {
        case .unknownTimeZone(let tz): return "unknown time zone \"\(tz)\"; use an IANA name such as Europe/Helsinki"
        }
    }
}
