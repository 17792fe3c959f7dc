import BaseMap

extension TileDrawing {
    /// Where a line sits in the stack: tunnels first, then the ground, then bridges by layer.
    enum Level: Hashable {
        case tunnel, ground, bridge(Int8)
    }

    static let roadOrder: [BaseMapKind] = [.path, .steps, .track, .service, .pedestrian, .minorRoad,
                                           .tertiary, .secondary, .primary, .trunk, .motorway]
    static let railOrder: [BaseMapKind] = [.tram, .subway, .rail]
    /// Sidings, yards, parking aisles and driveways appear from this zoom.
    static let minorMinZoom = 15

    func drawRoadsAndRailways() {
        var levels: [Level: [BaseMapKind: [BaseMapFeatureID]]] = [:]
        for kind in Self.roadOrder + Self.railOrder {
            guard let line = style.lines[kind], zoom >= line.minZoom else { continue }
            let isFootway = kind == .path || kind == .steps
            for f in features(kind) {
                let flags = map.flags(f)
                // Underground passages and indoor corridors only clutter a base map.
                if isFootway && (flags.contains(.tunnel) || map.layer(f) < 0) { continue }
                let level: Level = flags.contains(.tunnel) ? .tunnel
                    : flags.contains(.bridge) ? .bridge(max(1, map.layer(f))) : .ground
                levels[level, default: [:]][kind, default: []].append(f)
            }
        }
        if let tunnels = levels[.tunnel], zoom >= 13 { drawLevel(tunnels, .tunnel) }
        if let ground = levels[.ground] { drawLevel(ground, .ground) }
        let bridgeLayers = levels.keys.compactMap { level -> Int8? in
            if case .bridge(let layer) = level { return layer } else { return nil }
        }.sorted()
        for layer in bridgeLayers {
            if let bridges = levels[.bridge(layer)] { drawLevel(bridges, .bridge(layer)) }
        }
    }

    private func drawLevel(_ byKind: [BaseMapKind: [BaseMapFeatureID]], _ level: Level) {
        for kind in Self.roadOrder { if let list = byKind[kind] { strokeLines(list, kind, level, casing: true) } }
        for kind in Self.roadOrder { if let list = byKind[kind] { strokeLines(list, kind, level, casing: false) } }
        for kind in Self.railOrder {
            guard let list = byKind[kind] else { continue }
            strokeLines(list, kind, level, casing: true)
            strokeLines(list, kind, level, casing: false)
        }
    }

    private func strokeLines(_ list: [BaseMapFeatureID], _ kind: BaseMapKind, _ level: Level, casing: Bool) {
        guard let line = style.lines[kind] else { return }
        var plain: [BaseMapFeatureID] = [], links: [BaseMapFeatureID] = [], minor: [BaseMapFeatureID] = []
        for f in list {
            let flags = map.flags(f)
            if flags.contains(.minor) {
                if zoom >= Self.minorMinZoom { minor.append(f) }
            } else if flags.contains(.link) { links.append(f) } else { plain.append(f) }
        }
        for (group, factor) in [(minor, 0.6), (plain, 1.0), (links, 0.7)] where !group.isEmpty {
            let widthPixels = line.widthPixels.value(at: Double(zoom)) * factor
            guard widthPixels > 0 else { continue }
            let casingPixels = line.casingWidthPixels.value(at: Double(zoom))
            // Railway sidings and yards stay thin lines at every zoom.
            let isThin = widthPixels < line.thinWidthPixels || (kind.isRailway && factor < 1)
            var color: RGBColor
            var strokePixels: Double
            var dash: [Double] = []
            if casing {
                guard !isThin, casingPixels > 0 else { continue }
                color = line.casing
                strokePixels = widthPixels + 2 * casingPixels
                switch level {
                case .tunnel:
                    color = line.casing.mixed(with: style.land, 0.35)
                    dash = [4, 3]
                case .bridge:
                    if kind.isRoad && kind != .path && kind != .steps && kind != .track {
                        color = style.bridgeCasing
                        strokePixels += 1.2
                    }
                case .ground:
                    break
                }
            } else {
                color = isThin ? line.thinColor : line.fill
                strokePixels = isThin ? max(0.5, widthPixels) : widthPixels
                dash = isThin && kind == .rail ? [] : line.dashPixels
                if level == .tunnel { color = color.mixed(with: style.land, 0.5) }
            }
            canvas.newPath()
            for f in group { appendPath(f, close: false) }
            canvas.setColor(color)
            canvas.setLineWidth(strokePixels)
            canvas.setDash(dash)
            let roundCaps: Bool
            if case .bridge = level { roundCaps = false } else { roundCaps = dash.isEmpty }
            canvas.setRoundCaps(roundCaps)
            canvas.stroke()
        }
        canvas.setDash([])
        canvas.setRoundCaps(true)
    }
}
