/// How one kind of line (road, railway, waterway) is stroked.
public struct LineStyle: Sendable {
    public var fill: RGBColor
    public var casing: RGBColor
    /// Width of the fill.
    public var widthPixels: ZoomCurve
    /// Width of the casing on each side of the fill (zero: no casing).
    public var casingWidthPixels: ZoomCurve
    /// Below this width in pixels the line is drawn once, in `thinColor`, without casing.
    public var thinWidthPixels: Double
    public var thinColor: RGBColor
    public var minZoom: Int
    /// Dash pattern (on, off, … in pixels) for the fill; empty for solid lines.
    public var dashPixels: [Double]
    /// The zoom from which the name is drawn along the line (Int.max: never).
    public var labelMinZoom: Int

    public init(fill: RGBColor, casing: RGBColor, widthPixels: ZoomCurve, casingWidthPixels: ZoomCurve = .zero,
                thinWidthPixels: Double = 1.8, thinColor: RGBColor? = nil, minZoom: Int, dashPixels: [Double] = [],
                labelMinZoom: Int = .max) {
        self.fill = fill
        self.casing = casing
        self.widthPixels = widthPixels
        self.casingWidthPixels = casingWidthPixels
        self.thinWidthPixels = thinWidthPixels
        self.thinColor = thinColor ?? casing
        self.minZoom = minZoom
        self.dashPixels = dashPixels
        self.labelMinZoom = labelMinZoom
    }
}
