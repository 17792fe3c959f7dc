public import BaseMap
public import GeoCore

/// Renders 256-pixel PNG map tiles from a base map with Cairo.
///
/// Thread-safe: every render draws on its own surface, and the base map is read-only, so an HTTP
/// server can call `renderPNG` from many threads at once.
public final class TileRenderer: Sendable {
    public static let tileSizePixels = 256

    public let baseMap: BaseMap
    public let style: MapStyle

    public init(baseMap: BaseMap, style: MapStyle = .standard) {
        self.baseMap = baseMap
        self.style = style
    }

    /// The tile as PNG bytes (RGB, 256 × 256).
    public func renderPNG(_ tile: TileID) throws(TileRenderError) -> [UInt8] {
        let (canvas, _) = try draw(tile)
        guard let png = canvas.pngBytes() else { throw TileRenderError(tile: tile, reason: "PNG encoding failed") }
        return png
    }

    /// The tile with its pixels, PNG bytes and the labels that were placed (for tests and tools).
    public func renderDetailed(_ tile: TileID) throws(TileRenderError) -> TileRendering {
        let (canvas, drawing) = try draw(tile)
        guard let png = canvas.pngBytes() else { throw TileRenderError(tile: tile, reason: "PNG encoding failed") }
        let image = TileImage(widthPixels: canvas.widthPixels, heightPixels: canvas.heightPixels, pixels: canvas.pixels())
        return TileRendering(tile: tile, png: png, image: image, labels: drawing.placedLabels, featureCount: drawing.featureCount)
    }

    private struct DrawSummary {
        var placedLabels: [PlacedLabel]
        var featureCount: Int
    }

    private func draw(_ tile: TileID) throws(TileRenderError) -> (CairoCanvas, DrawSummary) {
        let size = Self.tileSizePixels
        guard let canvas = CairoCanvas(widthPixels: size, heightPixels: size) else {
            throw TileRenderError(tile: tile, reason: "cannot create a \(size)×\(size) surface")
        }
        canvas.paint(style.land)
        var drawing = TileDrawing(map: baseMap, style: style, tile: tile, canvas: canvas)
        let featureCount = drawing.gather()
        if featureCount > 0 {
            drawing.drawAreas(buildings: false)
            drawing.drawWaterways()
            drawing.drawAreas(buildings: true)
            drawing.drawRoadsAndRailways()
            drawing.drawOnewayArrows()
            drawing.drawPlaceLabels()
            drawing.drawRoadLabels()
        }
        guard canvas.isHealthy else { throw TileRenderError(tile: tile, reason: "cairo reported an error while drawing") }
        return (canvas, DrawSummary(placedLabels: drawing.placedLabels, featureCount: featureCount))
    }
}

/// What `TileRenderer.renderDetailed` returns.
public struct TileRendering: Sendable {
    public var tile: TileID
    public var png: [UInt8]
    public var image: TileImage
    public var labels: [PlacedLabel]
    /// Features the tile query returned (before per-zoom filtering).
    public var featureCount: Int
}

/// A tile could not be drawn or encoded (Cairo ran out of memory or failed).
public struct TileRenderError: Error, CustomStringConvertible, Sendable {
    public var tile: TileID
    public var reason: String

    public var description: String { "tile \(tile): \(reason)" }
}
