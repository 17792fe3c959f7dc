/// A road graph node: an intersection, a dead end, or a point where a way's attributes change.
@frozen
public struct NodeID: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var rawValue: UInt32
    @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public init(_ index: Int) { rawValue = UInt32(index) }
    @inlinable public var index: Int { Int(rawValue) }
    public static let none = NodeID(UInt32.max)
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "n\(rawValue)" }
}

/// An undirected stretch of one way between two graph nodes, with its shape.
@frozen
public struct EdgeID: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var rawValue: UInt32
    @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public init(_ index: Int) { rawValue = UInt32(index) }
    @inlinable public var index: Int { Int(rawValue) }
    public static let none = EdgeID(UInt32.max)
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "e\(rawValue)" }
}

/// A usable direction of an edge: the node of the turn-expanded (edge-based) graph that every
/// search runs on, so turn restrictions and turn costs are exact.
///
/// Arcs past the originals are copies made for via-way turn restrictions; `RoadGraph.arcOriginal`
/// maps them back.
@frozen
public struct ArcID: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var rawValue: UInt32
    @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public init(_ index: Int) { rawValue = UInt32(index) }
    @inlinable public var index: Int { Int(rawValue) }
    public static let none = ArcID(UInt32.max)
    @inlinable public var isNone: Bool { rawValue == UInt32.max }
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "a\(rawValue)" }
}

/// An allowed move from one arc into the next (an edge of the turn-expanded graph).
@frozen
public struct TurnID: Hashable, Comparable, Sendable, BitwiseCopyable {
    public var rawValue: UInt32
    @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public init(_ index: Int) { rawValue = UInt32(index) }
    @inlinable public var index: Int { Int(rawValue) }
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The way a graph edge comes from (its name, class and flags), dense per graph.
@frozen
public struct WayIndex: Hashable, Sendable, BitwiseCopyable {
    public var rawValue: UInt32
    @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public var index: Int { Int(rawValue) }
}
