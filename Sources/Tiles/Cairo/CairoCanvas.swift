import CCairo

/// One glyph of a shaped text run, positioned from the run's start.
struct ShapedGlyph {
    var index: UInt
    var x: Double
    var advance: Double
}

/// A text run shaped with the canvas's current font.
struct ShapedText {
    var glyphs: [ShapedGlyph]
    var width: Double
}

/// The one place this module calls Cairo: a 256-pixel RGB surface and its drawing context.
///
/// A canvas belongs to one render on one thread; Cairo itself is thread-safe across contexts.
final class CairoCanvas {
    private let surface: OpaquePointer
    private let context: OpaquePointer
    let widthPixels: Int
    let heightPixels: Int

    init?(widthPixels: Int, heightPixels: Int) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(widthPixels), Int32(heightPixels)) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        self.surface = surface
        self.context = context
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    var isHealthy: Bool { cairo_status(context) == CAIRO_STATUS_SUCCESS }

    // MARK: Paint

    func setColor(_ c: RGBColor, alpha: Double = 1) {
        if alpha >= 1 {
            cairo_set_source_rgb(context, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255)
        } else {
            cairo_set_source_rgba(context, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, alpha)
        }
    }

    func paint(_ c: RGBColor) {
        setColor(c)
        cairo_paint(context)
    }

    // MARK: Paths

    @inline(__always) func moveTo(_ x: Double, _ y: Double) { cairo_move_to(context, x, y) }
    @inline(__always) func lineTo(_ x: Double, _ y: Double) { cairo_line_to(context, x, y) }
    func closePath() { cairo_close_path(context) }
    func newPath() { cairo_new_path(context) }

    func fill(preserve: Bool = false) {
        if preserve { cairo_fill_preserve(context) } else { cairo_fill(context) }
    }

    func stroke(preserve: Bool = false) {
        if preserve { cairo_stroke_preserve(context) } else { cairo_stroke(context) }
    }

    func setLineWidth(_ pixels: Double) { cairo_set_line_width(context, pixels) }

    func setRoundCaps(_ round: Bool) {
        cairo_set_line_cap(context, round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
    }

    /// An empty pattern makes lines solid.
    func setDash(_ pattern: [Double], offset: Double = 0) {
        pattern.withUnsafeBufferPointer { cairo_set_dash(context, $0.baseAddress, Int32($0.count), offset) }
    }

    // MARK: Text

    func selectFont(family: String, bold: Bool, sizePixels: Double) {
        cairo_select_font_face(context, family, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, sizePixels)
    }

    /// Shapes `text` with the current font; `letterSpacing` pixels are added after every glyph.
    func shape(_ text: String, letterSpacing: Double = 0) -> ShapedText? {
        guard let font = cairo_get_scaled_font(context) else { return nil }
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>? = nil
        var count: Int32 = 0
        let utf8 = Array(text.utf8CString)
        let status = utf8.withUnsafeBufferPointer {
            cairo_scaled_font_text_to_glyphs(font, 0, 0, $0.baseAddress, Int32($0.count - 1), &glyphs, &count, nil, nil, nil)
        }
        guard status == CAIRO_STATUS_SUCCESS, let glyphs, count > 0 else { return nil }
        defer { cairo_glyph_free(glyphs) }
        var extents = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(font, glyphs + Int(count - 1), 1, &extents)
        var result: [ShapedGlyph] = []
        result.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let next = i + 1 < Int(count) ? glyphs[i + 1].x : glyphs[i].x + extents.x_advance
            result.append(ShapedGlyph(index: glyphs[i].index, x: glyphs[i].x + Double(i) * letterSpacing,
                                      advance: next - glyphs[i].x + letterSpacing))
        }
        let width = (result.last.map { $0.x + $0.advance } ?? 0) - letterSpacing
        return ShapedText(glyphs: result, width: width)
    }

    /// Ascent and descent of the current font in pixels.
    func fontMetrics() -> (ascent: Double, descent: Double) {
        var extents = cairo_font_extents_t()
        cairo_font_extents(context, &extents)
        return (extents.ascent, extents.descent)
    }

    /// Appends one glyph's outline, rotated by `angle` radians about (`x`, `y`), with the glyph's
    /// own origin at (`dx`, `dy`) in the rotated frame.
    func appendGlyph(_ index: UInt, x: Double, y: Double, angle: Double, dx: Double, dy: Double) {
        cairo_save(context)
        cairo_translate(context, x, y)
        if angle != 0 { cairo_rotate(context, angle) }
        var glyph = cairo_glyph_t(index: index, x: dx, y: dy)
        cairo_glyph_path(context, &glyph, 1)
        cairo_restore(context)
    }

    // MARK: Output

    func pngBytes() -> [UInt8]? {
        cairo_surface_flush(surface)
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        sink.bytes.reserveCapacity(32 * 1024)
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes
                .append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : nil
    }

    /// The pixels as 0x00RRGGBB, row by row.
    func pixels() -> [UInt32] {
        cairo_surface_flush(surface)
        return Self.copyPixels(surface)
    }

    static func copyPixels(_ surface: OpaquePointer) -> [UInt32] {
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        var result = [UInt32](repeating: 0, count: width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride)
            for column in 0..<width {
                result[row * width + column] = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self) & 0x00FF_FFFF
            }
        }
        return result
    }

    /// Encodes 0x00RRGGBB pixels as an RGB PNG.
    static func encodePNG(widthPixels: Int, heightPixels: Int, pixels: [UInt32]) -> [UInt8]? {
        guard pixels.count == widthPixels * heightPixels,
              let canvas = CairoCanvas(widthPixels: widthPixels, heightPixels: heightPixels) else { return nil }
        canvas.load(pixels)
        return canvas.pngBytes()
    }

    private func load(_ pixels: [UInt32]) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return }
        for row in 0..<heightPixels {
            let line = UnsafeMutableRawPointer(data + row * stride)
            for column in 0..<widthPixels {
                line.storeBytes(of: pixels[row * widthPixels + column], toByteOffset: column * 4, as: UInt32.self)
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Decodes a PNG into pixels (0x00RRGGBB; alpha is ignored).
    static func decodePNG(_ bytes: [UInt8]) -> (width: Int, height: Int, pixels: [UInt32])? {
        final class Source {
            let bytes: [UInt8]
            var offset = 0
            init(_ bytes: [UInt8]) { self.bytes = bytes }
        }
        let source = Source(bytes)
        guard let surface = cairo_image_surface_create_from_png_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let source = Unmanaged<Source>.fromOpaque(closure).takeUnretainedValue()
            let wanted = Int(length)
            guard source.offset + wanted <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
            source.bytes.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { data.update(from: base + source.offset, count: wanted) }
            }
            source.offset += wanted
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(source).toOpaque()) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        return (width, height, copyPixels(surface))
    }
}
