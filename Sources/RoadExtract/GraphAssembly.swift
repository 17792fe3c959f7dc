import RoadNetwork
import GeoCore

/// Builds one profile's graph from the extractor's ways and nodes: splits ways into edges at
/// intersections, makes arcs with free-flow durations, generates every allowed turn with its
/// cost, applies turn restrictions (copying arcs for via-way restrictions), and flags arcs outside
/// the main strongly connected part.
struct GraphAssembly {
    let x: Extractor
    let p: Int
    let profile: Profile
    var b: RoadGraphBuilder
    var graphNodeOf: [Int32]
    var extractorNodeOf: [Int32] = []
    var graphWayOf: [Int32]
    var extractorWayOf: [Int32] = []
    let blockBit: UInt8
    var skippedRestrictions = 0
    /// Conditional schedules by text, as indices into `b.conditionalSchedules`.
    var scheduleIndex: [String: UInt32] = [:]
    /// Turns a conditional restriction forbids during its schedule, found before the turn lists are final.
    var conditionalMoves: [(from: ArcID, to: ArcID, schedule: UInt32)] = []

    init(extractor: Extractor, profileIndex: Int) {
        x = extractor
        p = profileIndex
        profile = extractor.profiles[profileIndex]
        b = RoadGraphBuilder(mode: profile.mode)
        graphNodeOf = Array(repeating: -1, count: extractor.nodeIDs.count)
        graphWayOf = Array(repeating: -1, count: extractor.wayOSMIDs.count)
        blockBit = 1 << UInt8(profileIndex)
    }

    mutating func build() -> RoadGraphBuilder {
        b.strings = x.strings
        markGraphNodes()
        splitWays()
        let adjacency = Adjacency(b: b)
        var turns = makeTurns(adjacency)
        applyViaWayRestrictions(&turns, adjacency)
        turns.finish(into: &b)
        resolveConditionalTurns()
        flagSmallComponents()
        flagFerryOnlyPieces()
        return b
    }

    // MARK: Nodes

    private mutating func markGraphNodes() {
        var count = [UInt8](repeating: 0, count: x.nodeIDs.count)
        let verdicts = x.verdicts[p]
        for w in 0..<x.wayOSMIDs.count where verdicts[w] != nil {
            let range = x.wayRefOffsets[w]..<x.wayRefOffsets[w + 1]
            for k in range {
                let n = Int(x.wayRefNode[k])
                guard n >= 0 else { continue }
                let add: UInt8 = (k == range.lowerBound || k == range.upperBound - 1) ? 2 : 1
                count[n] = count[n] > 200 ? count[n] : count[n] + add
            }
        }
        let signals = profile.turnCosts.trafficSignalSeconds > 0
        for n in 0..<count.count where count[n] > 0 {
            let bits = x.nodeBits[n]
            if count[n] >= 2 || bits & blockBit != 0 || (signals && bits & Extractor.signalBit != 0)
                || x.nodeBarrierSeconds[Int32(n)].map({ $0[p] > 0 }) == true || keepsYieldSign(n) {
                _ = ensureNode(n)
            }
        }
    }

    private mutating func ensureNode(_ n: Int) -> NodeID {
        if graphNodeOf[n] >= 0 { return NodeID(UInt32(graphNodeOf[n])) }
        let id = NodeID(b.nodeCoordinates.count)
        graphNodeOf[n] = Int32(id.index)
        extractorNodeOf.append(Int32(n))
        b.nodeCoordinates.append(x.nodeCoordinates[n])
        b.nodeOSMIDs.append(x.nodeIDs[n])
        var flags: NodeFlags = []
        if x.nodeBits[n] & Extractor.signalBit != 0 && profile.turnCosts.trafficSignalSeconds > 0 { flags.insert(.trafficSignals) }
        if x.nodeBits[n] & blockBit != 0 { flags.insert(.barrier) }
        if x.nodeStopSign[n] { flags.insert(.stopSign) }
        b.nodeFlags.append(flags)
        if let j = x.nodeJunctions[Int32(n)] { b.junctions.append((id, j.ref, j.name)) }
        return id
    }

    private mutating func ensureWay(_ w: Int, _ verdict: WayVerdict) -> WayIndex {
        if graphWayOf[w] >= 0 { return WayIndex(UInt32(graphWayOf[w])) }
        let id = WayIndex(UInt32(b.wayOSMIDs.count))
        graphWayOf[w] = Int32(id.index)
        extractorWayOf.append(Int32(w))
        b.wayOSMIDs.append(x.wayOSMIDs[w])
        b.wayName.append(x.wayName[w])
        b.wayRef.append(x.wayRef[w])
        if let signs = x.waySigns[Int32(w)] {
            b.signWays.append(id.rawValue)
            b.signRecords.append(signs)
        }
        b.wayClass.append(verdict.roadClass)
        b.wayFlags.append(verdict.flags)
        b.waySpeedKmhTimes10.append(UInt16(min(65_000, (verdict.forwardSpeedKmh * 10).rounded())))
        b.waySpeedKmhTimes10.append(UInt16(min(65_000, (verdict.backwardSpeedKmh * 10).rounded())))
        b.wayRatePercent.append(verdict.forwardRatePercent)
        b.wayRatePercent.append(verdict.backwardRatePercent)
        return id
    }

    // MARK: Edges and arcs

