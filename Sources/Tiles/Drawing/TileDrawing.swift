import BaseMap
import GeoCore

/// The state of one tile render: the canvas, the tile's transform, the features found for it
/// (bucketed by kind) and the labels placed so far. Lives for one render on one thread.
struct TileDrawing {
    let map: BaseMap
    let style: MapStyle
    let tile: TileID
    let canvas: CairoCanvas
    let zoom: Int
    /// Tile pixels per world unit.
    let scale: Double
    let originX: Double
    let originY: Double
    /// Features per `BaseMapKind.rawValue`, in file order.
    var buckets: [[BaseMapFeatureID]]
    var collisions = LabelCollisionSet()
    var placedLabels: [PlacedLabel] = []
    /// Centres of the road names already set, by name, to keep repeats apart.
    var placedNames: [UInt32: [(x: Double, y: Double)]] = [:]

    static let bufferPixels = 40.0

    init(map: BaseMap, style: MapStyle, tile: TileID, canvas: CairoCanvas) {
        self.map = map
        self.style = style
        self.tile = tile
        self.canvas = canvas
        zoom = tile.zoom
        let box = MercatorBox(tile: tile)
        originX = Double(box.minX)
        originY = Double(box.minY)
        scale = 1 / MercatorPoint.unitsPerPixel(zoom: tile.zoom)
        buckets = Array(repeating: [], count: 128)
    }

    /// Finds the tile's features, with a margin for wide lines.
    mutating func gather() -> Int {
        let margin = UInt32(min(Double(UInt32.max / 4), Self.bufferPixels / scale))
        var found: [BaseMapFeatureID] = []
        found.reserveCapacity(4096)
        map.features(in: MercatorBox(tile: tile).expanded(by: margin), zoom: zoom, into: &found)
        for f in found {
            let raw = Int(map.kind(f).rawValue)
            if raw < buckets.count { buckets[raw].append(f) }
        }
        return found.count
    }

    @inline(__always)
    func pixel(_ p: MercatorPoint) -> (x: Double, y: Double) {
        ((Double(p.x) - originX) * scale, (Double(p.y) - originY) * scale)
    }

    /// Adds every part of `f` to the current path, skipping points closer than a third of a pixel.
    func appendPath(_ f: BaseMapFeatureID, close: Bool) {
        for part in map.parts(f) {
            let points = map.points(ofPart: part)
            guard let first = points.first else { continue }
            var (lastX, lastY) = pixel(first)
            canvas.moveTo(lastX, lastY)
            var pendingX = lastX, pendingY = lastY, pending = false
            for p in points.dropFirst() {
                let (x, y) = pixel(p)
                let dx = x - lastX, dy = y - lastY
                if dx * dx + dy * dy < 0.11 {
                    pendingX = x
                    pendingY = y
                    pending = true
                    continue
                }
                canvas.lineTo(x, y)
                lastX = x
                lastY = y
                pending = false
            }
            if close {
                canvas.closePath()
            } else if pending {
                canvas.lineTo(pendingX, pendingY)
            }
        }
    }

    func features(_ kind: BaseMapKind) -> [BaseMapFeatureID] { buckets[Int(kind.rawValue)] }
}
