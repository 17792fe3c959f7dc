public import BaseMap

/// A label drawn on a tile, reported for tests and diagnostics.
public struct PlacedLabel: Sendable, Equatable {
    public var text: String
    public var kind: BaseMapKind
    /// Centre of the label in tile pixels.
    public var centerX: Double
    public var centerY: Double
}
