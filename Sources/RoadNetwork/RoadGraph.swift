public import GeoCore
public import BinaryIO

/// One travel mode's road network, frozen: flat columns over a `ColumnSet` (memory or a mapped file).
///
/// Three layers share the columns:
/// - **nodes** (intersections, dead ends, barriers, signals) and undirected **edges** between them,
///   each edge with its shape (`shapeCoordinates`) and its way (name, class, flags);
/// - **arcs**: the usable directions of edges, with free-flow durations; these are the nodes of the
///   turn-expanded graph every search runs on;
/// - **turns**: CSR adjacency between arcs (`turnFirstOut`, `turnTarget`) with the time a turn costs.
///   A turn that a restriction forbids, or a U-turn where none is allowed, simply has no entry.
///
/// Plus a snapping grid and a sorted key of OSM node pairs to arcs for live traffic.
public struct RoadGraph: @unchecked Sendable {
    public let mode: TravelMode
    public let store: ColumnSet

    // Nodes
    public let nodeCoordinates: UnsafeBufferPointer<Coordinate>
    public let nodeOSMIDs: UnsafeBufferPointer<Int64>
    public let nodeFlags: UnsafeBufferPointer<NodeFlags>

    // Edges and their shapes
    public let edgeTail: UnsafeBufferPointer<NodeID>
    public let edgeHead: UnsafeBufferPointer<NodeID>
    public let edgeWay: UnsafeBufferPointer<WayIndex>
    public let edgeLengthCm: UnsafeBufferPointer<UInt32>
    /// `count + 1` offsets into the shape columns; an edge's shape includes both end nodes.
    public let edgeShapeStart: UnsafeBufferPointer<UInt32>
    /// The forward and backward arc of each edge (`2e`, `2e + 1`), `.none` where that direction is not usable.
    public let edgeArcs: UnsafeBufferPointer<ArcID>
    public let shapeCoordinates: UnsafeBufferPointer<Coordinate>
    public let shapeOSMIDs: UnsafeBufferPointer<Int64>

    // Ways
    public let wayOSMIDs: UnsafeBufferPointer<Int64>
    public let wayName: UnsafeBufferPointer<UInt32>
    public let wayRef: UnsafeBufferPointer<UInt32>
    public let wayClass: UnsafeBufferPointer<RoadClass>
    public let wayFlags: UnsafeBufferPointer<WayFlags>
    /// The speed the profile assigned (km/h × 10), per direction: [forward, backward] per way.
    public let waySpeedKmhTimes10: UnsafeBufferPointer<UInt16>
    /// How much of its speed a way is worth when choosing fastest routes, in percent, per direction
    /// ([forward, backward] per way): OSRM car.lua's rate penalties (`RoadGraph.ratePercent`).
    /// Empty for modes without them and for datasets imported before they were read: every way then counts whole.
    public let wayRatePercent: UnsafeBufferPointer<UInt8>
    /// Whether any way counts for less than its speed when choosing fastest routes (found once, at
    /// open: every fastest metric asks, and each live update makes new ones).
    public let hasRatePenalties: Bool

    // Arcs (turn-graph nodes)
    /// `edge << 1 | 1` when the arc runs against the edge's shape.
    public let arcEdge: UnsafeBufferPointer<UInt32>
    public let arcDurationMs: UnsafeBufferPointer<UInt32>
    public let arcFlags: UnsafeBufferPointer<ArcFlags>
    /// The arc a restriction copy stands for; itself for ordinary arcs.
    public let arcOriginal: UnsafeBufferPointer<ArcID>

    // Turns (turn-graph edges)
    public let turnFirstOut: UnsafeBufferPointer<UInt32>
    public let turnTarget: UnsafeBufferPointer<ArcID>
    public let turnDurationMs: UnsafeBufferPointer<UInt32>
    /// The arc each turn leaves from.
    public let turnSource: UnsafeBufferPointer<ArcID>
    /// Turns entering each arc: `turnReverseTurn[turnReverseFirst[a]..<turnReverseFirst[a + 1]]`.
    public let turnReverseFirst: UnsafeBufferPointer<UInt32>
    public let turnReverseTurn: UnsafeBufferPointer<UInt32>

    // Signs (sparse: only ways and nodes that have any, sorted by index)
    /// Ways with a sign record, ascending; `signFields` holds `WaySignRecord.fieldCount` string indices for each.
    public let signWays: UnsafeBufferPointer<UInt32>
    public let signFields: UnsafeBufferPointer<UInt32>
    /// Motorway junction nodes with an exit number or name, ascending, and those strings.
    public let junctionNodes: UnsafeBufferPointer<UInt32>
    public let junctionRefs: UnsafeBufferPointer<UInt32>
    public let junctionNames: UnsafeBufferPointer<UInt32>

