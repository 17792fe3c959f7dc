/// A stored feature piece: dense 0..<featureCount within one base-map file.
@frozen
public struct BaseMapFeatureID: Hashable, Comparable, Sendable {
    public var rawValue: UInt32

    @inlinable
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    @inlinable
    public var index: Int { Int(rawValue) }

    @inlinable
    public static func < (a: BaseMapFeatureID, b: BaseMapFeatureID) -> Bool { a.rawValue < b.rawValue }
}
