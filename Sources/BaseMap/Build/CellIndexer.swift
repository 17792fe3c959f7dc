/// Prepares one zoom band: simplifies each feature for the band, then files it under the grid
/// cell it belongs to, cutting features larger than a quarter cell along cell edges.
///
/// Every stored piece therefore reaches at most a quarter cell beyond its own cell, which is how far
/// a query looks into neighbouring cells. Area pieces overlap their neighbours by `overlapUnits`
/// so that antialiasing never shows a seam; line pieces meet exactly.
struct CellIndexer {
    let band: ZoomBand

    struct Piece {
        var cellKey: UInt64
        var draftIndex: Int
        var flags: FeatureFlags
        var parts: [[MercatorPoint]]
    }

    var cellSize: UInt64 { UInt64(1) << UInt64(band.cellShift) }
    var overlapUnits: Double { Double(cellSize >> 6) }

    static func cellKey(_ cx: UInt64, _ cy: UInt64) -> UInt64 { cx << 32 | cy }

    func pieces(_ drafts: [FeatureDraft]) -> [Piece] {
        let unitsPerPixel = MercatorPoint.unitsPerPixel(zoom: band.detailZoom)
        let tolerance = 0.5 * unitsPerPixel
        let minAreaUnits2 = band.maxZoom >= 14 ? 0 : 4 * unitsPerPixel * unitsPerPixel
        var output: [Piece] = []
        for (index, draft) in drafts.enumerated() where band.includes(draft.kind) {
            var parts: [[MercatorPoint]]
            switch draft.kind.geometry {
            case .point:
                parts = draft.parts
            case .line:
                parts = draft.parts.map { Simplifier.simplify($0, toleranceUnits: tolerance) }.filter { $0.count >= 2 }
            case .area:
                parts = draft.parts.map { Simplifier.simplify($0, toleranceUnits: tolerance) }
                    .filter { $0.count >= 4 && abs(RingMath.doubleSignedArea($0)) / 2 > minAreaUnits2 / 4 }
                let largest = parts.reduce(0.0) { max($0, abs(RingMath.doubleSignedArea($1)) / 2) }
                guard largest >= minAreaUnits2 else { continue }
                if !draft.flags.contains(.coastal) { RingMath.normalizeOrientation(&parts) }
            }
            guard !parts.isEmpty else { continue }
            var box = MercatorBox.empty
            for part in parts { for p in part { box.formUnion(p) } }
            let shift = UInt64(band.cellShift)
            let cx0 = UInt64(box.minX) >> shift, cx1 = UInt64(box.maxX) >> shift
            let cy0 = UInt64(box.minY) >> shift, cy1 = UInt64(box.maxY) >> shift
            let quarter = UInt64(cellSize / 4)
            if draft.kind.geometry == .point
                || (UInt64(box.maxX - box.minX) <= quarter && UInt64(box.maxY - box.minY) <= quarter) {
                output.append(Piece(cellKey: Self.cellKey(cx0, cy0), draftIndex: index, flags: draft.flags, parts: parts))
                continue
            }
            let isArea = draft.kind.geometry == .area
            let isCut = cx1 > cx0 || cy1 > cy0
            let flags = isArea && isCut ? draft.flags.union(.clipped) : draft.flags
            split(parts, isArea: isArea, x: cx0...cx1, y: cy0...cy1) { cx, cy, cellParts in
                output.append(Piece(cellKey: Self.cellKey(cx, cy), draftIndex: index, flags: flags, parts: cellParts))
            }
        }
        return output
    }

    /// Halves the cell range along its longer side until one cell is left.
    private func split(_ parts: [[MercatorPoint]], isArea: Bool, x: ClosedRange<UInt64>, y: ClosedRange<UInt64>,
                       emit: (UInt64, UInt64, [[MercatorPoint]]) -> Void) {
        if x.count == 1 && y.count == 1 {
            emit(x.lowerBound, y.lowerBound, parts)
            return
        }
        let alongX = x.count >= y.count
        let range = alongX ? x : y
        let middle = range.lowerBound + UInt64(range.count / 2)
        let edge = Double(middle << UInt64(band.cellShift))
        let overlap = isArea ? overlapUnits : 0
        let axis: HalfPlane.Axis = alongX ? .x : .y
        let lower = HalfPlane(axis: axis, limit: edge + overlap, keepsLower: true)
        let upper = HalfPlane(axis: axis, limit: edge - overlap, keepsLower: false)
        let lowerParts = isArea ? parts.compactMap(lower.clipRing) : parts.flatMap(lower.clipLine)
        let upperParts = isArea ? parts.compactMap(upper.clipRing) : parts.flatMap(upper.clipLine)
        let lowerRange = range.lowerBound...(middle - 1), upperRange = middle...range.upperBound
        if !lowerParts.isEmpty {
            split(lowerParts, isArea: isArea, x: alongX ? lowerRange : x, y: alongX ? y : lowerRange, emit: emit)
        }
        if !upperParts.isEmpty {
            split(upperParts, isArea: isArea, x: alongX ? upperRange : x, y: alongX ? y : upperRange, emit: emit)
        }
    }
}
