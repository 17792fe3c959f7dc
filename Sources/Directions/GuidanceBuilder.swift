public import RoadNetwork
public import RoutePlanning
import GeoCore

/// Turn-by-turn guidance for a route: instructions, one group per leg and MapKit-style steps.
///
/// A junction gets an instruction when the driver has to do something there: turn where other
/// ways were possible, keep left or right at a fork, take or join a motorway, board a ferry,
/// enter a roundabout (counting the exits passed), turn back, or continue onto a road with a
/// different name. A road that merely bends, or a straight crossing of the same road, gets none.
public struct GuidanceBuilder {
    public let graph: RoadGraph
    public let text: InstructionText
    public let drivingSide: DrivingSide

    public init(graph: RoadGraph, text: InstructionText, drivingSide: DrivingSide = .right) {
        self.graph = graph
        self.text = text
        self.drivingSide = drivingSide
    }

    struct Draft {
        var maneuver: Maneuver
        var offsetMeters: Double
        var elapsedSeconds: Double
        var point: Coordinate
        var pointIndex: Int
        var street: String
        var roadNumbers: [String]
        var junction: Guidance.Junction?
        var angle: Double?
        var exitNumber: Int?
        var message: String
        var stepText: String
    }

    public func build(_ route: TimedRoute) -> Guidance {
        var drafts: [Draft] = []
        var offset = 0.0, elapsed = 0.0, pointBase = 0
        var groups: [(first: Int, last: Int, meters: Double, roads: [String], from: String, waypoint: Bool)] = []
        for (li, leg) in route.legs.enumerated() {
            let pieces = leg.arcs
            let groupStart = drafts.count
            if li == 0, let first = pieces.first {
                let (street, refs) = names(first.arc)
                let direction = compass(Geodesy.bearingDegrees(from: leg.points[0], to: leg.points[min(1, leg.points.count - 1)]))
                drafts.append(Draft(maneuver: .depart, offsetMeters: 0, elapsedSeconds: 0, point: leg.points[0], pointIndex: 0,
                                    street: street, roadNumbers: refs, junction: nil, angle: nil, exitNumber: nil,
                                    message: text.text("DEPART", street: display(street, refs)),
                                    stepText: text.text("HEAD", street: display(street, refs), direction: direction)))
            }
            var cumulativeMeters = [Double](), cumulativeSeconds = [Double]()
            var m = offset, s = elapsed
            for p in pieces { m += p.lengthMeters; s += p.durationSeconds; cumulativeMeters.append(m); cumulativeSeconds.append(s) }
            var i = 0
            while i < pieces.count - 1 {
                let a = pieces[i].arc, b = pieces[i + 1].arc
                let atMeters = cumulativeMeters[i], atSeconds = cumulativeSeconds[i]
                let point = leg.points[min(leg.points.count - 1, pieces[i + 1].firstPoint)]
                let pointIndex = pointBase + pieces[i + 1].firstPoint
                if isRoundabout(b) && !isRoundabout(a) {
                    var j = i + 1
                    var exits = 0
                    while j < pieces.count && isRoundabout(pieces[j].arc) {
                        if j + 1 < pieces.count || true {
                            // An exit is an allowed way off the roundabout at this junction.
                            let off = graph.turns(from: pieces[j].arc).contains { !isRoundabout(graph.turnTarget[$0]) }
                            if off { exits += 1 }
                        }
                        j += 1
                    }
                    let exitArc = j < pieces.count ? pieces[j].arc : pieces[j - 1].arc
                    let (street, refs) = names(exitArc)
                    let angle = turnAngle(a, exitArc)
                    let maneuver: Maneuver = abs(angle) < 45 ? .roundaboutCross : abs(angle) > 150 ? .roundaboutBack
                        : (angle > 0 ? .roundaboutRight : .roundaboutLeft)
                    let message = text.text("ROUNDABOUT", street: display(street, refs), exit: max(1, exits))
                    drafts.append(Draft(maneuver: maneuver, offsetMeters: atMeters, elapsedSeconds: atSeconds, point: point,
                                        pointIndex: pointIndex, street: street, roadNumbers: refs, junction: .roundabout,
                                        angle: angle, exitNumber: max(1, exits), message: message, stepText: message))
                    i = max(i + 1, j - 1)
                    continue
                }
                if let draft = junctionInstruction(from: a, to: b, atMeters: atMeters, atSeconds: atSeconds, point: point, pointIndex: pointIndex) {
                    drafts.append(draft)
                }
                i += 1
            }
            // Arrival at a waypoint or the destination, with the side of the road.
            let isLast = li == route.legs.count - 1
            let endPoint = leg.points[leg.points.count - 1]
            let side = sideOfRoad(leg: leg, destination: li + 1 < route.waypoints.count ? route.waypoints[li + 1].input : endPoint)
            let maneuver: Maneuver = isLast ? (side == 0 ? .arrive : side < 0 ? .arriveLeft : .arriveRight)
                : (side == 0 ? .waypointReached : side < 0 ? .waypointLeft : .waypointRight)
            let message = text.text(maneuver.rawValue)
            let lastArc = pieces[pieces.count - 1].arc
            let (street, refs) = names(lastArc)
            drafts.append(Draft(maneuver: maneuver, offsetMeters: cumulativeMeters.last ?? offset,
                                elapsedSeconds: cumulativeSeconds.last ?? elapsed, point: endPoint,
                                pointIndex: pointBase + leg.points.count - 1, street: street, roadNumbers: refs, junction: nil,
                                angle: nil, exitNumber: nil, message: message, stepText: message))
            groups.append((groupStart, drafts.count - 1, leg.lengthMeters, mainRoads(leg), names(pieces[0].arc).0, !isLast))
            offset = cumulativeMeters.last ?? offset
            elapsed = cumulativeSeconds.last ?? elapsed
            pointBase += leg.points.count
        }
        return assemble(drafts, groups: groups, route: route)
    }

