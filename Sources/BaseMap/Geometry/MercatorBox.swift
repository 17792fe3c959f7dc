public import GeoCore

/// An axis-aligned box in `MercatorPoint` units, inclusive on every side.
@frozen
public struct MercatorBox: Hashable, Sendable {
    public var minX: UInt32
    public var minY: UInt32
    public var maxX: UInt32
    public var maxY: UInt32

    @inlinable
    public init(minX: UInt32, minY: UInt32, maxX: UInt32, maxY: UInt32) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public static let empty = MercatorBox(minX: .max, minY: .max, maxX: 0, maxY: 0)

    @inlinable
    public var isEmpty: Bool { minX > maxX || minY > maxY }

    @inlinable
    public mutating func formUnion(_ p: MercatorPoint) {
        minX = Swift.min(minX, p.x)
        minY = Swift.min(minY, p.y)
        maxX = Swift.max(maxX, p.x)
        maxY = Swift.max(maxY, p.y)
    }

    @inlinable
    public func intersects(_ other: MercatorBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    @inlinable
    public func contains(_ p: MercatorPoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// The box grown by `units` on every side, clamped to the world.
    @inlinable
    public func expanded(by units: UInt32) -> MercatorBox {
        MercatorBox(minX: minX > units ? minX - units : 0, minY: minY > units ? minY - units : 0,
                    maxX: maxX < .max - units ? maxX + units : .max, maxY: maxY < .max - units ? maxY + units : .max)
    }

    /// The box covered by a slippy-map tile.
    public init(tile: TileID) {
        let shift = UInt64(32 - tile.zoom)
        let x0 = UInt64(tile.x) << shift, y0 = UInt64(tile.y) << shift
        let size = UInt64(1) << shift
        self.init(minX: UInt32(x0), minY: UInt32(y0),
                  maxX: UInt32(min(x0 + size - 1, UInt64(UInt32.max))), maxY: UInt32(min(y0 + size - 1, UInt64(UInt32.max))))
    }

    public init(_ box: BoundingBox) {
        let sw = MercatorPoint(box.southWest), ne = MercatorPoint(box.northEast)
        self.init(minX: sw.x, minY: ne.y, maxX: ne.x, maxY: sw.y)
    }

    public var boundingBox: BoundingBox {
        var result = BoundingBox.empty
        guard !isEmpty else { return result }
        result.formUnion(MercatorPoint(x: minX, y: minY).coordinate)
        result.formUnion(MercatorPoint(x: maxX, y: maxY).coordinate)
        return result
    }
}