    private mutating func splitWays() {
        let verdicts = x.verdicts[p]
        var piece: [Int] = []
        var wayEdges: [Int] = []
        for w in 0..<x.wayOSMIDs.count {
            guard let verdict = verdicts[w] else { continue }
            let range = x.wayRefOffsets[w]..<x.wayRefOffsets[w + 1]
            piece.removeAll(keepingCapacity: true)
            wayEdges.removeAll(keepingCapacity: true)
            for k in range {
                let n = Int(x.wayRefNode[k])
                if n < 0 {
                    // A node outside the extract: end the piece at the last node we have.
                    if piece.count >= 2 { closePiece(&piece, w, verdict, &wayEdges) }
                    piece.removeAll(keepingCapacity: true)
                    continue
                }
                if piece.last == n { continue }
                piece.append(n)
                if piece.count == 1 {
                    _ = ensureNode(n)
                } else if graphNodeOf[n] >= 0 || k == range.upperBound - 1 {
                    closePiece(&piece, w, verdict, &wayEdges)
                    piece = [n]
                }
            }
            if piece.count >= 2 { closePiece(&piece, w, verdict, &wayEdges) }
            // A tagged duration (a ferry's, a movable bridge's) is shared out over the pieces by length.
            if let seconds = verdict.durationSeconds, !wayEdges.isEmpty {
                let total = wayEdges.reduce(0.0) { $0 + Double(b.edgeLengthCm[$1]) }
                for e in wayEdges {
                    let ms = UInt32((seconds * 1000 * Double(b.edgeLengthCm[e]) / max(1, total)).rounded())
                    for arc in [b.edgeArcs[2 * e], b.edgeArcs[2 * e + 1]] where !arc.isNone { b.arcDurationMs[arc.index] = ms }
                }
            }
        }
    }

    private mutating func closePiece(_ piece: inout [Int], _ w: Int, _ verdict: WayVerdict, _ wayEdges: inout [Int]) {
        let last = piece[piece.count - 1]
        _ = ensureNode(last)
        if graphNodeOf[piece[0]] == graphNodeOf[last] {
            // A loop back to its own start: split it in the middle so every edge joins two nodes.
            guard piece.count >= 3 else { return }
            let middle = piece.count / 2
            _ = ensureNode(piece[middle])
            emitEdge(Array(piece[...middle]), w, verdict, &wayEdges)
            emitEdge(Array(piece[middle...]), w, verdict, &wayEdges)
        } else {
            emitEdge(piece, w, verdict, &wayEdges)
        }
    }

    private mutating func emitEdge(_ points: [Int], _ w: Int, _ verdict: WayVerdict, _ wayEdges: inout [Int]) {
        let e = b.edgeTail.count
        let way = ensureWay(w, verdict)
        var meters = 0.0
        for i in 0..<(points.count - 1) {
            meters += Geodesy.distanceMeters(x.nodeCoordinates[points[i]], x.nodeCoordinates[points[i + 1]])
        }
        let lengthCm = UInt32(max(1, (meters * 100).rounded()))
        b.edgeTail.append(NodeID(UInt32(graphNodeOf[points[0]])))
        b.edgeHead.append(NodeID(UInt32(graphNodeOf[points[points.count - 1]])))
        b.edgeWay.append(way)
        b.edgeLengthCm.append(lengthCm)
        for n in points {
            b.shapeCoordinates.append(x.nodeCoordinates[n])
            b.shapeOSMIDs.append(x.nodeIDs[n])
        }
        b.edgeShapeStart.append(UInt32(b.shapeCoordinates.count))
        for (speed, backward, pushing) in [(verdict.forwardSpeedKmh, false, verdict.forwardPushing),
                                           (verdict.backwardSpeedKmh, true, verdict.backwardPushing)] {
            guard speed > 0 else {
                b.edgeArcs.append(.none)
                continue
            }
            let arc = ArcID(b.arcEdge.count)
            b.edgeArcs.append(arc)
            b.arcEdge.append(UInt32(e) << 1 | (backward ? 1 : 0))
            b.arcDurationMs.append(UInt32(((meters / (speed / 3.6) + verdict.penaltySeconds) * 1000).rounded()))
            b.arcFlags.append(pushing ? [.pushing] : [])
            b.arcOriginal.append(arc)
            if let condition = backward ? verdict.backwardCondition : verdict.forwardCondition {
                b.conditionalArcs.append((arc.rawValue, schedule(condition.schedule), condition.rule))
            }
        }
        wayEdges.append(e)
    }

    // MARK: Conditional rules

    /// The index of a schedule's text in the graph's list, added on first use.
    mutating func schedule(_ text: String) -> UInt32 {
        if let i = scheduleIndex[text] { return i }
        let i = UInt32(b.conditionalSchedules.count)
        b.conditionalSchedules.append(text)
        scheduleIndex[text] = i
        return i
    }

    /// The conditional moves as turn indices of the finished lists (the arc's restriction copies,
    /// which inherit its turns, too).
    private mutating func resolveConditionalTurns() {
        guard !conditionalMoves.isEmpty else { return }  // most extracts: no pass over the arcs
        var copies: [ArcID: [ArcID]] = [:]
        for a in 0..<b.arcOriginal.count where b.arcOriginal[a].index != a { copies[b.arcOriginal[a], default: []].append(ArcID(a)) }
        for move in conditionalMoves {
            for from in [move.from] + (copies[move.from] ?? []) {
                for t in Int(b.turnFirstOut[from.index])..<Int(b.turnFirstOut[from.index + 1])
                where b.arcOriginal[b.turnTarget[t].index] == move.to {
                    b.conditionalTurns.append((UInt32(t), move.schedule))
                }
            }
        }
    }
}