    // Strings (names, refs and signs)
    let stringBytes: UnsafeBufferPointer<UInt8>
    let stringOffsets: UnsafeBufferPointer<UInt32>

    // Snapping grid and traffic keys
    public let snapGrid: SnapGrid
    public let segmentKeys: SegmentKeys

    /// Restriction copies of each arc that has any (few: only via-way restrictions make them).
    public let restrictionCopies: [ArcID: [ArcID]]
    /// Whether any way is for private use, destinations or deliveries only (searches then charge entering one).
    public let hasRestrictedAccess: Bool
    /// Turns and arcs open or closed by the time of day (empty in most graphs).
    public let conditionals: ConditionalRules

    public var nodeCount: Int { nodeCoordinates.count }
    public var edgeCount: Int { edgeTail.count }
    public var arcCount: Int { arcEdge.count }
    public var turnCount: Int { turnTarget.count }
    public var wayCount: Int { wayOSMIDs.count }

    public init(mode: TravelMode, store: ColumnSet) throws(ColumnSetError) {
        self.mode = mode
        self.store = store
        let p = mode.rawValue + "."
        nodeCoordinates = try store.column(p + "node.coordinates")
        nodeOSMIDs = try store.column(p + "node.osmIDs")
        nodeFlags = try store.column(p + "node.flags")
        edgeTail = try store.column(p + "edge.tail")
        edgeHead = try store.column(p + "edge.head")
        edgeWay = try store.column(p + "edge.way")
        edgeLengthCm = try store.column(p + "edge.lengthCm")
        edgeShapeStart = try store.column(p + "edge.shapeStart")
        edgeArcs = try store.column(p + "edge.arcs")
        shapeCoordinates = try store.column(p + "shape.coordinates")
        shapeOSMIDs = try store.column(p + "shape.osmIDs")
        wayOSMIDs = try store.column(p + "way.osmIDs")
        wayName = try store.column(p + "way.name")
        wayRef = try store.column(p + "way.ref")
        wayClass = try store.column(p + "way.class")
        wayFlags = try store.column(p + "way.flags")
        waySpeedKmhTimes10 = try store.column(p + "way.speedKmhTimes10")
        wayRatePercent = store.optionalColumn(p + "way.ratePercent")
        hasRatePenalties = wayRatePercent.contains { $0 < 100 }
        arcEdge = try store.column(p + "arc.edge")
        arcDurationMs = try store.column(p + "arc.durationMs")
        arcFlags = try store.column(p + "arc.flags")
        arcOriginal = try store.column(p + "arc.original")
        turnFirstOut = try store.column(p + "turn.firstOut")
        turnTarget = try store.column(p + "turn.target")
        turnDurationMs = try store.column(p + "turn.durationMs")
        turnSource = try store.column(p + "turn.source")
        turnReverseFirst = try store.column(p + "turn.reverseFirst")
        turnReverseTurn = try store.column(p + "turn.reverseTurn")
        // Datasets imported before signs were read have none: guidance then simply shows no signs.
        signWays = store.optionalColumn(p + "sign.way")
        signFields = store.optionalColumn(p + "sign.fields")
        junctionNodes = store.optionalColumn(p + "junction.node")
        junctionRefs = store.optionalColumn(p + "junction.ref")
        junctionNames = store.optionalColumn(p + "junction.name")
        stringBytes = try store.column(p + "string.bytes")
        stringOffsets = try store.column(p + "string.offsets")
        var copies: [ArcID: [ArcID]] = [:]
        let pairs: UnsafeBufferPointer<ArcID> = try store.column(p + "arc.copies")
        for i in stride(from: 0, to: pairs.count - 1, by: 2) { copies[pairs[i], default: []].append(pairs[i + 1]) }
        restrictionCopies = copies
        hasRestrictedAccess = wayFlags.contains { $0.contains(.restrictedAccess) }
        conditionals = try ConditionalRules(store: store, prefix: p, turnCount: turnTarget.count, arcCount: arcEdge.count)
        snapGrid = try SnapGrid(store: store, prefix: p)
        segmentKeys = try SegmentKeys(store: store, prefix: p, shapeOSMIDs: shapeOSMIDs)
        guard edgeShapeStart.count == edgeTail.count + 1, turnFirstOut.count == arcEdge.count + 1,
              edgeArcs.count == 2 * edgeTail.count, Int(turnFirstOut.last ?? 0) == turnTarget.count,
              stringOffsets.count >= 1, signFields.count == signWays.count * WaySignRecord.fieldCount,
              junctionRefs.count == junctionNodes.count, wayRatePercent.isEmpty || wayRatePercent.count == 2 * wayOSMIDs.count, junctionNames.count == junctionNodes.count else {
            throw .damaged(mode.rawValue, "column lengths do not agree")
        }
    }

