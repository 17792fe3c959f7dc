import BaseMap

#if canImport(Glibc)
import Glibc
#endif

extension TileDrawing {
    static let placeOrder: [BaseMapKind] = [.city, .town, .village, .suburb, .island, .quarter, .hamlet, .neighbourhood]
    /// Labels stay this far inside the tile, so none is ever cut at a tile edge.
    static let labelMarginPixels = 2.0
    /// Two labels of the same road are at least this far apart.
    static let repeatDistancePixels = 140.0

    private var tileSize: Double { Double(canvas.widthPixels) }

    private func isInside(_ b: LabelCollisionSet.Box) -> Bool {
        b.minX >= Self.labelMarginPixels && b.minY >= Self.labelMarginPixels
            && b.maxX <= tileSize - Self.labelMarginPixels && b.maxY <= tileSize - Self.labelMarginPixels
    }

    /// Strokes the current path as a halo, then fills it as text.
    private func paintText(_ label: LabelStyle, haloWidth: Double) {
        canvas.setDash([])
        canvas.setColor(label.halo, alpha: 0.92)
        canvas.setLineWidth(haloWidth)
        canvas.stroke(preserve: true)
        canvas.setColor(label.color)
        canvas.fill()
    }

    // MARK: Places

    mutating func drawPlaceLabels() {
        for kind in Self.placeOrder {
            guard let label = style.labels[kind], zoom >= label.minZoom, zoom <= label.maxZoom else { continue }
            for f in features(kind) {
                guard let name = map.name(f), let part = map.parts(f).first, let point = map.points(ofPart: part).first else { continue }
                let (x, y) = pixel(point)
                placePointLabel(label.uppercase ? name.uppercased() : name, kind: kind, x: x, y: y, label: label)
            }
        }
    }

    /// Sets `text` centred on (`x`, `y`) if it fits inside the tile and collides with nothing.
    @discardableResult
    mutating func placePointLabel(_ text: String, kind: BaseMapKind, x: Double, y: Double, label: LabelStyle) -> Bool {
        let size = label.sizePixels.value(at: Double(zoom))
        guard size >= 6 else { return false }
        canvas.selectFont(family: style.fontFamily, bold: label.bold, sizePixels: size)
        guard let shaped = canvas.shape(text, letterSpacing: label.letterSpacingPixels) else { return false }
        let (ascent, descent) = canvas.fontMetrics()
        let halfWidth = shaped.width / 2, halfHeight = (ascent + descent) / 2
        let box = LabelCollisionSet.Box(minX: x - halfWidth - 3, minY: y - halfHeight - 2, maxX: x + halfWidth + 3, maxY: y + halfHeight + 2)
        guard isInside(box), !collisions.collides(box) else { return false }
        canvas.newPath()
        let baseline = y + (ascent - descent) / 2
        for g in shaped.glyphs {
            canvas.appendGlyph(g.index, x: x - halfWidth + g.x, y: baseline, angle: 0, dx: 0, dy: 0)
        }
        paintText(label, haloWidth: 3)
        collisions.insert(box)
        placedLabels.append(PlacedLabel(text: text, kind: kind, centerX: x, centerY: y))
        return true
    }

    // MARK: Roads

    mutating func drawRoadLabels() {
        let label = style.roadLabel
        guard zoom >= label.minZoom else { return }
        for kind in Self.roadOrder.reversed() {
            guard let line = style.lines[kind], zoom >= line.labelMinZoom else { continue }
            var candidates: [(BaseMapFeatureID, Double)] = []
            for f in features(kind) where map.nameID(f) != 0 && !map.flags(f).contains(.tunnel) {
                candidates.append((f, longestRunLength(f)))
            }
            candidates.sort { $0.1 > $1.1 }
            let size = label.sizePixels.value(at: Double(zoom)) + (kind.rawValue >= BaseMapKind.secondary.rawValue ? 0.5 : 0)
            for (f, length) in candidates where length > 20 {
                guard let name = map.name(f) else { continue }
                placeLineLabel(name, nameID: map.nameID(f), feature: f, kind: kind, sizePixels: size, label: label)
            }
        }
    }

