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
        flagSmallComponents()
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
        for (speed, backward) in [(verdict.forwardSpeedKmh, false), (verdict.backwardSpeedKmh, true)] {
            guard speed > 0 else {
                b.edgeArcs.append(.none)
                continue
            }
            let arc = ArcID(b.arcEdge.count)
            b.edgeArcs.append(arc)
            b.arcEdge.append(UInt32(e) << 1 | (backward ? 1 : 0))
            b.arcDurationMs.append(UInt32((meters / (speed / 3.6) * 1000).rounded()))
            b.arcFlags.append([])
            b.arcOriginal.append(arc)
        }
        wayEdges.append(e)
    }

    // MARK: Turns

    /// Arcs leaving and entering each node, plus each arc's bearings where it leaves and arrives.
    struct Adjacency {
        var outStart: [Int32], outArcs: [ArcID]
        var inStart: [Int32], inArcs: [ArcID]
        var departBearing: [Double], arriveBearing: [Double]
        var degree: [Int32]

        init(b: RoadGraphBuilder) {
            let n = b.nodeCoordinates.count
            let arcCount = b.arcEdge.count
            var tails = [Int32](repeating: 0, count: arcCount), heads = [Int32](repeating: 0, count: arcCount)
            for a in 0..<arcCount {
                let e = Int(b.arcEdge[a] >> 1)
                let backward = b.arcEdge[a] & 1 == 1
                tails[a] = Int32((backward ? b.edgeHead[e] : b.edgeTail[e]).index)
                heads[a] = Int32((backward ? b.edgeTail[e] : b.edgeHead[e]).index)
            }
            func csr(_ keys: [Int32]) -> ([Int32], [ArcID]) {
                var start = [Int32](repeating: 0, count: n + 1)
                for k in keys { start[Int(k) + 1] += 1 }
                for i in 0..<n { start[i + 1] += start[i] }
                var fill = start
                var items = [ArcID](repeating: .none, count: keys.count)
                for (a, k) in keys.enumerated() {
                    items[Int(fill[Int(k)])] = ArcID(a)
                    fill[Int(k)] += 1
                }
                return (start, items)
            }
            (outStart, outArcs) = csr(tails)
            (inStart, inArcs) = csr(heads)
            departBearing = Array(repeating: 0, count: arcCount)
            arriveBearing = Array(repeating: 0, count: arcCount)
            for a in 0..<arcCount {
                let e = Int(b.arcEdge[a] >> 1)
                var shape = Array(b.shapeCoordinates[Int(b.edgeShapeStart[e])..<Int(b.edgeShapeStart[e + 1])])
                if b.arcEdge[a] & 1 == 1 { shape.reverse() }
                departBearing[a] = Self.bearing(shape, fromStart: true)
                arriveBearing[a] = Self.bearing(shape, fromStart: false)
            }
            degree = Array(repeating: 0, count: n)
            for v in 0..<n {
                var edges: [UInt32] = []
                for i in Int(outStart[v])..<Int(outStart[v + 1]) { edges.append(b.arcEdge[outArcs[i].index] >> 1) }
                for i in Int(inStart[v])..<Int(inStart[v + 1]) { edges.append(b.arcEdge[inArcs[i].index] >> 1) }
                degree[v] = Int32(Set(edges).count)
            }
        }

        /// Bearing over the first (or last) ~10 m of a shape, steadier than one short segment.
        static func bearing(_ shape: [Coordinate], fromStart: Bool) -> Double {
            let points = fromStart ? shape : shape.reversed()
            var far = points[points.count - 1]
            var meters = 0.0
            for i in 1..<points.count {
                meters += Geodesy.distanceMeters(points[i - 1], points[i])
                if meters >= 10 { far = points[i]; break }
            }
            return fromStart ? Geodesy.bearingDegrees(from: points[0], to: far) : Geodesy.bearingDegrees(from: far, to: points[0])
        }

        func out(_ v: Int) -> ArraySlice<ArcID> { outArcs[Int(outStart[v])..<Int(outStart[v + 1])] }
        func into(_ v: Int) -> ArraySlice<ArcID> { inArcs[Int(inStart[v])..<Int(inStart[v + 1])] }
    }

    /// Turn lists under construction: CSR for the plain turns, overrides for arcs that via-way
    /// restrictions rewrote, and the restriction copies.
    struct TurnTable {
        var firstOut: [UInt32] = [0]
        var target: [ArcID] = []
        var cost: [UInt32] = []
        var overrides: [Int: [(ArcID, UInt32)]] = [:]

        func list(_ a: ArcID) -> [(ArcID, UInt32)] {
            if let o = overrides[a.index] { return o }
            guard a.index + 1 < firstOut.count else { return [] }
            return (Int(firstOut[a.index])..<Int(firstOut[a.index + 1])).map { (target[$0], cost[$0]) }
        }

        func finish(into b: inout RoadGraphBuilder) {
            b.turnFirstOut = [0]
            b.turnTarget = []
            b.turnDurationMs = []
            b.turnTarget.reserveCapacity(target.count)
            for a in 0..<b.arcEdge.count {
                for (t, c) in list(ArcID(a)) {
                    b.turnTarget.append(t)
                    b.turnDurationMs.append(c)
                }
                b.turnFirstOut.append(UInt32(b.turnTarget.count))
            }
        }
    }

    func headNode(_ a: ArcID) -> Int {
        let e = Int(b.arcEdge[a.index] >> 1)
        return (b.arcEdge[a.index] & 1 == 1 ? b.edgeTail[e] : b.edgeHead[e]).index
    }

    func tailNode(_ a: ArcID) -> Int {
        let e = Int(b.arcEdge[a.index] >> 1)
        return (b.arcEdge[a.index] & 1 == 1 ? b.edgeHead[e] : b.edgeTail[e]).index
    }

    func wayOSMID(_ a: ArcID) -> Int64 { b.wayOSMIDs[b.edgeWay[Int(b.arcEdge[a.index] >> 1)].index] }

    func twin(_ a: ArcID) -> ArcID { b.edgeArcs[Int(b.arcEdge[a.index] ^ 1)] }

    private mutating func makeTurns(_ adj: Adjacency) -> TurnTable {
        // Via-node restrictions binding this profile, by graph node.
        var atNode: [Int: [Int]] = [:]
        for (r, restriction) in x.restrictions.enumerated() where restriction.profileMask & blockBit != 0 {
            guard let via = restriction.viaNode else { continue }
            let i = Extractor.lowerBound(x.nodeIDs, via, from: 0)
            guard i < x.nodeIDs.count, x.nodeIDs[i] == via, graphNodeOf[i] >= 0 else {
                skippedRestrictions += 1
                continue
            }
            atNode[Int(graphNodeOf[i]), default: []].append(r)
        }
        var table = TurnTable()
        table.target.reserveCapacity(b.arcEdge.count * 3)
        let costs = profile.turnCosts
        for a in 0..<b.arcEdge.count {
            let arc = ArcID(a)
            let v = headNode(arc)
            let outs = adj.out(v)
            let blocked = b.nodeFlags[v].contains(.barrier)
            let twinArc = twin(arc)
            let others = outs.filter { $0 != twinArc }.count
            let signals = b.nodeFlags[v].contains(.trafficSignals)
            let fromWay = wayOSMID(arc)
            let restrictions = (atNode[v] ?? []).map { x.restrictions[$0] }.filter { $0.fromWays.contains(fromWay) }
            let fromCount = adj.into(v).filter { wayOSMID($0) == fromWay }.count
            for out in outs {
                let isUTurn = out == twinArc
                if blocked && !isUTurn { continue }
                if isUTurn && !blocked && costs.uTurns == .deadEndsOnly && others > 0 { continue }
                let angle = isUTurn ? 180 : Geodesy.turnAngle(from: adj.arriveBearing[a], to: adj.departBearing[out.index])
                if !restrictions.isEmpty {
                    let toWay = wayOSMID(out)
                    var allowed = true
                    for r in restrictions {
                        let toCount = outs.filter { wayOSMID($0) == toWay }.count
                        let ambiguous = fromCount > 1 || toCount > 1
                        let applies = !ambiguous || r.names(angle: angle, isUTurn: isUTurn)
                        switch r.kind {
                        case .prohibitive:
                            if r.toWays.contains(toWay) && applies { allowed = false }
                        case .mandatory:
                            let isTarget = r.toWays.contains(toWay) && (outs.filter { r.toWays.contains(wayOSMID($0)) }.count == 1
                                || r.names(angle: angle, isUTurn: isUTurn))
                            if !isTarget { allowed = false }
                        }
                    }
                    if !allowed { continue }
                }
                let seconds = costs.seconds(angle: angle, roads: Int(adj.degree[v]), isUTurn: isUTurn, signals: signals)
                table.target.append(out)
                table.cost.append(UInt32((seconds * 1000).rounded()))
            }
            table.firstOut.append(UInt32(table.target.count))
        }
        return table
    }

    /// Applies `from → via way → to` restrictions by copying the via way's arcs: travel that
    /// arrives from the `from` way runs on the copies, whose turns lack (or, for `only_*`, keep
    /// only) the move onto the `to` way. Other travel keeps the original arcs.
    private mutating func applyViaWayRestrictions(_ table: inout TurnTable, _ adj: Adjacency) {
        // Index the arcs of every from-way once, rather than scanning all arcs per restriction.
        var fromWayArcs: [Int64: [ArcID]] = [:]
        for restriction in x.restrictions where restriction.profileMask & blockBit != 0 && restriction.viaNode == nil {
            for from in restriction.fromWays { fromWayArcs[from] = [] }
        }
        guard !fromWayArcs.isEmpty else { return }
        for a in 0..<b.arcEdge.count where b.arcOriginal[a] == ArcID(a) {
            let way = wayOSMID(ArcID(a))
            if fromWayArcs[way] != nil { fromWayArcs[way]!.append(ArcID(a)) }
        }
        for restriction in x.restrictions where restriction.profileMask & blockBit != 0 && restriction.viaNode == nil {
            guard restriction.viaWays.count == 1 else { skippedRestrictions += 1; continue }
            let via = restriction.viaWays[0]
            let toWays = Set(restriction.toWays)
            var applied = false
            for from in restriction.fromWays {
                guard let fromIndex = x.wayByOSMID[from], graphWayOf[Int(fromIndex)] >= 0 else { continue }
                // Arcs of the from way that can turn onto the via way.
                let fromArcs = (fromWayArcs[from] ?? []).filter { a in table.list(a).contains { wayOSMID($0.0) == via } }
                for a in fromArcs {
                    guard let path = viaPath(from: a, via: via, to: toWays, table) else { continue }
                    duplicate(path: path, after: a, kind: restriction.kind, to: toWays, &table)
                    applied = true
                }
            }
            if !applied { skippedRestrictions += 1 }
        }
    }

    /// The arcs along the via way from `a` until one can turn onto a `to` way.
    private func viaPath(from a: ArcID, via: Int64, to: Set<Int64>, _ table: TurnTable) -> [ArcID]? {
        for first in table.list(a) where wayOSMID(first.0) == via {
            var path = [first.0]
            var seen: Set<ArcID> = [first.0]
            while path.count < 64 {
                let current = path[path.count - 1]
                let next = table.list(current)
                if next.contains(where: { to.contains(wayOSMID($0.0)) }) { return path }
                guard let step = next.first(where: { wayOSMID($0.0) == via && $0.0 != twin(current) && !seen.contains($0.0) }) else { break }
                path.append(step.0)
                seen.insert(step.0)
            }
        }
        return nil
    }

    private mutating func duplicate(path: [ArcID], after a: ArcID, kind: TurnRestriction.Kind, to: Set<Int64>, _ table: inout TurnTable) {
        var previous = a
        var previousTarget = path[0]
        for (i, original) in path.enumerated() {
            let copy = ArcID(b.arcEdge.count)
            b.arcEdge.append(b.arcEdge[original.index])
            b.arcDurationMs.append(b.arcDurationMs[original.index])
            b.arcFlags.append([.restrictionCopy])
            b.arcOriginal.append(b.arcOriginal[original.index])
            var copiedTurns = table.list(original)
            let isLast = i == path.count - 1
            if isLast {
                switch kind {
                case .prohibitive: copiedTurns.removeAll { to.contains(wayOSMID($0.0)) }
                case .mandatory: copiedTurns.removeAll { !to.contains(wayOSMID($0.0)) }
                }
            } else if kind == .mandatory {
                copiedTurns.removeAll { $0.0 != path[i + 1] }
            }
            table.overrides[copy.index] = copiedTurns
            var previousTurns = table.list(previous)
            if kind == .mandatory && i == 0 {
                previousTurns.removeAll { $0.0 != previousTarget }
            }
            for j in previousTurns.indices where previousTurns[j].0 == previousTarget { previousTurns[j].0 = copy }
            table.overrides[previous.index] = previousTurns
            previous = copy
            if !isLast { previousTarget = path[i + 1] }
        }
    }

    // MARK: Components

    /// Flags arcs outside the largest strongly connected component when their component is small
    /// (fewer than 1000 arcs, as OSRM's limit, and less than half the largest), so snapping avoids
    /// dead pockets; in a map with no large component nothing is flagged.
    private mutating func flagSmallComponents() {
        let components = StronglyConnectedComponents(firstOut: b.turnFirstOut, target: b.turnTarget)
        var sizes = [Int](repeating: 0, count: components.count)
        for c in components.component { sizes[Int(c)] += 1 }
        let largest = sizes.indices.max { sizes[$0] < sizes[$1] } ?? 0
        let threshold = min(1000, (sizes.isEmpty ? 0 : sizes[largest]) / 2)
        for a in 0..<b.arcEdge.count {
            let c = Int(components.component[a])
            if c == largest { b.arcFlags[a].insert(.largestComponent) }
            if c != largest && sizes[c] < threshold { b.arcFlags[a].insert(.smallComponent) }
        }
    }
}
