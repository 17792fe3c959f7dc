import GeoCore
import RoadNetwork

/// One candidate instruction, before the short ones are folded together.
struct RawStep {
    var kind: ManeuverKind
    var direction: TurnDirection
    var leg: Int
    var offsetMeters: Double
    var elapsedSeconds: Double
    var point: Coordinate
    /// Index of `point` among the route's points (legs joined, each counted whole).
    var pointIndex: Int
    /// The road arrived on (`.none` at a start) and the road the instruction announces.
    var fromArc: ArcID
    var toArc: ArcID
    var bearingBefore: Double
    var bearingAfter: Double
    /// Roads the driver could have entered here besides the one taken (U-turns aside).
    var alternatives: Int
    /// The junction at the maneuver, then the junctions passed without an instruction.
    var intersections: [IntersectionSummary]
    var lanes: [Lane]
    var exitSign: JunctionSign?
    var roundabout: RoundaboutPassage?
    /// Where an arrival's destination lies (nil: on the road).
    var arrivalSide: TurnDirection?

    var angle: Double { kind == .uTurn ? 180 : Geodesy.turnAngle(from: bearingBefore, to: bearingAfter) }
    /// Junctions passed after the maneuver without an instruction.
    var silentJunctions: Int { max(0, intersections.count - 1) }
    var isWaypoint: Bool { kind == .depart || kind == .arrive || kind == .waypoint }
    var isRoundabout: Bool { kind == .roundabout || kind == .rotary || kind == .roundaboutTurn }
}

/// Walks a route junction by junction and writes down every candidate instruction, roundabouts
/// as one entry-to-exit instruction each.
struct RouteWalk {
    let facts: RoadFacts
    let drivingSide: DrivingSide

    var classifier: TurnClassifier { TurnClassifier(facts: facts) }
    var graph: RoadGraph { facts.graph }

    /// The candidate steps of each leg, its departure first and its arrival last.
    func steps(_ route: GuidanceRoute) -> [[RawStep]] {
        var legs: [[RawStep]] = []
        var offset = 0.0, elapsed = 0.0, pointBase = 0
        var previousLast: ArcID?
        for (li, leg) in route.legs.enumerated() {
            let pieces = leg.pieces
            var meters = [Double](), seconds = [Double]()
            var m = offset, s = elapsed
            for p in pieces { m += p.lengthMeters; s += p.durationSeconds; meters.append(m); seconds.append(s) }
            var steps: [RawStep] = []
            let first = pieces[0].arc
            var depart = step(.depart, .straight, leg: li, at: offset, elapsed, point: leg.points[0], index: pointBase,
                              from: .none, to: first, before: facts.departBearing(first), after: facts.departBearing(first))
            if let last = previousLast, graph.edge(of: last) == graph.edge(of: first), graph.arcOriginal[last.index] != graph.arcOriginal[first.index] {
                depart.direction = .uTurn  // the route turns back at the waypoint
            }
            depart.bearingAfter = leg.points.count > 1 ? Geodesy.bearingDegrees(from: leg.points[0], to: leg.points[1]) : depart.bearingAfter
            depart.intersections = [IntersectionSummary(location: leg.points[0], bearings: [Int(depart.bearingAfter.rounded()) % 360],
                                                        entry: [true], inIndex: nil, outIndex: 0, lanes: [])]
            steps.append(depart)
            var i = 0
            while i < pieces.count - 1 {
                let a = pieces[i].arc, b = pieces[i + 1].arc
                let point = leg.points[min(leg.points.count - 1, pieces[i + 1].firstPoint)]
                let index = pointBase + pieces[i + 1].firstPoint
                let x = Intersection(arriving: a, leaving: b, facts: facts)
                if facts.isRing(b) && !facts.isRing(a) && x.outIndex != x.inIndex {
                    var j = i + 1
                    while j < pieces.count && facts.isRing(pieces[j].arc) { j += 1 }
                    steps.append(roundabout(entry: x, pieces: pieces, from: i, exit: j, leg: li, legPoints: leg.points, pointBase: pointBase,
                                            meters: meters, seconds: seconds, point: point, index: index))
                    i = j
                    continue
                }
                let lanes = laneGuide(x)
                if Trace.on {
                    let d = classifier.classify(x)
                    var line = "TRACE \(point.longitude),\(point.latitude) in=\(facts.name(a).display)[\(facts.roadClass(a))] -> \(d.map { "\($0.kind) \($0.direction)" } ?? "none")"
                    for (k, r) in x.roads.enumerated() {
                        let arc = r.anyArc
                        line += "\n     \(k == x.inIndex ? "IN " : k == x.outIndex ? "OUT" : "   ") angle \(Int(r.angle)) entry \(r.entryAllowed) \(facts.name(arc).display)[\(facts.roadClass(arc))]"
                    }
                    Trace.write(line)
                }
                if let d = classifier.classify(x) {
                    var s = step(d.kind, d.direction, leg: li, at: meters[i], seconds[i], point: point, index: index, from: a, to: b,
                                 before: facts.arriveBearing(a), after: x.taken.bearing)
                    s.alternatives = x.alternatives.count
                    s.intersections = [x.summary(location: point, lanes: lanes)]
                    s.lanes = lanes
                    s.exitSign = graph.junctionSign(at: x.node)
                    steps.append(s)
                } else if x.isJunction, !steps.isEmpty {
                    steps[steps.count - 1].intersections.append(x.summary(location: point, lanes: lanes))
                }
                i += 1
            }
            let end = leg.points[leg.points.count - 1]
            let lastArc = pieces[pieces.count - 1].arc
            var arrive = step(li == route.legs.count - 1 ? .arrive : .waypoint, .straight, leg: li, at: meters.last ?? offset,
                              seconds.last ?? elapsed, point: end, index: pointBase + leg.points.count - 1, from: lastArc, to: lastArc,
                              before: facts.arriveBearing(lastArc), after: facts.arriveBearing(lastArc))
            arrive.arrivalSide = side(leg.points, destination: leg.destination)
            if leg.points.count > 1 { arrive.bearingBefore = Geodesy.bearingDegrees(from: leg.points[leg.points.count - 2], to: end) }
            arrive.intersections = [IntersectionSummary(location: end, bearings: [(Int(arrive.bearingBefore.rounded()) + 180) % 360],
                                                        entry: [true], inIndex: 0, outIndex: nil, lanes: [])]
            steps.append(arrive)
            legs.append(steps)
            offset = meters.last ?? offset
            elapsed = seconds.last ?? elapsed
            pointBase += leg.points.count
            previousLast = lastArc
        }
        return legs
    }

