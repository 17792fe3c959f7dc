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
    /// TomTom's `guidance`; `instructionsType=coded` leaves the messages out.
    public func tomTom(withMessages: Bool) -> MapsAPI.Guidance {
        MapsAPI.Guidance(instructions: instructions.map { i in
            MapsAPI.Instruction(routeOffsetInMeters: i.offsetMeters, travelTimeInSeconds: i.elapsedSeconds, point: LatLon(rounding: i.point),
                        pointIndex: i.pointIndex, instructionType: i.maneuver.instructionType, street: i.street,
                        roadNumbers: i.roadNumbers, junctionType: i.junction?.rawValue, turnAngleInDecimalDegrees: i.turnAngleDegrees,
                        roundaboutExitNumber: i.roundaboutExit, possibleCombineWithNext: i.combinesWithNext,
                        drivingSide: drivingSide.rawValue, maneuver: i.maneuver.rawValue,
                        message: withMessages ? i.message : nil, combinedMessage: withMessages ? i.combinedMessage : nil)
        }, instructionGroups: groups.map { g in
            MapsAPI.InstructionGroup(firstInstructionIndex: g.firstInstruction, lastInstructionIndex: g.lastInstruction,
                             groupLengthInMeters: g.lengthMeters, groupMessage: g.message)
        })
    }

    /// The steps as Wayfinder's route documents carry them (MKRoute.Step's fields).
    public var tomTomSteps: [RouteStepBody] {
        steps.map { s in
            RouteStepBody(instruction: s.text, distanceInMeters: s.distanceMeters, travelTimeInSeconds: s.travelTimeSeconds,
                          maneuver: s.maneuver.rawValue, street: s.street, points: s.points.map(LatLon.init(rounding:)))
        }
    }
}
