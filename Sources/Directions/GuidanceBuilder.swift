public import RoadNetwork
public import RoutePlanning
import GeoCore

/// Turn-by-turn guidance for a route: one instruction per decision, worded in one language.
///
/// The route is walked junction by junction (`RouteWalk`, `TurnClassifier`), the short steps a
/// driver takes as one decision are folded together (`Collapse`), and what is left is worded
/// (`InstructionText`) with what the signs say (`RoadSigns`: exits, destinations, lanes).
public struct GuidanceBuilder {
    public let graph: RoadGraph
    public let text: InstructionText
    public let drivingSide: DrivingSide

    public init(graph: RoadGraph, text: InstructionText, drivingSide: DrivingSide = .right) {
        self.graph = graph
        self.text = text
        self.drivingSide = drivingSide
    }

    var facts: RoadFacts { RoadFacts(graph: graph) }

    public func build(_ route: TimedRoute) -> Guidance { build(GuidanceRoute(route)) }

    public func build(_ route: GuidanceRoute) -> Guidance {
        let walk = RouteWalk(facts: facts, drivingSide: drivingSide)
        let collapse = Collapse(facts: facts, drivingSide: drivingSide)
        let legs = walk.steps(route).map(collapse.leg)
        var instructions: [Guidance.Instruction] = []
        var groups: [Guidance.Group] = []
        for (li, steps) in legs.enumerated() {
            let first = instructions.count
            for s in steps { instructions.append(instruction(s)) }
            let leg = route.legs[li]
            groups.append(Guidance.Group(firstInstruction: first, lastInstruction: instructions.count - 1, lengthMeters: leg.lengthMeters,
                                         message: text.group(from: facts.name(leg.pieces[0].arc).display, roads: mainRoads(leg),
                                                             toWaypoint: li < route.legs.count - 1)))
        }
        combine(&instructions)
        return Guidance(instructions: instructions, groups: groups, steps: steps(instructions, route), drivingSide: drivingSide,
                        language: text.language)
    }

    func instruction(_ s: RawStep) -> Guidance.Instruction {
        let name = facts.name(s.toArc)
        let place = s.isWaypoint
        var sign = Signpost()
        if !place {
            let signs = graph.signs(of: s.toArc)
            sign.destinationRefs = signs.destinationRefs
            sign.destinations = signs.destinations.isEmpty && !signs.destinationStreet.isEmpty ? [signs.destinationStreet] : signs.destinations
            if s.kind == .offRamp || s.kind == .fork {
                sign.exitNumber = signs.exitNumber.isEmpty ? s.exitSign?.ref ?? "" : signs.exitNumber
                sign.exitName = s.exitSign?.name ?? ""
            }
        }
        let intoMotorway = !s.fromArc.isNone && [.motorway, .trunk].contains(facts.roadClass(s.toArc)) && facts.roadClass(s.fromArc).isLink
        var wording = InstructionText.Wording(kind: s.kind, direction: s.direction, street: name, sign: sign,
                                              exitNumber: s.roundabout?.exitNumber ?? 0, rotaryName: s.roundabout?.rotaryName ?? "",
                                              arrivalSide: s.arrivalSide, intoMotorway: intoMotorway)
        let walksFrom = !s.fromArc.isNone && graph.isPushing(s.fromArc)
        let walksOn = graph.isPushing(s.toArc)
        if !place, walksFrom != walksOn { wording.walking = walksOn }
        let words: InstructionText.Text
        if s.kind == .depart && s.direction == .uTurn {
            wording.kind = .uTurn
            words = text.render(wording)
        } else {
            words = text.render(wording)
        }
        let flags = facts.flags(s.toArc)
        let mode: StepMode = flags.contains(.ferry) ? .ferry : graph.isPushing(s.toArc) ? .pushingBike : Self.mode(graph.mode)
        return Guidance.Instruction(
            offsetMeters: s.offsetMeters, elapsedSeconds: s.elapsedSeconds, point: s.point, pointIndex: s.pointIndex, leg: s.leg,
            kind: s.kind, direction: s.direction,
            maneuver: s.kind == .depart && s.direction == .uTurn ? .makeUTurn
                : Maneuver.of(s.kind, s.direction, side: s.arrivalSide, intoMotorway: intoMotorway),
            street: name.name, roadNumbers: name.refs, sign: sign, lanes: s.lanes,
            turnAngle: place || s.kind == .depart ? 0 : s.angle,
            bearingBefore: Int(s.bearingBefore.rounded()) % 360, bearingAfter: Int(s.bearingAfter.rounded()) % 360,
            roundabout: s.roundabout, mode: mode, intersections: s.intersections,
            message: words.plain,
            stepText: s.kind == .depart && s.direction != .uTurn ? text.head(bearing: s.bearingAfter, street: name, tagged: false) : words.plain,
            exitText: s.roundabout != nil && s.kind != .roundaboutTurn ? text.exitRoundabout(name) : nil,
            taggedMessage: words.tagged, combinesWithNext: false, combinedMessage: nil, taggedCombinedMessage: nil)
    }

