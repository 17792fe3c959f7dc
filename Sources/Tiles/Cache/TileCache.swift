public import BinaryIO
import Dispatch
public import GeoCore
import Synchronization

/// PNG tiles on disk under `folder/z/x/y.png`, rendered on first request.
///
/// ```swift
/// // server start, per dataset:
/// let cache = try TileCache(folder: layout.stateFolder + "/tiles/" + manifest.id, datasetID: manifest.id,
///                           renderer: TileRenderer(baseMap: try BaseMap(path: basemapPath)))
/// TileCache.removeStaleFolders(tilesRoot: layout.stateFolder + "/tiles", keeping: manifest.id)
/// // GET /tiles/{z}/{x}/{y}.png:
/// guard let tile = TileID(zoom: z, x: x, y: y) else { return 404 }
/// if request.ifNoneMatch == cache.etag(for: tile) { return 304 }
/// let cached = try cache.tile(tile)   // cached.png, cached.etag → 200, image/png, ETag, Cache-Control
/// ```
///
/// The folder belongs to one dataset version (the server passes `state/tiles/<datasetID>`), and a
/// `STYLE` file in it records the map style the tiles were drawn with; a different style empties
/// the folder at open. Tiles are written through a temporary name and a rename, and concurrent
/// requests for the same missing tile wait for one render instead of each drawing it.
/// Thread-safe.
public final class TileCache: Sendable {
    public let folder: String
    public let datasetID: String
    public let styleVersion: String
    private let render: @Sendable (TileID) throws -> [UInt8]
    private let inFlight = Mutex<[TileID: PendingRender]>([:])
    private let renders = Atomic<Int>(0)

    /// A cache that renders missing tiles with `renderer`.
    public convenience init(folder: String, datasetID: String, renderer: TileRenderer) throws(FileIOError) {
        try self.init(folder: folder, datasetID: datasetID, styleVersion: renderer.style.version) { tile in
            try renderer.renderPNG(tile)
        }
    }

    /// A cache over any PNG producer (tests count calls through this).
    public init(folder: String, datasetID: String, styleVersion: String,
                render: @escaping @Sendable (TileID) throws -> [UInt8]) throws(FileIOError) {
        var trimmed = folder
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.folder = trimmed
        self.datasetID = datasetID
        self.styleVersion = styleVersion
        self.render = render
        try FileIO.makeDirectory(trimmed)
        let marker = trimmed + "/STYLE"
        let recorded = TileFiles.read(marker).map { String(decoding: $0, as: UTF8.self) }
        if recorded != styleVersion {
            // Only zoom folders and stray temporaries: a wrong `folder` never costs anything else.
            for name in FileIO.listDirectory(trimmed) where Int(name) != nil || name.contains(".tmp-") {
                FileIO.remove(trimmed + "/" + name)
            }
            try TileFiles.writeAtomically(Array(styleVersion.utf8), to: marker)
        }
    }

    /// How many tiles this cache has rendered (not served from disk) since it was opened.
    public var renderCount: Int { renders.load(ordering: .relaxed) }

    public func path(for tile: TileID) -> String { "\(folder)/\(tile.zoom)/\(tile.x)/\(tile.y).png" }

    /// The entity tag of a tile, known without reading or rendering it (for `If-None-Match`).
    public func etag(for tile: TileID) -> String {
        "\"\(datasetID)-s\(styleVersion)-\(tile.zoom)-\(tile.x)-\(tile.y)\""
    }

    /// The tile from disk, or rendered, stored and returned. Disk write failures are not errors:
    /// the bytes are still returned and the next request renders again.
    public func tile(_ tile: TileID) throws -> CachedTile {
        let path = path(for: tile)
        if let bytes = TileFiles.read(path), TileFiles.isCompletePNG(bytes) {
            return CachedTile(png: bytes, etag: etag(for: tile), fromDisk: true)
        }
        let (pending, isOwner) = inFlight.withLock { table -> (PendingRender, Bool) in
            if let existing = table[tile] { return (existing, false) }
            let created = PendingRender()
            table[tile] = created
            return (created, true)
        }
        if !isOwner {
            return CachedTile(png: try pending.wait(), etag: etag(for: tile), fromDisk: false)
        }
        let result: Result<[UInt8], any Error>
        do {
            let png = try render(tile)
            renders.add(1, ordering: .relaxed)
            try? FileIO.makeDirectory("\(folder)/\(tile.zoom)/\(tile.x)")
            try? TileFiles.writeAtomically(png, to: path)
            result = .success(png)
        } catch {
            result = .failure(error)
        }
        inFlight.withLock { table in table[tile] = nil }
        pending.finish(result)
        return CachedTile(png: try result.get(), etag: etag(for: tile), fromDisk: false)
    }

    /// Removes the tile folders of other datasets under `tilesRoot` (`state/tiles`).
    public static func removeStaleFolders(tilesRoot: String, keeping datasetID: String) {
        for name in FileIO.listDirectory(tilesRoot) where name != datasetID {
            FileIO.remove(tilesRoot + "/" + name)
        }
    }
}

/// One render that other requests for the same tile wait on.
final class PendingRender: @unchecked Sendable {
    private let group = DispatchGroup()
    private let lock = Mutex<Result<[UInt8], any Error>?>(nil)

    init() { group.enter() }

    func finish(_ result: Result<[UInt8], any Error>) {
        lock.withLock { $0 = result }
        group.leave()
    }

    func wait() throws -> [UInt8] {
        group.wait()
        guard let result = lock.withLock({ $0 }) else { return [] }
        return try result.get()
    }
}
