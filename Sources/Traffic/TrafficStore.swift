import Foundation
import BinaryIO
import Synchronization

/// Live traffic and historical speed files in a dataset's `state/traffic/` folder: written by
/// `wayfinder traffic`, by the HTTP endpoints and by the in-process API; read by every server
/// replica, which notices changes within a second (`fingerprint`).
public final class TrafficStore: @unchecked Sendable {
    public let folder: String
    var liveFolder: String { folder + "/live" }
    public var historicalPath: String { folder + "/historical.csv" }

    public init(stateFolder: String) {
        folder = stateFolder + "/traffic"
    }

    /// Saves an update atomically; returns its id.
    @discardableResult
    public func save(_ update: LiveUpdate) throws -> String {
        try FileIO.makeDirectory(liveFolder)
        let bytes = try update.encoded()
        let name = update.id + ".update"
        try FileIO.writeAtomically(bytes, to: liveFolder + "/" + name)
        decoded.withLock { $0[name + ":" + String(bytes.count)] = update }
        return update.id
    }

    /// Makes an id that sorts by creation time.
    public static func makeID(createdAt: Double) -> String {
        let ms = String(Int64(createdAt * 1000))
        return String(repeating: "0", count: max(0, 15 - ms.count)) + ms + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// Decoded updates by file name and size, so a refresh reads only files it has not seen.
    private let decoded = Mutex<[String: LiveUpdate]>([:])

    /// Updates still in force at `now`, oldest first; expired files are removed.
    public func activeUpdates(now: Double) -> [LiveUpdate] {
        var result: [LiveUpdate] = []
        var seen = Set<String>()
        for name in FileIO.listDirectory(liveFolder) where name.hasSuffix(".update") {
            let path = liveFolder + "/" + name
            let key = name + ":" + String(FileIO.fileSize(path) ?? -1)
            seen.insert(key)
            let cached = decoded.withLock { $0[key] }
            guard let update = cached ?? ((try? FileIO.readAll(path)).flatMap { try? LiveUpdate.decode($0, path: path) }) else { continue }
            if cached == nil { decoded.withLock { $0[key] = update } }
            if update.expiresAt <= now {
                FileIO.remove(path)
                continue
            }
            result.append(update)
        }
        decoded.withLock { cache in cache = cache.filter { seen.contains($0.key) } }
        return result.sorted { $0.createdAt < $1.createdAt }
    }

    /// Removes every live update (`wayfinder traffic DIR clear`).
    public func clearLive() { FileIO.remove(liveFolder) }

    public func remove(id: String) -> Bool {
        let path = liveFolder + "/" + id + ".update"
        guard FileIO.exists(path) else { return false }
        FileIO.remove(path)
        return true
    }

    /// Changes whenever an update is added, removed or replaced.
    public func fingerprint() -> String {
        var parts: [String] = []
        for name in FileIO.listDirectory(liveFolder) { parts.append(name + ":" + String(FileIO.fileSize(liveFolder + "/" + name) ?? 0)) }
        parts.append("historical:" + String(FileIO.fileSize(historicalPath) ?? -1))
        return parts.joined(separator: "|")
    }

    /// Saves a per-segment weekly speed file (validated first) as the historical speeds.
    public func saveHistorical(_ bytes: [UInt8], source: String) throws {
        _ = try SegmentSpeedCSV.parseProfiles(bytes, source: source)
        try FileIO.makeDirectory(folder)
        try FileIO.writeAtomically(bytes, to: historicalPath)
    }

    /// The saved historical speeds, if any (nil when there are none or they cannot be read).
    public func historicalProfiles() -> SegmentProfiles? {
        // Full historical data for a large country is several gigabytes of text.
        guard let bytes = try? FileIO.readAll(historicalPath, limit: 1 << 34) else { return nil }
        return try? SegmentSpeedCSV.parseProfiles(bytes, source: historicalPath)
    }
}
