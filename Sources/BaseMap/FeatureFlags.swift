/// Per-feature attributes stored as one byte.
@frozen
public struct FeatureFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8

    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bridge = FeatureFlags(rawValue: 1 << 0)
    public static let tunnel = FeatureFlags(rawValue: 1 << 1)
    /// Traffic may only go in the direction of the points.
    public static let oneway = FeatureFlags(rawValue: 1 << 2)
    /// A `_link` road (ramp, slip road): drawn narrower than its class.
    public static let link = FeatureFlags(rawValue: 1 << 3)
    /// An area piece cut from a larger polygon along a grid cell: its outline is not a real edge.
    public static let clipped = FeatureFlags(rawValue: 1 << 4)
    /// A lesser member of its class: railway sidings and yards, parking aisles and driveways.
    public static let minor = FeatureFlags(rawValue: 1 << 6)
    /// Rings keep the coastline's own orientation (water on the right) rather than a normalized one.
    public static let coastal = FeatureFlags(rawValue: 1 << 5)
}
