/// How one kind of label is set.
public struct LabelStyle: Sendable {
    public var color: RGBColor
    public var halo: RGBColor
    public var sizePixels: ZoomCurve
    public var bold: Bool
    public var uppercase: Bool
    /// Extra space between letters, in pixels.
    public var letterSpacingPixels: Double
    public var minZoom: Int
    public var maxZoom: Int

    public init(color: RGBColor, halo: RGBColor = RGBColor(hex: 0xFFFFFF), sizePixels: ZoomCurve, bold: Bool = false,
                uppercase: Bool = false, letterSpacingPixels: Double = 0, minZoom: Int, maxZoom: Int = 22) {
        self.color = color
        self.halo = halo
        self.sizePixels = sizePixels
        self.bold = bold
        self.uppercase = uppercase
        self.letterSpacingPixels = letterSpacingPixels
        self.minZoom = minZoom
        self.maxZoom = maxZoom
    }
}
