import Foundation
import BinaryIO

/// Where things live in a dataset folder:
///
/// ```
/// DATASET/
///   manifest.json          points at the current data folder (replaced atomically)
///   data-<id>/graph.wfg    road graphs of every profile (raw columns, memory-mapped)
///   data-<id>/places.sqlite, basemap.wfm
///   state/                 what changes while serving: live traffic, watches, tile cache
/// ```
/// An import writes a new `data-<id>/` beside the old one and switches the manifest last, so an
/// interrupted import leaves the previous dataset intact, and a re-import never touches `state/`.
public struct DatasetLayout: Sendable {
    public let root: String

    public init(root: String) {
        var r = root
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        self.root = r
    }

    public var manifestPath: String { root + "/manifest.json" }
    public var stateFolder: String { root + "/state" }
    public func dataFolder(id: String) -> String { root + "/data-" + id }
    public func file(_ name: String, id: String) -> String { dataFolder(id: id) + "/" + name }

    public static let graphFileName = "graph.wfg"
    public static let placesFileName = "places.sqlite"
    /// The graph file's own format version (checked at open, independent of the manifest's).
    /// 3: the stored hierarchy weights mark "no path" as 2³¹ − 1 (2 used 2³² − 1).
    /// 4: conditional turns and arcs (`cond.*` columns, `ConditionalRules`).
    public static let graphFormatVersion: UInt32 = 4

    public func readManifest() throws -> DatasetManifest {
        guard FileIO.exists(manifestPath) else {
            throw DatasetError.notADataset(root)
        }
        let bytes = try FileIO.readAll(manifestPath, limit: 16 << 20)
        let manifest: DatasetManifest
        do {
            manifest = try JSONDecoder().decode(DatasetManifest.self, from: Data(bytes))
        } catch {
            throw DatasetError.damaged("\(manifestPath) is not a valid manifest (\(error))")
        }
        guard manifest.formatVersion == DatasetManifest.currentFormatVersion else {
            throw DatasetError.wrongVersion(found: manifest.formatVersion, expected: DatasetManifest.currentFormatVersion)
        }
        return manifest
    }

    /// Replaces the manifest atomically (temporary file, fsync, rename).
    public func writeManifest(_ manifest: DatasetManifest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(manifest)
        try FileIO.writeAtomically(Array(data), to: manifestPath)
    }

    /// Removes data folders other than `keep` and stale staging folders of dead imports.
    public func removeStaleData(keeping keep: String) {
        for name in FileIO.listDirectory(root) where name.hasPrefix("data-") && name != "data-" + keep {
            FileIO.remove(root + "/" + name)
        }
    }
}

public enum DatasetError: Error, CustomStringConvertible, Sendable {
    case notADataset(String)
    case damaged(String)
    case wrongVersion(found: Int, expected: Int)
    case missingProfile(String, available: [String])

    public var description: String {
        switch self {
        case .notADataset(let p): return "\(p) is not a Wayfinder dataset (no manifest.json); create one with `wayfinder import EXTRACT.osm.pbf --output \(p)`"
        case .damaged(let why): return "the dataset is damaged: \(why)" + (why.contains("re-import") ? "" : "; re-import it")
        case .wrongVersion(let found, let expected):
            return "the dataset has format version \(found) but this wayfinder reads version \(expected); re-import it with this version"
        case .missingProfile(let p, let available):
            return "the dataset has no \(p) graph (it has: \(available.joined(separator: ", "))); re-import with --profiles including \(p)"
        }
    }
}
