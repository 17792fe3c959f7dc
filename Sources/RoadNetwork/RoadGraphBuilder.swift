public import GeoCore
public import BinaryIO

/// The mutable form of a `RoadGraph`: the extractor fills these arrays, `freeze` derives the
/// snapping grid and traffic keys and turns everything into columns.
public struct RoadGraphBuilder {
    public var mode: TravelMode
    public var nodeCoordinates: [Coordinate] = []
    public var nodeOSMIDs: [Int64] = []
    public var nodeFlags: [NodeFlags] = []
    public var edgeTail: [NodeID] = []
    public var edgeHead: [NodeID] = []
    public var edgeWay: [WayIndex] = []
    public var edgeLengthCm: [UInt32] = []
    public var edgeShapeStart: [UInt32] = [0]
    public var edgeArcs: [ArcID] = []
    public var shapeCoordinates: [Coordinate] = []
    public var shapeOSMIDs: [Int64] = []
    public var wayOSMIDs: [Int64] = []
    public var wayName: [UInt32] = []
    public var wayRef: [UInt32] = []
    public var wayClass: [RoadClass] = []
    public var wayFlags: [WayFlags] = []
    public var waySpeedKmhTimes10: [UInt16] = []
    /// [forward, backward] per way, percent (`RoadGraph.wayRatePercent`).
    public var wayRatePercent: [UInt8] = []
    public var arcEdge: [UInt32] = []
    public var arcDurationMs: [UInt32] = []
    public var arcFlags: [ArcFlags] = []
    public var arcOriginal: [ArcID] = []
    public var turnFirstOut: [UInt32] = [0]
    public var turnTarget: [ArcID] = []
    public var turnDurationMs: [UInt32] = []
    public var strings: [String] = [""]
    /// Ways with signs (ascending) and their records.
    public var signWays: [UInt32] = []
    public var signRecords: [WaySignRecord] = []
    /// Motorway junction nodes with their exit number and name (any order; sorted when frozen).
    public var junctions: [(node: NodeID, ref: UInt32, name: UInt32)] = []
    /// Time-dependent rules (`ConditionalRules`): turns by index into the finished turn lists, arcs,
    /// and the schedules' text they index.
    public var conditionalTurns: [(turn: UInt32, schedule: UInt32)] = []
    public var conditionalArcs: [(arc: UInt32, schedule: UInt32, rule: ConditionalRules.ArcRule)] = []
    public var conditionalSchedules: [String] = []

    public init(mode: TravelMode) { self.mode = mode }

