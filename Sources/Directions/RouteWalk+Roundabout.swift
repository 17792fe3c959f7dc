import GeoCore
import RoadNetwork

extension RouteWalk {
    /// One instruction for driving a roundabout from the junction where the route enters it
    /// (arriving on `pieces[i]`) to where it leaves (`pieces[exit]`, or the leg's end on the ring):
    /// the exits passed are counted, service-road exits of ordinary roundabouts left out.
    func roundabout(entry x: Intersection, pieces: [GuidanceRoute.Piece], from i: Int, exit j: Int, leg: Int, legPoints: [Coordinate],
                    pointBase: Int, meters: [Double], seconds: [Double], point: Coordinate, index: Int) -> RawStep {
        let a = pieces[i].arc
        var exits = 0
        for k in (i + 1)..<j where k + 1 < pieces.count {
            if k + 1 == j { exits += 1; break }  // the exit taken
            let y = Intersection(arriving: pieces[k].arc, leaving: pieces[k + 1].arc, facts: facts)
            let minorRing = facts.isLowPriority(pieces[k].arc)
            if y.alternatives.contains(where: { !facts.isRing($0.leaving) && (minorRing || !facts.isLowPriority($0.leaving)) }) { exits += 1 }
        }
        let leaves = j < pieces.count
        let exitArc = leaves ? pieces[j].arc : pieces[j - 1].arc
        let ring = ringShape(startingAt: pieces[i + 1].arc)
        let kind = ring.kind
        let before = facts.arriveBearing(a), after = facts.departBearing(exitArc)
        var s = step(kind, TurnDirection(angle: Geodesy.turnAngle(from: before, to: after)), leg: leg, at: meters[i], seconds[i],
                     point: point, index: index, from: a, to: exitArc, before: before, after: after)
        if s.direction == .uTurn || (abs(Geodesy.turnAngle(from: before, to: after)) > 160 && exits >= 2) { s.direction = .uTurn }
        s.alternatives = x.alternatives.count
        s.intersections = [x.summary(location: point, lanes: laneGuide(x))]
        let exitPointIndex = leaves ? pieces[j].firstPoint : legPoints.count - 1
        let lastRing = pieces[j - 1].arc
        s.roundabout = RoundaboutPassage(
            exitPoint: legPoints[min(legPoints.count - 1, exitPointIndex)], exitPointIndex: pointBase + exitPointIndex,
            ringMeters: meters[j - 1] - meters[i], ringSeconds: seconds[j - 1] - seconds[i], exitNumber: max(1, exits),
            rotaryName: kind == .rotary ? ring.names.first ?? "" : "",
            exitBearingBefore: Int(facts.arriveBearing(lastRing).rounded()) % 360, exitBearingAfter: Int(after.rounded()) % 360)
        return s
    }

    /// What a ring is like as a whole: its length, names, and the roads meeting it.
    struct RingShape {
        var lengthMeters = 0.0
        var names: Set<String> = []
        var connectedNames: Set<String> = []
        var junctionNodes = 0
        /// Whether every node where roads meet the ring has just one, their bearings well apart.
        var distinctRoads = true
        var roadBearings: [Double] = []
        var circular = false
        var closed = false

        /// OSRM's distinction: a rotary is a large circle with a name of its own, a roundabout
        /// turn a small ring of at most four roads taken like a junction.
        var kind: ManeuverKind {
            let radius = lengthMeters / (2 * Double.pi)
            if names.count == 1, let name = names.first, circular || (radius > 15 && !connectedNames.contains(name)) { return .rotary }
            if !circular && closed && junctionNodes == 1 { return .roundaboutTurn }
            if !circular && closed && radius < 15 && junctionNodes <= 4 && distinctRoads && wellApart { return .roundaboutTurn }
            return .roundabout
        }

        var wellApart: Bool {
            let b = roadBearings.sorted()
            guard b.count >= 2 else { return true }
            for k in b.indices {
                let gap = k + 1 < b.count ? b[k + 1] - b[k] : b[0] + 360 - b[k]
                if gap <= 40 { return false }
            }
            return true
        }
    }

    func ringShape(startingAt first: ArcID) -> RingShape {
        var shape = RingShape()
        let start = graph.tail(of: first)
        var current = first
        var seen: Set<ArcID> = []
        for _ in 0..<400 {
            guard seen.insert(current).inserted else { break }
            shape.lengthMeters += Double(graph.lengthCm(of: current)) / 100
            let name = graph.name(of: graph.way(of: current))
            if !name.isEmpty { shape.names.insert(name) }
            if facts.flags(current).contains(.circular) { shape.circular = true }
            var next: ArcID?
            var roads: [EdgeID: Double] = [:]
            for t in graph.turns(from: current) {
                let y = graph.arcOriginal[graph.turnTarget[t].index]
                if facts.isRing(y) {
                    if next == nil && graph.edge(of: y) != graph.edge(of: current) { next = y }
                } else if graph.edge(of: y) != graph.edge(of: current) {
                    roads[graph.edge(of: y)] = facts.departBearing(y)
                    shape.connectedNames.insert(graph.name(of: graph.way(of: y)))
                }
            }
            if let n = next {
                for t in graph.turns(into: n) {
                    let x = graph.arcOriginal[graph.turnSource[Int(graph.turnReverseTurn[t])].index]
                    guard !facts.isRing(x), roads[graph.edge(of: x)] == nil else { continue }
                    roads[graph.edge(of: x)] = (facts.arriveBearing(x) + 180).truncatingRemainder(dividingBy: 360)
                    shape.connectedNames.insert(graph.name(of: graph.way(of: x)))
                }
            }
            if !roads.isEmpty {
                shape.junctionNodes += 1
                if roads.count > 1 { shape.distinctRoads = false }
                shape.roadBearings.append(contentsOf: roads.values)
            }
            if graph.head(of: current) == start { shape.closed = true; break }
            guard let n = next else { break }
            current = n
        }
        return shape
    }
}
