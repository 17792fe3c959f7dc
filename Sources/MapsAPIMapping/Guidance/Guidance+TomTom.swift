public import MapsAPI
public import Directions
public import GeoCore

extension LatLon {
    /// A point as TomTom's routing answers write it: degrees rounded to 1e-5 (about a metre).
    public init(rounding c: Coordinate) {
        self.init(latitude: (c.latitude * 1e5).rounded() / 1e5, longitude: (c.longitude * 1e5).rounded() / 1e5)
    }
}

extension Directions.Guidance {
    /// How TomTom's `instructionsType` wants the texts.
    public enum Messages: Sendable { case none, text, tagged }

    /// TomTom's `guidance`: the shown instructions (one DEPART; a later leg's start only where the
    /// route turns back there), groups indexing them.
    public func tomTom(messages: Messages) -> MapsAPI.Guidance {
        var index: [Int: Int] = [:]
        var shown: [MapsAPI.Instruction] = []
        for (k, i) in instructions.enumerated() where i.isShown {
            index[k] = shown.count
            let tagged = messages == .tagged
            shown.append(MapsAPI.Instruction(
                routeOffsetInMeters: Int(i.offsetMeters.rounded()), travelTimeInSeconds: Int(i.elapsedSeconds.rounded()),
                point: LatLon(rounding: i.point), pointIndex: i.pointIndex, instructionType: i.maneuver.instructionType,
                street: i.street.isEmpty ? nil : i.street, roadNumbers: i.roadNumbers.isEmpty ? nil : i.roadNumbers,
                junctionType: junctionType(i), turnAngleInDecimalDegrees: turnAngle(i),
                roundaboutExitNumber: i.roundabout?.exitNumber, possibleCombineWithNext: i.combinesWithNext,
                drivingSide: drivingSide.rawValue, maneuver: i.maneuver.rawValue,
                message: messages == .none ? nil : (tagged ? i.taggedMessage : i.message),
                combinedMessage: messages == .none ? nil : (tagged ? i.taggedCombinedMessage : i.combinedMessage),
                signpostText: i.sign.destinationText.isEmpty ? nil : i.sign.destinationText,
                exitNumber: i.sign.exitNumber.isEmpty ? nil : i.sign.exitNumber))
        }
        return MapsAPI.Guidance(instructions: shown, instructionGroups: groups.compactMap { g in
            let members = (g.firstInstruction...g.lastInstruction).compactMap { index[$0] }
            guard let first = members.first, let last = members.last else { return nil }
            return MapsAPI.InstructionGroup(firstInstructionIndex: first, lastInstructionIndex: last,
                                            groupLengthInMeters: Int(g.lengthMeters.rounded()), groupMessage: messages == .none ? nil : g.message)
        })
    }

    /// REGULAR at turns, BIFURCATION at forks and exits, ROUNDABOUT at roundabouts; none at waypoints.
    func junctionType(_ i: Instruction) -> String? {
        switch i.kind {
        case .depart, .arrive, .waypoint: nil
        case .roundabout, .rotary, .roundaboutTurn: "ROUNDABOUT"
        case .fork, .offRamp: "BIFURCATION"
        default: "REGULAR"
        }
    }

    /// TomTom's angle: 0 straight, + right, − left, 180 back; at a bifurcation its sign is the side kept.
    func turnAngle(_ i: Instruction) -> Int? {
        switch i.kind {
        case .depart, .arrive, .waypoint: return nil
        case .uTurn: return 180
        case .fork, .offRamp:
            let magnitude = max(1, Int(abs(i.turnAngle).rounded()))
            return i.direction.isLeft ? -magnitude : magnitude
        default: return Int(i.turnAngle.rounded())
        }
    }

    /// The steps as Wayfinder's route documents carry them (MKRoute.Step's fields).
    public var tomTomSteps: [RouteStepBody] {
        steps.map { s in
            RouteStepBody(instruction: s.text, distanceInMeters: Int(s.distanceMeters.rounded()), travelTimeInSeconds: Int(s.travelTimeSeconds.rounded()),
                          maneuver: s.maneuver.rawValue, street: s.street.isEmpty ? nil : s.street, points: s.points.map(LatLon.init(rounding:)))
        }
    }

    /// TomTom's LANES sections: for each instruction with lane markings, the stretch just before it.
    public var laneSections: [RouteSection] {
        instructions.filter { !$0.lanes.isEmpty }.map { i in
            var section = RouteSection(startPointIndex: max(0, i.pointIndex - 1), endPointIndex: i.pointIndex, sectionType: "LANES")
            section.lanes = i.lanes.map { lane in
                let directions = lane.indications.compactMap(Self.tomTomLaneDirection)
                let follow = lane.valid ? (Self.tomTomLaneDirection(Self.followed(lane, i.direction)) ?? directions.first) : nil
                return SectionLane(directions: directions.isEmpty ? ["STRAIGHT"] : directions, follow: follow)
            }
            return section
        }
    }

    /// The marking of a valid lane the route follows (the one matching its turn, else the first).
    static func followed(_ lane: Lane, _ d: TurnDirection) -> String {
        let wanted: [String]
        switch d {
        case .straight: wanted = ["through", "none"]
        case .slightRight: wanted = ["slight_right", "right"]
        case .right: wanted = ["right"]
        case .sharpRight: wanted = ["sharp_right", "right"]
        case .slightLeft: wanted = ["slight_left", "left"]
        case .left: wanted = ["left"]
        case .sharpLeft: wanted = ["sharp_left", "left"]
        case .uTurn: wanted = ["reverse"]
        }
        return wanted.first(where: lane.indications.contains) ?? lane.indications.first ?? "none"
    }

    static func tomTomLaneDirection(_ osm: String) -> String? {
        switch osm {
        case "through", "none": "STRAIGHT"
        case "slight_right", "merge_to_right": "SLIGHT_RIGHT"
        case "right": "RIGHT"
        case "sharp_right": "SHARP_RIGHT"
        case "slight_left", "merge_to_left": "SLIGHT_LEFT"
        case "left": "LEFT"
        case "sharp_left": "SHARP_LEFT"
        case "reverse": "LEFT_U_TURN"
        default: nil
        }
    }
}
