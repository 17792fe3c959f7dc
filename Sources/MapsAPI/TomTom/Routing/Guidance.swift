public struct Guidance: Codable, Sendable {
    public var instructions: [Instruction]
    public var instructionGroups: [InstructionGroup]
    public init(instructions: [Instruction], instructionGroups: [InstructionGroup]) {
        self.instructions = instructions
        self.instructionGroups = instructionGroups
    }
}

public struct Instruction: Codable, Sendable, Equatable {
    public var routeOffsetInMeters: Int
    public var travelTimeInSeconds: Int
    public var point: LatLon
    public var pointIndex: Int
    public var instructionType: String
    public var street: String?
    public var roadNumbers: [String]?
    /// What the sign says: destinations and their road numbers ("A 5: Darmstadt, Frankfurt").
    public var signpostText: String?
    /// The motorway exit's number (`junction:ref`).
    public var exitNumber: String?
    public var countryCode: String?
    public var junctionType: String?
    public var turnAngleInDecimalDegrees: Int?
    public var roundaboutExitNumber: Int?
    public var possibleCombineWithNext: Bool
    public var drivingSide: String
    public var maneuver: String
    public var message: String?
    public var combinedMessage: String?

    public init(routeOffsetInMeters: Int, travelTimeInSeconds: Int, point: LatLon, pointIndex: Int, instructionType: String,
                street: String?, roadNumbers: [String]?, junctionType: String?, turnAngleInDecimalDegrees: Int?,
                roundaboutExitNumber: Int?, possibleCombineWithNext: Bool, drivingSide: String, maneuver: String,
                message: String?, combinedMessage: String?, signpostText: String? = nil, exitNumber: String? = nil) {
        self.routeOffsetInMeters = routeOffsetInMeters
        self.travelTimeInSeconds = travelTimeInSeconds
        self.point = point
        self.pointIndex = pointIndex
        self.instructionType = instructionType
        self.street = street
        self.roadNumbers = roadNumbers
        self.signpostText = signpostText
        self.exitNumber = exitNumber
        self.junctionType = junctionType
        self.turnAngleInDecimalDegrees = turnAngleInDecimalDegrees
        self.roundaboutExitNumber = roundaboutExitNumber
        self.possibleCombineWithNext = possibleCombineWithNext
        self.drivingSide = drivingSide
        self.maneuver = maneuver
        self.message = message
        self.combinedMessage = combinedMessage
    }
}

public struct InstructionGroup: Codable, Sendable, Equatable {
    public var firstInstructionIndex: Int
    public var lastInstructionIndex: Int
    public var groupLengthInMeters: Int
    public var groupMessage: String?
    public init(firstInstructionIndex: Int, lastInstructionIndex: Int, groupLengthInMeters: Int, groupMessage: String?) {
        self.firstInstructionIndex = firstInstructionIndex
        self.lastInstructionIndex = lastInstructionIndex
        self.groupLengthInMeters = groupLengthInMeters
        self.groupMessage = groupMessage
    }
}

/// One step of a route as MKRoute.Step describes it.
public struct RouteStepBody: Codable, Sendable, Equatable {
    public var instruction: String
    public var distanceInMeters: Int
    public var travelTimeInSeconds: Int
    public var maneuver: String
    public var street: String?
    public var points: [LatLon]
    public init(instruction: String, distanceInMeters: Int, travelTimeInSeconds: Int, maneuver: String, street: String?,
                points: [LatLon]) {
        self.instruction = instruction
        self.distanceInMeters = distanceInMeters
        self.travelTimeInSeconds = travelTimeInSeconds
        self.maneuver = maneuver
        self.street = street
        self.points = points
    }
}
