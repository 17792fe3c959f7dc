/// A range of zooms served by one copy of the geometry, simplified for the band's most detailed
/// zoom and indexed by a grid of cells (tiles of `cellZoom`).
public struct ZoomBand: Hashable, Sendable, CustomStringConvertible {
    public var minZoom: Int
    public var maxZoom: Int
    public var cellZoom: Int
    /// Geometry is simplified to half a pixel at this zoom.
    public var detailZoom: Int

    public init(minZoom: Int, maxZoom: Int, cellZoom: Int, detailZoom: Int) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.cellZoom = cellZoom
        self.detailZoom = detailZoom
    }

    /// Low zooms (countries, regions), town zooms, street zooms.
    public static let standard: [ZoomBand] = [
        ZoomBand(minZoom: 0, maxZoom: 10, cellZoom: 8, detailZoom: 10),
        ZoomBand(minZoom: 11, maxZoom: 13, cellZoom: 11, detailZoom: 13),
        ZoomBand(minZoom: 14, maxZoom: 22, cellZoom: 14, detailZoom: 19),
    ]

    /// log2 of the cell size in world units.
    public var cellShift: UInt32 { UInt32(32 - cellZoom) }

    public func includes(_ kind: BaseMapKind) -> Bool {
        if kind == .building { return minZoom >= 14 }
        return kind.minZoom <= maxZoom
    }

    /// "minZoom-maxZoom@cellZoom/detailZoom", as stored in the file's metadata.
    public var description: String { "\(minZoom)-\(maxZoom)@\(cellZoom)/\(detailZoom)" }

    public init?(parsing text: Substring) {
        let zooms = text.split(whereSeparator: { $0 == "-" || $0 == "@" || $0 == "/" }).compactMap { Int($0) }
        guard zooms.count == 4, zooms.allSatisfy({ (0...24).contains($0) }), zooms[0] <= zooms[1] else { return nil }
        self.init(minZoom: zooms[0], maxZoom: zooms[1], cellZoom: zooms[2], detailZoom: zooms[3])
    }
}
