import RoadNetwork
import GeoCore

/// The turns of the graph: which arcs leave and enter each node, every allowed move at a node
/// with its cost, and the via-node restrictions that forbid or force some of them.
extension GraphAssembly {
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

    func onRoundabout(_ a: ArcID) -> Bool { b.wayFlags[b.edgeWay[Int(b.arcEdge[a.index] >> 1)].index].contains(.roundabout) }

    func twin(_ a: ArcID) -> ArcID { b.edgeArcs[Int(b.arcEdge[a.index] ^ 1)] }

    /// Whether the traffic signal at graph node `v` stops traffic arriving on `arc`: a signal for
    /// one direction only where the arc travels its way in that direction (edges follow their way's
    /// node order; a backward arc runs against it).
    func signalHolds(arriving arc: ArcID, at v: Int) -> Bool {
        guard let directions = x.nodeSignalDirections[extractorNodeOf[v]] else { return true }
        let backward = b.arcEdge[arc.index] & 1 == 1
        switch directions[p] {
        case .both: return true
        case .forward: return !backward
        case .backward: return backward
        }
    }

    mutating func makeTurns(_ adj: Adjacency) -> TurnTable {
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
            // Turning round where no other road brings traffic in crosses nobody's way.
            let aloneIn = adj.into(v).allSatisfy { $0 == arc }
            let signals = b.nodeFlags[v].contains(.trafficSignals) && signalHolds(arriving: arc, at: v)
            // A gate on the road costs its time on every move through its node (OSRM adds it to the turn).
            let barrierSeconds = x.nodeBarrierSeconds[extractorNodeOf[v]]?[p] ?? 0
            let fromWay = wayOSMID(arc)
            let restrictions = (atNode[v] ?? []).map { x.restrictions[$0] }.filter { $0.fromWays.contains(fromWay) }
            let fromCount = adj.into(v).filter { wayOSMID($0) == fromWay }.count
            for out in outs {
                let isUTurn = out == twinArc
                if blocked && !isUTurn { continue }
                if isUTurn && !blocked && costs.uTurns == .deadEndsOnly && others > 0 && !aloneIn { continue }
                let angle = isUTurn ? 180 : Geodesy.turnAngle(from: adj.arriveBearing[a], to: adj.departBearing[out.index])
                if !restrictions.isEmpty {
                    let toWay = wayOSMID(out)
                    var allowed = true
                    // A restriction with a schedule keeps the turn, forbidden only while it holds (`ConditionalRules`).
                    var during: String?
                    for r in restrictions {
                        let toCount = outs.filter { wayOSMID($0) == toWay }.count
                        let ambiguous = fromCount > 1 || toCount > 1
                        let applies = !ambiguous || r.names(angle: angle, isUTurn: isUTurn)
                        let forbids: Bool
                        switch r.kind {
                        case .prohibitive:
                            forbids = r.toWays.contains(toWay) && applies
                        case .mandatory:
                            let isTarget = r.toWays.contains(toWay) && (outs.filter { r.toWays.contains(wayOSMID($0)) }.count == 1
                                || r.names(angle: angle, isUTurn: isUTurn))
                            forbids = !isTarget
                        }
                        guard forbids else { continue }
                        if let s = r.schedule { during = during ?? s } else { allowed = false }
                    }
                    if !allowed { continue }
                    if let during { conditionalMoves.append((arc, out, schedule(during))) }
                }
                let roundabout = onRoundabout(arc) || onRoundabout(out)
                let seconds = costs.seconds(angle: angle, roads: Int(adj.degree[v]), isUTurn: isUTurn, signals: signals,
                                            roundabout: roundabout) + barrierSeconds
                    + yieldSeconds(arriving: arc, into: out, at: v, roads: Int(adj.degree[v]), outs: outs)
                table.target.append(out)
                table.cost.append(UInt32((seconds * 1000).rounded()))
            }
            table.firstOut.append(UInt32(table.target.count))
        }
        return table
    }
}