    /// The instruction at a plain junction, if the driver must act there.
    func junctionInstruction(from a: ArcID, to b: ArcID, atMeters: Double, atSeconds: Double, point: Coordinate, pointIndex: Int) -> Draft? {
        let angle = turnAngle(a, b)
        let (fromName, _) = names(a)
        let (street, refs) = names(b)
        let fromClass = roadClass(a), toClass = roadClass(b)
        // Other ways the driver could have taken here (not back where they came from).
        let twin = graph.twin(of: a)
        let others = graph.turns(from: a).map { graph.turnTarget[$0] }
            .filter { graph.arcOriginal[$0.index] != graph.arcOriginal[b.index] && $0 != twin }
        let otherAngles = others.map { turnAngle(a, $0) }
        let nameChanges = display(street, refs) != display(fromName, names(a).1) && !(street.isEmpty && refs.isEmpty)
        var maneuver: Maneuver
        var junction = Guidance.Junction.regular
        if graph.wayFlags[graph.way(of: b).index].contains(.ferry) && !graph.wayFlags[graph.way(of: a).index].contains(.ferry) {
            maneuver = .takeFerry
        } else if b == twin || abs(angle) >= 170 {
            maneuver = .makeUTurn
        } else if (fromClass.isMotorway || fromClass == .trunk) && toClass.isLink && !fromClass.isLink {
            maneuver = angle < 0 ? .motorwayExitLeft : .motorwayExitRight
        } else if fromClass.isLink && (toClass == .motorway || toClass == .trunk) {
            maneuver = .enterMotorway
        } else if let fork = otherAngles.first(where: { abs($0 - angle) < 40 && abs($0) < 60 }), abs(angle) < 60 {
            maneuver = angle < fork ? .keepLeft : .keepRight
            junction = .bifurcation
        } else {
            maneuver = .turn(angle: angle)
            if maneuver == .straight {
                guard nameChanges else { return nil }
            } else if others.isEmpty && !nameChanges {
                return nil  // the road just bends
            }
        }
        let key: String
        switch maneuver {
        case .straight: key = "STRAIGHT"
        case .enterMotorway: key = "ENTER_MOTORWAY"
        default: key = maneuver.rawValue
        }
        let message = text.text(key, street: display(street, refs))
        return Draft(maneuver: maneuver, offsetMeters: atMeters, elapsedSeconds: atSeconds, point: point, pointIndex: pointIndex,
                     street: street, roadNumbers: refs, junction: junction, angle: angle, exitNumber: nil,
                     message: message, stepText: message)
    }

