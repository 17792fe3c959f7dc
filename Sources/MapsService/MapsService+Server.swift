public import Foundation
public import MapsAPI
import BaseMap
public import GeoCore
import Tiles
import Directions
import RoadNetwork
import RoutePlanning

extension MapsService {
    /// `/health`: the dataset's version and bounds, traffic in force, the limits.
    public func health(startedAt: Date, tiles: Bool, apiKeyRequired: Bool, http: HTTPLimits?) -> ServerHealth {
        let m = dataset.manifest
        let now = clock().timeIntervalSince1970
        let updates = trafficStore.activeUpdates(now: now)
        let newest = updates.map(\.createdAt).max()
        var health = ServerHealth(dataset: m.id, datasetCreatedAt: m.createdAt, source: m.source.name, timeZone: m.timeZone,
                                  boundingBox: m.boundingBox, profiles: m.profiles, uptimeSeconds: Int(Date().timeIntervalSince(startedAt)),
                                  trafficUpdates: updates.count, trafficUpdateAgeSeconds: newest.map { Int(max(0, now - $0)) },
                                  tiles: tiles, apiKeyRequired: apiKeyRequired, limits: limits, http: http)
        health.drivingSide = drivingSide.rawValue
        health.instructionLanguages = InstructionText.supportedLanguages
        let time = planning.timeModelState()
        var profiles: TravelTimeTable.ProfileOrigin = []
        if time.importedSegments > 0 { profiles.insert(.imported) }
        if time.learned.countingSlots > 0 { profiles.insert(.learned) }
        if time.settings.demoCongestion { profiles.insert(.demo) }
        let sources = TimedRoute.timeSourceNames(live: !updates.isEmpty, profiles: profiles)
        health.timeModel = TimeModelHealth(sources: sources, demoCongestion: time.settings.demoCongestion,
                                           importedProfileSegments: time.importedSegments, learnedSegments: time.learned.segments,
                                           learnedObservedSlots: time.learned.observedSlots, learnedSlots: time.learned.countingSlots,
                                           minimumObservations: time.settings.minimumObservations)
        return health
    }

    /// Base map tiles rendered from the dataset and cached under `state/tiles/<dataset>` (older
    /// datasets' folders are removed); nil when the dataset has no base map. The file is not read
    /// whole here: the dataset's checks cover it (at open, or in a server's background check).
    public func openTiles() -> MapTiles? {
        guard let entry = dataset.manifest.files[BaseMap.fileName],
              let baseMap = try? BaseMap(path: dataset.layout.root + "/" + entry.path, verify: false) else { return nil }
        let tilesRoot = dataset.stateFolder + "/tiles"
        TileCache.removeStaleFolders(tilesRoot: tilesRoot, keeping: dataset.manifest.id)
        guard let cache = try? TileCache(folder: tilesRoot + "/" + dataset.manifest.id, datasetID: dataset.manifest.id,
                                         renderer: TileRenderer(baseMap: baseMap)) else { return nil }
        return MapTiles(cache: cache)
    }
}

/// One dataset's rendered tiles, answered with ETags.
public final class MapTiles: Sendable {
    let cache: TileCache

    init(cache: TileCache) { self.cache = cache }

    public enum Answer: Sendable {
        case png([UInt8], etag: String)
        /// The client's copy (`If-None-Match`) is current.
        case notModified(etag: String)
        case renderFailed
    }

    public func tile(_ tile: TileID, ifNoneMatch: String?) -> Answer {
        let etag = cache.etag(for: tile)
        if ifNoneMatch == etag { return .notModified(etag: etag) }
        guard let cached = try? cache.tile(tile) else { return .renderFailed }
        return .png(cached.png, etag: cached.etag)
    }
}
