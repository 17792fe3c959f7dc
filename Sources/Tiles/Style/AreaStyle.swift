/// How one kind of area is filled.
public struct AreaStyle: Sendable {
    public var fill: RGBColor
    /// Drawn around features that were not cut along cell edges, from `outlineMinZoom`.
    public var outline: RGBColor?
    public var outlineMinZoom: Int
    public var minZoom: Int

    public init(fill: RGBColor, outline: RGBColor? = nil, outlineMinZoom: Int = 15, minZoom: Int) {
        self.fill = fill
        self.outline = outline
        self.outlineMinZoom = outlineMinZoom
        self.minZoom = minZoom
    }
}