    // MARK: Arc geometry

    @inlinable public func edge(of arc: ArcID) -> EdgeID { EdgeID(arcEdge[arc.index] >> 1) }
    @inlinable public func isBackward(_ arc: ArcID) -> Bool { arcEdge[arc.index] & 1 == 1 }

    @inlinable public func tail(of arc: ArcID) -> NodeID {
        let e = Int(arcEdge[arc.index] >> 1)
        return arcEdge[arc.index] & 1 == 0 ? edgeTail[e] : edgeHead[e]
    }

    @inlinable public func head(of arc: ArcID) -> NodeID {
        let e = Int(arcEdge[arc.index] >> 1)
        return arcEdge[arc.index] & 1 == 0 ? edgeHead[e] : edgeTail[e]
    }

    @inlinable public func way(of arc: ArcID) -> WayIndex { edgeWay[Int(arcEdge[arc.index] >> 1)] }
    /// Whether the bicycle is pushed along `arc` (walking pace; OSRM's "pushing bike" mode).
    @inlinable public func isPushing(_ arc: ArcID) -> Bool { arcFlags[arc.index].contains(.pushing) }
    @inlinable public func lengthCm(of arc: ArcID) -> UInt32 { edgeLengthCm[Int(arcEdge[arc.index] >> 1)] }

    /// The range of turns leaving `arc`.
    @inlinable public func turns(from arc: ArcID) -> Range<Int> {
        Int(turnFirstOut[arc.index])..<Int(turnFirstOut[arc.index + 1])
    }

    /// The range (into `turnReverseTurn`) of turns entering `arc`.
    @inlinable public func turns(into arc: ArcID) -> Range<Int> {
        Int(turnReverseFirst[arc.index])..<Int(turnReverseFirst[arc.index + 1])
    }

    /// The arc's shape in travel order, both end nodes included.
    public func shape(of arc: ArcID) -> [Coordinate] {
        let e = edge(of: arc).index
        let points = Array(shapeCoordinates[Int(edgeShapeStart[e])..<Int(edgeShapeStart[e + 1])])
        return isBackward(arc) ? points.reversed() : points
    }

    /// The OSM node ids along the arc, in travel order.
    public func shapeOSMIDs(of arc: ArcID) -> [Int64] {
        let e = edge(of: arc).index
        let ids = Array(shapeOSMIDs[Int(edgeShapeStart[e])..<Int(edgeShapeStart[e + 1])])
        return isBackward(arc) ? ids.reversed() : ids
    }

    /// The reverse direction of an arc's edge, when usable.
    public func twin(of arc: ArcID) -> ArcID {
        let code = arcEdge[arc.index]
        return edgeArcs[Int(code ^ 1)]
    }

    // MARK: Names

    public func string(_ index: UInt32) -> String {
        let i = Int(index)
        guard i + 1 < stringOffsets.count else { return "" }
        let range = Int(stringOffsets[i])..<Int(stringOffsets[i + 1])
        return String(decoding: UnsafeBufferPointer(rebasing: stringBytes[range]), as: UTF8.self)
    }

    public func name(of way: WayIndex) -> String { string(wayName[way.index]) }
    public func ref(of way: WayIndex) -> String { string(wayRef[way.index]) }
    public var stringCount: Int { stringOffsets.count - 1 }

    /// The profile speed of a way in one direction, km/h.
    public func speedKmh(of way: WayIndex, backward: Bool) -> Double {
        Double(waySpeedKmhTimes10[way.index * 2 + (backward ? 1 : 0)]) / 10
    }

    /// How much of its speed `arc`'s way is worth in its direction, in percent (100 without a penalty):
    /// a fastest route's weight is the arc's duration divided by this share.
    @inlinable public func ratePercent(of arc: ArcID) -> UInt32 {
        guard !wayRatePercent.isEmpty else { return 100 }
        let r = wayRatePercent[way(of: arc).index * 2 + (isBackward(arc) ? 1 : 0)]
        return r == 0 ? 100 : UInt32(r)
    }
}

/// Facts about a graph node that searches and guidance use.
public struct NodeFlags: OptionSet, Sendable, BitwiseCopyable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let trafficSignals = NodeFlags(rawValue: 1 << 0)
    /// A barrier this mode cannot pass (only a U-turn is possible here).
    public static let barrier = NodeFlags(rawValue: 1 << 1)
    public static let stopSign = NodeFlags(rawValue: 1 << 2)
    public static let tollBooth = NodeFlags(rawValue: 1 << 3)
}