    static func mode(_ m: TravelMode) -> StepMode {
        switch m {
        case .car, .taxi: .driving
        case .bicycle: .cycling
        case .pedestrian: .walking
        }
    }

    /// Marks instructions the next follows within 150 m (in the same leg), with both said at once.
    func combine(_ list: inout [Guidance.Instruction]) {
        for k in list.indices.dropLast() {
            let a = list[k], b = list[k + 1]
            guard a.kind != .depart, a.leg == b.leg, b.kind != .arrive, b.kind != .waypoint, b.offsetMeters - a.offsetMeters < 150 else { continue }
            let joined = text.combine(InstructionText.Text(plain: a.message, tagged: a.taggedMessage),
                                      InstructionText.Text(plain: b.message, tagged: b.taggedMessage))
            list[k].combinesWithNext = true
            list[k].combinedMessage = joined.plain
            list[k].taggedCombinedMessage = joined.tagged
        }
    }

    /// MapKit's steps: each shown instruction with the road up to the next one. The start of a
    /// later leg is no step of its own unless the route turns back there.
    func steps(_ list: [Guidance.Instruction], _ route: GuidanceRoute) -> [Guidance.Step] {
        let points = route.legs.flatMap(\.points)
        let shown = list.filter(\.isShown)
        return shown.enumerated().map { k, ins in
            let next = k + 1 < shown.count ? shown[k + 1] : ins
            let from = min(ins.pointIndex, max(0, points.count - 1)), to = min(max(next.pointIndex, ins.pointIndex), max(0, points.count - 1))
            return Guidance.Step(text: ins.stepText, distanceMeters: next.offsetMeters - ins.offsetMeters,
                                 travelTimeSeconds: next.elapsedSeconds - ins.elapsedSeconds, maneuver: ins.maneuver, street: ins.street,
                                 points: points.isEmpty ? [] : Array(points[from...to]))
        }
    }

    /// The two named roads the leg drives longest on, in driving order (like OSRM's leg summary).
    func mainRoads(_ leg: GuidanceRoute.Leg) -> [String] {
        var meters: [String: Double] = [:]
        var firstSeen: [String: Int] = [:]
        for (i, p) in leg.pieces.enumerated() {
            let label = facts.name(p.arc).display
            guard !label.isEmpty else { continue }
            meters[label, default: 0] += p.lengthMeters
            if firstSeen[label] == nil { firstSeen[label] = i }
        }
        return meters.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(2).map(\.key)
            .sorted { firstSeen[$0]! < firstSeen[$1]! }
    }
}

extension Guidance.Instruction {
    /// Shown in TomTom's list and as a MapKit step: all but the start of a later leg that goes on
    /// the way it arrived.
    public var isShown: Bool { !(kind == .depart && leg > 0 && direction != .uTurn) }
}
