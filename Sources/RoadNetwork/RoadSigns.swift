/// What the signs along a road say, as OpenStreetMap tags them on the way: where it leads
/// (`destination`, `destination:ref`, `destination:street`), the exit number of a ramp
/// (`junction:ref`) and the lanes painted before a junction (`turn:lanes`), for one direction.
public struct RoadSigns: Sendable, Equatable {
    /// Places the road leads to, in sign order (`destination=Darmstadt;Frankfurt`).
    public var destinations: [String] = []
    /// Road numbers it leads to (`destination:ref=A 5;A 67`).
    public var destinationRefs: [String] = []
    /// A street it leads to (`destination:street`).
    public var destinationStreet: String = ""
    /// The exit number a ramp is signed with (`junction:ref`).
    public var exitNumber: String = ""
    /// `turn:lanes` as tagged (`left|through;right|right`), left to right in the driving direction.
    public var turnLanes: String = ""

    public init() {}

    public var isEmpty: Bool {
        destinations.isEmpty && destinationRefs.isEmpty && destinationStreet.isEmpty && exitNumber.isEmpty && turnLanes.isEmpty
    }
}

/// The raw sign strings of one way, as interned string indices, for both directions: the sparse
/// `sign.*` columns of a graph hold one such record per way that has any.
public struct WaySignRecord: Sendable, Equatable {
    public static let fieldCount = 8
    public var destinationForward: UInt32 = 0, destinationBackward: UInt32 = 0
    public var destinationRefForward: UInt32 = 0, destinationRefBackward: UInt32 = 0
    public var destinationStreet: UInt32 = 0, junctionRef: UInt32 = 0
    public var turnLanesForward: UInt32 = 0, turnLanesBackward: UInt32 = 0

    public init() {}

    public var isEmpty: Bool { fields.allSatisfy { $0 == 0 } }

    public var fields: [UInt32] {
        [destinationForward, destinationBackward, destinationRefForward, destinationRefBackward,
         destinationStreet, junctionRef, turnLanesForward, turnLanesBackward]
    }

    init(fields f: UnsafeBufferPointer<UInt32>, at i: Int) {
        let b = i * Self.fieldCount
        destinationForward = f[b]; destinationBackward = f[b + 1]
        destinationRefForward = f[b + 2]; destinationRefBackward = f[b + 3]
        destinationStreet = f[b + 4]; junctionRef = f[b + 5]
        turnLanesForward = f[b + 6]; turnLanesBackward = f[b + 7]
    }
}

/// The signed number and name of a motorway exit (`highway=motorway_junction` with `ref`/`name`).
public struct JunctionSign: Sendable, Equatable {
    public var ref: String
    public var name: String
}

extension RoadGraph {
    /// What the signs of `arc`'s way say in the arc's direction; empty when the way has none.
    public func signs(of arc: ArcID) -> RoadSigns {
        let way = self.way(of: arc).index
        guard let i = Self.lowerBound(signWays, UInt32(way)), signWays[i] == UInt32(way) else { return RoadSigns() }
        let r = WaySignRecord(fields: signFields, at: i)
        let backward = isBackward(arc)
        var s = RoadSigns()
        s.destinations = Self.list(string(backward ? r.destinationBackward : r.destinationForward))
        s.destinationRefs = Self.list(string(backward ? r.destinationRefBackward : r.destinationRefForward))
        s.destinationStreet = string(r.destinationStreet)
        s.exitNumber = string(r.junctionRef)
        s.turnLanes = string(backward ? r.turnLanesBackward : r.turnLanesForward)
        return s
    }

    /// The exit sign at a node (a motorway junction), if it has one.
    public func junctionSign(at node: NodeID) -> JunctionSign? {
        guard let i = Self.lowerBound(junctionNodes, UInt32(node.index)), junctionNodes[i] == UInt32(node.index) else { return nil }
        return JunctionSign(ref: string(junctionRefs[i]), name: string(junctionNames[i]))
    }

    /// `a;b; c` as ["a", "b", "c"].
    static func list(_ text: String) -> [String] {
        text.split(separator: ";").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// Index of the first element ≥ `value`, nil past the end.
    static func lowerBound(_ column: UnsafeBufferPointer<UInt32>, _ value: UInt32) -> Int? {
        var lo = 0, hi = column.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if column[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo < column.count ? lo : nil
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
