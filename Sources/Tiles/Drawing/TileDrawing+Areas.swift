import BaseMap

extension TileDrawing {
    static let areaKinds = BaseMapKind.allCases.filter { $0.geometry == .area }

    /// Land cover, water and piers; buildings separately, later, so waterways pass beneath them.
    func drawAreas(buildings: Bool) {
        for kind in Self.areaKinds where (kind == .building) == buildings {
            let list = features(kind)
            guard !list.isEmpty, let area = style.areas[kind], zoom >= area.minZoom else { continue }
            canvas.newPath()
            for f in list { appendPath(f, close: true) }
            canvas.setColor(area.fill)
            canvas.fill()
            if kind == .pier { drawLines(.pierLine, color: area.fill) }
            if let outline = area.outline, zoom >= area.outlineMinZoom {
                canvas.newPath()
                for f in list where !map.flags(f).contains(.clipped) { appendPath(f, close: true) }
                canvas.setColor(outline)
                canvas.setDash([])
                canvas.setLineWidth(zoom >= 18 ? 1 : 0.7)
                canvas.stroke()
            }
        }
    }

    /// Rivers and streams, drawn over land cover and under buildings and roads.
    func drawWaterways() {
        for kind in [BaseMapKind.stream, .river] {
            guard let line = style.lines[kind], zoom >= line.minZoom else { continue }
            let list = features(kind).filter { !map.flags($0).contains(.tunnel) }
            guard !list.isEmpty else { continue }
            canvas.newPath()
            for f in list { appendPath(f, close: false) }
            canvas.setColor(line.fill)
            canvas.setDash([])
            canvas.setLineWidth(max(0.5, line.widthPixels.value(at: Double(zoom))))
            canvas.stroke()
        }
    }

    private func drawLines(_ kind: BaseMapKind, color: RGBColor) {
        guard let line = style.lines[kind], zoom >= line.minZoom else { return }
        let list = features(kind)
        guard !list.isEmpty else { return }
        canvas.newPath()
        for f in list { appendPath(f, close: false) }
        canvas.setColor(color)
        canvas.setDash([])
        canvas.setRoundCaps(false)
        canvas.setLineWidth(line.widthPixels.value(at: Double(zoom)))
        canvas.stroke()
        canvas.setRoundCaps(true)
    }
}