    func step(_ kind: ManeuverKind, _ direction: TurnDirection, leg: Int, at meters: Double, _ seconds: Double, point: Coordinate,
              index: Int, from: ArcID, to: ArcID, before: Double, after: Double) -> RawStep {
        RawStep(kind: kind, direction: direction, leg: leg, offsetMeters: meters, elapsedSeconds: seconds, point: point, pointIndex: index,
                fromArc: from, toArc: to, bearingBefore: before, bearingAfter: after, alternatives: 0, intersections: [], lanes: [],
                exitSign: nil, roundabout: nil, arrivalSide: nil)
    }

    /// The lanes of the road arrived on where its way ends at the junction, marked for the route.
    func laneGuide(_ x: Intersection) -> [Lane] {
        guard x.isJunction, !facts.sameWay(x.arriving, x.taken.leaving) else { return [] }
        let tagged = graph.signs(of: x.arriving).turnLanes
        guard !tagged.isEmpty else { return [] }
        return Lanes.guide(tagged, direction: TurnDirection(angle: x.taken.angle), drivingSide: drivingSide)
    }

    /// Which side of the road the destination lies on (nil within 5 m of the road's end).
    func side(_ points: [Coordinate], destination: Coordinate) -> TurnDirection? {
        guard points.count >= 2 else { return nil }
        let end = points[points.count - 1], before = points[points.count - 2]
        guard Geodesy.distanceMeters(end, destination) > 5 else { return nil }
        let angle = Geodesy.turnAngle(from: Geodesy.bearingDegrees(from: before, to: end), to: Geodesy.bearingDegrees(from: end, to: destination))
        return angle < 0 ? .left : .right
    }
}

import Glibc
enum Trace {
    static let on = getenv("WAYFINDER_TRACE") != nil
    static func write(_ s: String) { var t = s + "\n"; t.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) } }
}
