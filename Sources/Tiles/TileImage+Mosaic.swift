extension TileImage {
    /// The image as an RGB PNG.
    public func pngBytes() -> [UInt8]? {
        CairoCanvas.encodePNG(widthPixels: widthPixels, heightPixels: heightPixels, pixels: pixels)
    }

    /// Images of equal size laid out in rows (for looking at several neighbouring tiles at once).
    public static func mosaic(_ rows: [[TileImage]]) -> TileImage? {
        guard let first = rows.first?.first else { return nil }
        let w = first.widthPixels, h = first.heightPixels
        let columns = rows.map(\.count).max() ?? 0
        var pixels = [UInt32](repeating: 0xFFFFFF, count: columns * w * rows.count * h)
        for (r, row) in rows.enumerated() {
            for (c, image) in row.enumerated() where image.widthPixels == w && image.heightPixels == h {
                for y in 0..<h {
                    let target = (r * h + y) * columns * w + c * w
                    pixels.replaceSubrange(target..<(target + w), with: image.pixels[(y * w)..<(y * w + w)])
                }
            }
        }
        return TileImage(widthPixels: columns * w, heightPixels: rows.count * h, pixels: pixels)
    }
}
