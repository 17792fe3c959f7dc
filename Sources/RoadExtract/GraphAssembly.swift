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
            if count[n] >= 2 || bits & blockBit != 0 || (signals && bits & Extractor.signalBit != 0) {
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
            // A tagged ferry duration is shared out over the pieces by length.
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

    // MARK: Components

    /// Flags arcs outside the largest strongly connected component when their component is small
    /// (fewer than 1000 arcs, as OSRM's limit, and less than half the largest), so snapping avoids
    /// dead pockets; in a map with no large component nothing is flagged. A route never passes
    /// through roads of restricted access (`RestrictedPassage`), so the pieces are those of the
    /// network without them, and a run of such roads belongs to the large part when a route can
    /// both enter it from there and leave it back there (a private court off a public street);
    /// a village whose only way out is a destination-only road is a small piece. Open road
    /// reached only from a run and leading on to open road is part of the run (`restrictedPockets`).
    private mutating func flagSmallComponents() {
        let arcCount = b.arcEdge.count
        let restrictedWays = b.wayFlags.map { $0.contains(.restrictedAccess) }
        var restricted = (0..<arcCount).map { restrictedWays[b.edgeWay[Int(b.arcEdge[$0] >> 1)].index] }
        let open = { (a: Int) in !restricted[a] }
        let usesOpenPieces = restricted.contains(true) && restricted.contains(false)
        var firstOut: [UInt32] = [0]
        var target: [ArcID] = []
        if usesOpenPieces {
            for a in 0..<arcCount {
                if open(a) {
                    for t in Int(b.turnFirstOut[a])..<Int(b.turnFirstOut[a + 1]) where open(b.turnTarget[t].index) { target.append(b.turnTarget[t]) }
                }
                firstOut.append(UInt32(target.count))
            }
        }
        let components = usesOpenPieces ? StronglyConnectedComponents(firstOut: firstOut, target: target)
            : StronglyConnectedComponents(firstOut: b.turnFirstOut, target: b.turnTarget)
        let pieces = ComponentSizes(components, counting: usesOpenPieces ? open : { _ in true })
        if usesOpenPieces {
            let area = restrictedPockets(restricted, components.component, pieces.largest)
            for a in 0..<arcCount where area[a] && !restricted[a] { b.arcFlags[a].insert(.restrictedPocket) }
            restricted = area
        }
        let inLargeRun = usesOpenPieces ? restrictedRunsOfLargePart(restricted, components.component, pieces.largest) : []
        for a in 0..<arcCount {
            if usesOpenPieces && restricted[a] {
                if inLargeRun[a] { b.arcFlags[a].insert(.largestComponent) } else { b.arcFlags[a].insert(.smallComponent) }
                continue
            }
            let c = Int(components.component[a])
            if c == pieces.largest { b.arcFlags[a].insert(.largestComponent) }
            if pieces.isSmall(c) { b.arcFlags[a].insert(.smallComponent) }
        }
    }

    /// Restricted arcs whose run (restricted roads joined by turns, either way) a route can enter
    /// from the open component `largest` and leave back into it.
    private func restrictedRunsOfLargePart(_ restricted: [Bool], _ component: [Int32], _ largest: Int) -> [Bool] {
        let n = restricted.count
        var parent = Array(0..<n)
        func root(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        func join(_ a: Int, _ v: Int) {
            let (x, y) = (root(a), root(v))
            if x != y { parent[x] = y }
        }
        // Both directions of a road are one run, and so are roads a turn joins.
        var firstArcOfEdge: [UInt32: Int] = [:]
        for a in 0..<n where restricted[a] {
            if let other = firstArcOfEdge[b.arcEdge[a] >> 1] { join(a, other) } else { firstArcOfEdge[b.arcEdge[a] >> 1] = a }
            for t in Int(b.turnFirstOut[a])..<Int(b.turnFirstOut[a + 1]) where restricted[b.turnTarget[t].index] { join(a, b.turnTarget[t].index) }
        }
        var entered = Set<Int>(), left = Set<Int>()
        for a in 0..<n {
            let aLarge = !restricted[a] && Int(component[a]) == largest
            for t in Int(b.turnFirstOut[a])..<Int(b.turnFirstOut[a + 1]) {
                let v = b.turnTarget[t].index
                if aLarge && restricted[v] { entered.insert(root(v)) }
                if restricted[a] && !restricted[v] && Int(component[v]) == largest { left.insert(root(a)) }
            }
        }
        return (0..<n).map { restricted[$0] && entered.contains(root($0)) && left.contains(root($0)) }
    }

    /// Flags arcs of the large part that are small pieces once ferries are taken away (a pier
    /// road across the water, an islet): the network reaches them only by ferry, so snapping
    /// prefers a road of the large land part when one is about as near.
    private mutating func flagFerryOnlyPieces() {
        let ferryWays = b.wayFlags.map { $0.contains(.ferry) }
        guard ferryWays.contains(true) else { return }
        let isFerry = (0..<b.arcEdge.count).map { ferryWays[b.edgeWay[Int(b.arcEdge[$0] >> 1)].index] }
        var firstOut: [UInt32] = [0]
        var target: [ArcID] = []
        for a in 0..<b.arcEdge.count {
            if !isFerry[a] {
                for t in Int(b.turnFirstOut[a])..<Int(b.turnFirstOut[a + 1]) where !isFerry[b.turnTarget[t].index] {
                    target.append(b.turnTarget[t])
                }
            }
            firstOut.append(UInt32(target.count))
        }
        let components = StronglyConnectedComponents(firstOut: firstOut, target: target)
        let pieces = ComponentSizes(components, counting: { !isFerry[$0] })
        for a in 0..<b.arcEdge.count where !isFerry[a] && !b.arcFlags[a].contains(.smallComponent) {
            if pieces.isSmall(Int(components.component[a])) { b.arcFlags[a].insert(.ferryOnlyPiece) }
        }
    }
}

/// The arcs in each strongly connected component, and which components are small: fewer than 1000
/// arcs (OSRM's limit) and less than half the largest.
private struct ComponentSizes {
    let sizes: [Int]
    let largest: Int
    let threshold: Int

    init(_ components: StronglyConnectedComponents, counting counts: (Int) -> Bool) {
        var sizes = [Int](repeating: 0, count: components.count)
        for a in components.component.indices where counts(a) { sizes[Int(components.component[a])] += 1 }
        self.sizes = sizes
        largest = sizes.indices.max { sizes[$0] < sizes[$1] } ?? 0
        threshold = min(1000, (sizes.isEmpty ? 0 : sizes[largest]) / 2)
    }

    func isSmall(_ component: Int) -> Bool { component != largest && sizes[component] < threshold }
}
