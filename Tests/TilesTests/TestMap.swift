import BaseMap
import GeoCore
import OSMPBF
import Tiles

/// A small OSM map drawn in the pixel space of one tile: `node(x, y)` puts a node at that pixel
/// of `tile`, so expectations can name pixels directly.
struct TestMap {
    let tile: TileID
    private(set) var builder = OSMBlockBuilder()
    private var ways: [(id: Int64, refs: [Int64], tags: Tags)] = []
    private var relations: [(id: Int64, members: [(type: OSMMemberType, id: Int64, role: String)], tags: Tags)] = []
    private var nextNode: Int64 = 1
    private var nodeAt: [String: Int64] = [:]
    private var nextWay: Int64 = 1
    private var nextRelation: Int64 = 1

    init(tile: TileID) { self.tile = tile }

    /// The WGS84 position of a pixel of the tile.
    func coordinate(_ x: Double, _ y: Double) -> Coordinate {
        WebMercator.coordinate(pixelX: Double(tile.x) * 256 + x, pixelY: Double(tile.y) * 256 + y, zoom: tile.zoom)
    }

    mutating func node(_ x: Double, _ y: Double, tags: Tags = Tags()) -> Int64 {
        let c = coordinate(x, y)
        defer { nextNode += 1 }
        builder.addNode(id: nextNode, latitudeE7: c.latitudeE7, longitudeE7: c.longitudeE7, tags: tags)
        return nextNode
    }

    /// The untagged node at a pixel, shared by every way through that pixel.
    mutating func sharedNode(_ x: Double, _ y: Double) -> Int64 {
        if let id = nodeAt["\(x),\(y)"] { return id }
        let id = node(x, y)
        nodeAt["\(x),\(y)"] = id
        return id
    }

    /// A way through pixel positions; `closed` repeats the first node at the end.
    @discardableResult
    mutating func way(_ pixels: [(Double, Double)], _ tags: Tags, closed: Bool = false) -> Int64 {
        var refs = pixels.map { sharedNode($0.0, $0.1) }
        if closed, let first = refs.first { refs.append(first) }
        defer { nextWay += 1 }
        ways.append((nextWay, refs, tags))
        return nextWay
    }

    /// A rectangle as a closed way, clockwise on screen.
    @discardableResult
    mutating func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ tags: Tags) -> Int64 {
        way([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], tags, closed: true)
    }

    @discardableResult
    mutating func relation(_ members: [(type: OSMMemberType, id: Int64, role: String)], _ tags: Tags) -> Int64 {
        defer { nextRelation += 1 }
        relations.append((nextRelation, members, tags))
        return nextRelation
    }

    /// Nodes first, then ways, then relations, like a PBF file.
    var source: InMemoryOSMSource {
        var b = builder
        for w in ways { b.addWay(id: w.id, refs: w.refs, tags: w.tags) }
        for r in relations { b.addRelation(id: r.id, members: r.members, tags: r.tags) }
        return InMemoryOSMSource([b.block])
    }

    /// The base map, with the extract box set to the tile (so coastlines close along its edges).
    func baseMap() throws -> BaseMap {
        try BaseMapBuilder(extractBounds: tile.bounds).buildInMemory(source: source)
    }

    func render(_ style: MapStyle = .standard) throws -> TileRendering {
        try TileRenderer(baseMap: try baseMap(), style: style).renderDetailed(tile)
    }

    /// A tile in Helsinki at zoom 16, away from the edges of the zoom-14 index cells (so features
    /// drawn inside it are stored whole).
    static let helsinkiTile = TileID(zoom: 16, x: 37309, y: 18970)!
}

extension TileRendering {
    func color(_ x: Int, _ y: Int) -> RGBColor { image.color(x: x, y: y) ?? RGBColor(hex: 0xFF00FF) }

    /// True when the pixel is within `tolerance` of `expected` in every channel.
    func pixel(_ x: Int, _ y: Int, is expected: RGBColor, tolerance: Int = 3) -> Bool {
        color(x, y).distance(to: expected) <= tolerance
    }
}