    func assemble(_ drafts: [Draft], groups: [(first: Int, last: Int, meters: Double, roads: [String], from: String, waypoint: Bool)],
                  route: TimedRoute) -> Guidance {
        let allPoints = route.legs.flatMap(\.points)
        var instructions: [Guidance.Instruction] = []
        var steps: [Guidance.Step] = []
        for (k, d) in drafts.enumerated() {
            let next = k + 1 < drafts.count ? drafts[k + 1] : nil
            let combine = next.map { $0.offsetMeters - d.offsetMeters < 150 && d.maneuver != .depart && !$0.maneuver.instructionType.hasPrefix("LOCATION") } ?? false
            instructions.append(Guidance.Instruction(
                offsetMeters: Int(d.offsetMeters.rounded()), elapsedSeconds: Int(d.elapsedSeconds.rounded()),
                point: d.point, pointIndex: d.pointIndex, maneuver: d.maneuver,
                street: d.street.isEmpty ? nil : d.street, roadNumbers: d.roadNumbers.isEmpty ? nil : d.roadNumbers,
                junction: d.junction, turnAngleDegrees: d.angle.map { Int($0.rounded()) },
                roundaboutExit: d.exitNumber, combinesWithNext: combine, message: d.message,
                combinedMessage: combine ? text.combine(d.message, next!.message) : nil))
            let endIndex = next?.pointIndex ?? d.pointIndex
            let slice = allPoints.isEmpty ? [] : Array(allPoints[min(d.pointIndex, allPoints.count - 1)...min(max(endIndex, d.pointIndex), allPoints.count - 1)])
            steps.append(Guidance.Step(text: d.stepText,
                                       distanceMeters: Int(((next?.offsetMeters ?? d.offsetMeters) - d.offsetMeters).rounded()),
                                       travelTimeSeconds: Int(((next?.elapsedSeconds ?? d.elapsedSeconds) - d.elapsedSeconds).rounded()),
                                       maneuver: d.maneuver, street: d.street.isEmpty ? nil : d.street, points: slice))
        }
        let groupBodies = groups.map { g in
            Guidance.Group(firstInstruction: g.first, lastInstruction: g.last, lengthMeters: Int(g.meters.rounded()),
                           message: text.group(from: g.from, roads: g.roads, toWaypoint: g.waypoint))
        }
        return Guidance(instructions: instructions, groups: groupBodies, steps: steps, drivingSide: drivingSide)
    }

    // MARK: Helpers

    func names(_ arc: ArcID) -> (String, [String]) {
        let way = graph.way(of: arc)
        let ref = graph.ref(of: way)
        return (graph.name(of: way), ref.isEmpty ? [] : ref.split(separator: ";").map { $0.trimmingCharacters() })
    }

    func display(_ name: String, _ refs: [String]) -> String {
        switch (name.isEmpty, refs.isEmpty) {
        case (false, false): "\(name)/\(refs.joined(separator: "/"))"
        case (false, true): name
        case (true, false): refs.joined(separator: "/")
        case (true, true): ""
        }
    }

    func roadClass(_ arc: ArcID) -> RoadClass { graph.wayClass[graph.way(of: arc).index] }

    func isRoundabout(_ arc: ArcID) -> Bool { graph.wayFlags[graph.way(of: arc).index].contains(.roundabout) }

    /// Degrees from the direction of arriving on `a` to the direction of leaving on `b` (+ = right).
    func turnAngle(_ a: ArcID, _ b: ArcID) -> Double {
        Geodesy.turnAngle(from: bearing(a, atEnd: true), to: bearing(b, atEnd: false))
    }

    /// Bearing over ~10 m at the arc's start or end (steadier than one short segment).
    func bearing(_ arc: ArcID, atEnd: Bool) -> Double {
        let shape = graph.shape(of: arc)
        let points = atEnd ? Array(shape.reversed()) : shape
        var far = points[points.count - 1]
        var meters = 0.0
        for i in 1..<points.count {
            meters += Geodesy.distanceMeters(points[i - 1], points[i])
            if meters >= 10 { far = points[i]; break }
        }
        return atEnd ? Geodesy.bearingDegrees(from: far, to: points[0]) : Geodesy.bearingDegrees(from: points[0], to: far)
    }

    /// -1 destination on the left, +1 right, 0 on the road (within 5 m) or unknown.
    func sideOfRoad(leg: TimedRoute.Leg, destination: Coordinate) -> Int {
        let points = leg.points
        guard points.count >= 2 else { return 0 }
        let end = points[points.count - 1], before = points[points.count - 2]
        guard Geodesy.distanceMeters(end, destination) > 5 else { return 0 }
        let heading = Geodesy.bearingDegrees(from: before, to: end)
        let toDestination = Geodesy.bearingDegrees(from: end, to: destination)
        let angle = Geodesy.turnAngle(from: heading, to: toDestination)
        return angle < 0 ? -1 : 1
    }

    /// The two named roads the leg drives longest on, in driving order (like OSRM's leg summary).
    func mainRoads(_ leg: TimedRoute.Leg) -> [String] {
        var meters: [String: Double] = [:]
        var firstSeen: [String: Int] = [:]
        for (i, p) in leg.arcs.enumerated() {
            let (name, refs) = names(p.arc)
            let label = display(name, refs)
            guard !label.isEmpty else { continue }
            meters[label, default: 0] += p.lengthMeters
            if firstSeen[label] == nil { firstSeen[label] = i }
        }
        return meters.sorted { $0.value > $1.value }.prefix(2).map(\.key).sorted { firstSeen[$0]! < firstSeen[$1]! }
    }

    func compass(_ bearing: Double) -> String {
        let names = ["NORTH", "NORTHEAST", "EAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "WEST", "NORTHWEST"]
        return names[Int(((bearing + 22.5) / 45).rounded(.down)) % 8]
    }
}

extension StringProtocol {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