    /// Adds this graph's columns (prefixed with the mode) to `out`.
    public func freeze(into out: inout some ColumnSink) {
        let p = mode.rawValue + "."
        out.add(p + "node.coordinates", nodeCoordinates)
        out.add(p + "node.osmIDs", nodeOSMIDs)
        out.add(p + "node.flags", nodeFlags)
        out.add(p + "edge.tail", edgeTail)
        out.add(p + "edge.head", edgeHead)
        out.add(p + "edge.way", edgeWay)
        out.add(p + "edge.lengthCm", edgeLengthCm)
        out.add(p + "edge.shapeStart", edgeShapeStart)
        out.add(p + "edge.arcs", edgeArcs)
        out.add(p + "shape.coordinates", shapeCoordinates)
        out.add(p + "shape.osmIDs", shapeOSMIDs)
        out.add(p + "way.osmIDs", wayOSMIDs)
        out.add(p + "way.name", wayName)
        out.add(p + "way.ref", wayRef)
        out.add(p + "way.class", wayClass)
        out.add(p + "way.flags", wayFlags)
        out.add(p + "way.speedKmhTimes10", waySpeedKmhTimes10)
        if !wayRatePercent.isEmpty { out.add(p + "way.ratePercent", wayRatePercent) }
        out.add(p + "arc.edge", arcEdge)
        out.add(p + "arc.durationMs", arcDurationMs)
        out.add(p + "arc.flags", arcFlags)
        out.add(p + "arc.original", arcOriginal)
        // The few restriction copies as (original, copy) pairs, so that opening a graph need not
        // read every arc to find them.
        var copies: [ArcID] = []
        for a in 0..<arcOriginal.count where arcOriginal[a].index != a { copies += [arcOriginal[a], ArcID(a)] }
        out.add(p + "arc.copies", copies)
        out.add(p + "turn.firstOut", turnFirstOut)
        out.add(p + "turn.target", turnTarget)
        out.add(p + "turn.durationMs", turnDurationMs)
        // Reverse adjacency (turns entering each arc) for backward searches.
        var source = [ArcID](repeating: .none, count: turnTarget.count)
        var reverseFirst = [UInt32](repeating: 0, count: arcEdge.count + 1)
        for a in 0..<arcEdge.count {
            for t in Int(turnFirstOut[a])..<Int(turnFirstOut[a + 1]) {
                source[t] = ArcID(a)
                reverseFirst[turnTarget[t].index + 1] += 1
            }
        }
        for a in 0..<arcEdge.count { reverseFirst[a + 1] += reverseFirst[a] }
        var fill = reverseFirst
        var reverseTurn = [UInt32](repeating: 0, count: turnTarget.count)
        for t in 0..<turnTarget.count {
            let b = turnTarget[t].index
            reverseTurn[Int(fill[b])] = UInt32(t)
            fill[b] += 1
        }
        out.add(p + "turn.source", source)
        out.add(p + "turn.reverseFirst", reverseFirst)
        out.add(p + "turn.reverseTurn", reverseTurn)
        var bytes: [UInt8] = []
        var offsets: [UInt32] = [0]
        for s in strings {
            bytes.append(contentsOf: s.utf8)
            offsets.append(UInt32(bytes.count))
        }
        out.add(p + "sign.way", signWays)
        out.add(p + "sign.fields", signRecords.flatMap(\.fields))
        let sortedJunctions = junctions.sorted { $0.node < $1.node }
        out.add(p + "junction.node", sortedJunctions.map { UInt32($0.node.index) })
        out.add(p + "junction.ref", sortedJunctions.map(\.ref))
        out.add(p + "junction.name", sortedJunctions.map(\.name))
        ConditionalRules.columns(turns: conditionalTurns, arcs: conditionalArcs, scheduleTexts: conditionalSchedules, into: &out, prefix: p)
        out.add(p + "string.bytes", bytes)
        out.add(p + "string.offsets", offsets)
        SnapGrid.columns(shape: shapeCoordinates, edgeShapeStart: edgeShapeStart, into: &out, prefix: p)
        SegmentKeys.columns(arcEdge: arcEdge, arcOriginal: arcOriginal, edgeShapeStart: edgeShapeStart, shapeOSMIDs: shapeOSMIDs,
                            segmentLengthCm: segmentLengthsCm(), into: &out, prefix: p)
    }

    /// Metres × 100 from each shape point to the next one of its edge (0 at an edge's last point).
    private func segmentLengthsCm() -> [UInt32] {
        var lengths = [UInt32](repeating: 0, count: shapeCoordinates.count)
        for e in 0..<edgeTail.count {
            for i in Int(edgeShapeStart[e])..<(Int(edgeShapeStart[e + 1]) - 1) {
                let cm = (Geodesy.distanceMeters(shapeCoordinates[i], shapeCoordinates[i + 1]) * 100).rounded()
                lengths[i] = UInt32(min(Double(UInt32.max), cm))
            }
        }
        return lengths
    }

    /// Freezes this graph alone in memory (for tests and drawn maps).
    public func build() -> RoadGraph {
        var out = ColumnSetBuilder()
        freeze(into: &out)
        // The columns were just written by `freeze`, so reading them back cannot fail.
        return try! RoadGraph(mode: mode, store: out.freeze())
    }
}