    /// The stretches of the feature that lie inside the tile (minus the label margin), in pixels.
    private func runsInside(_ f: BaseMapFeatureID) -> [PolylineWalker] {
        let low = Self.labelMarginPixels, high = tileSize - Self.labelMarginPixels
        var runs: [PolylineWalker] = []
        for part in map.parts(f) {
            var xs: [Double] = [], ys: [Double] = []
            func flush() {
                if xs.count >= 2 { runs.append(PolylineWalker(xs: xs, ys: ys)) }
                xs = []
                ys = []
            }
            var previous: (x: Double, y: Double)?
            for p in map.points(ofPart: part) {
                let current = pixel(p)
                defer { previous = current }
                guard let a = previous else { continue }
                guard let (t0, t1) = Self.clipSegment(a, current, low: low, high: high) else { flush(); continue }
                let start = (x: a.x + (current.x - a.x) * t0, y: a.y + (current.y - a.y) * t0)
                let end = (x: a.x + (current.x - a.x) * t1, y: a.y + (current.y - a.y) * t1)
                if let lx = xs.last, let ly = ys.last, abs(lx - start.x) > 0.01 || abs(ly - start.y) > 0.01 { flush() }
                if xs.isEmpty {
                    xs.append(start.x)
                    ys.append(start.y)
                }
                if let lx = xs.last, let ly = ys.last, (end.x - lx) * (end.x - lx) + (end.y - ly) * (end.y - ly) < 0.25 { continue }
                xs.append(end.x)
                ys.append(end.y)
                if t1 < 1 { flush() }
            }
            flush()
        }
        return runs
    }

    /// Liang–Barsky: the parameter range of segment a→b inside the square [low, high]², or nil.
    static func clipSegment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), low: Double, high: Double) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - low), (dx, high - a.x), (-dy, a.y - low), (dy, high - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                if t0 > t1 { return nil }
            }
        }
        return (t0, t1)
    }

    private func longestRunLength(_ f: BaseMapFeatureID) -> Double {
        runsInside(f).reduce(0) { max($0, $1.length) }
    }

    private mutating func placeLineLabel(_ text: String, nameID: UInt32, feature: BaseMapFeatureID, kind: BaseMapKind,
                                         sizePixels: Double, label: LabelStyle) {
        canvas.selectFont(family: style.fontFamily, bold: false, sizePixels: sizePixels)
        guard let shaped = canvas.shape(text) else { return }
        let (ascent, descent) = canvas.fontMetrics()
        let runs = runsInside(feature).sorted { $0.length > $1.length }
        for run in runs where run.length >= shaped.width + 8 {
            for fraction in [0.5, 0.35, 0.65, 0.2, 0.8] {
                if tryPlace(shaped, along: run, centerDistance: run.length * fraction, text: text, nameID: nameID,
                            kind: kind, ascent: ascent, descent: descent, sizePixels: sizePixels, label: label) {
                    return
                }
            }
        }
    }

    private mutating func tryPlace(_ shaped: ShapedText, along forward: PolylineWalker, centerDistance: Double, text: String,
                                   nameID: UInt32, kind: BaseMapKind, ascent: Double, descent: Double,
                                   sizePixels: Double, label: LabelStyle) -> Bool {
        var run = forward
        var center = centerDistance
        let halfWidth = shaped.width / 2
        guard center - halfWidth >= 2, center + halfWidth <= run.length - 2 else { return false }
        // Read left to right: flip the line when it runs right to left under the label.
        let a = run.point(at: center - halfWidth), b = run.point(at: center + halfWidth)
        if b.x < a.x {
            run = run.reversed()
            center = run.length - center
        }
        let middle = run.point(at: center)
        if let previous = placedNames[nameID],
           previous.contains(where: { ($0.x - middle.x) * ($0.x - middle.x) + ($0.y - middle.y) * ($0.y - middle.y) < Self.repeatDistancePixels * Self.repeatDistancePixels }) {
            return false
        }
        let start = center - halfWidth
        var placements: [(x: Double, y: Double, angle: Double)] = []
        var boxes: [LabelCollisionSet.Box] = []
        var previousAngle: Double?
        let reach = sizePixels * 0.62
        for g in shaped.glyphs {
            let p = run.point(at: start + g.x + g.advance / 2)
            if let previousAngle {
                var turn = p.angle - previousAngle
                while turn > Double.pi { turn -= 2 * Double.pi }
                while turn < -Double.pi { turn += 2 * Double.pi }
                guard abs(turn) < 0.55 else { return false }
            }
            previousAngle = p.angle
            placements.append(p)
            boxes.append(LabelCollisionSet.Box(minX: p.x - reach, minY: p.y - reach, maxX: p.x + reach, maxY: p.y + reach))
        }
        guard boxes.allSatisfy(isInside), !collisions.collides(any: boxes) else { return false }
        canvas.newPath()
        let dy = (ascent - descent) / 2
        for (g, p) in zip(shaped.glyphs, placements) {
            canvas.appendGlyph(g.index, x: p.x, y: p.y, angle: p.angle, dx: -g.advance / 2, dy: dy)
        }
        paintText(label, haloWidth: 2.6)
        collisions.insert(contentsOf: boxes)
        placedNames[nameID, default: []].append((middle.x, middle.y))
        placedLabels.append(PlacedLabel(text: text, kind: kind, centerX: middle.x, centerY: middle.y))
        return true
    }
}
