/// Decoded tile pixels, for tests and diagnostics.
public struct TileImage: Sendable {
    public let widthPixels: Int
    public let heightPixels: Int
    /// 0x00RRGGBB, row by row from the top-left.
    public let pixels: [UInt32]

    init(widthPixels: Int, heightPixels: Int, pixels: [UInt32]) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.pixels = pixels
    }

    /// Decodes PNG bytes (as `TileRenderer.renderPNG` makes them); nil when they are not a PNG.
    public init?(png: [UInt8]) {
        guard let decoded = CairoCanvas.decodePNG(png) else { return nil }
        self.init(widthPixels: decoded.width, heightPixels: decoded.height, pixels: decoded.pixels)
    }

    /// The colour at a pixel; nil outside the image.
    public func color(x: Int, y: Int) -> RGBColor? {
        guard x >= 0, y >= 0, x < widthPixels, y < heightPixels else { return nil }
        let v = pixels[y * widthPixels + x]
        return RGBColor(red: UInt8((v >> 16) & 0xFF), green: UInt8((v >> 8) & 0xFF), blue: UInt8(v & 0xFF))
    }
}
