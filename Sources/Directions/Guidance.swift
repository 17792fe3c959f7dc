public import GeoCore
public import Foundation

/// Turn-by-turn guidance for one route, in no wire format: the instructions at the junctions
/// where the driver must act, one group per leg, and MapKit-style steps between instructions.
public struct Guidance: Sendable {
    public var instructions: [Instruction]
    public var groups: [Group]
    public var steps: [Step]
    public var drivingSide: DrivingSide

    /// What to do at one point of the route.
    public struct Instruction: Sendable, Equatable {
        /// Metres from the start of the route.
        public var offsetMeters: Int
        /// Seconds from the start of the route.
        public var elapsedSeconds: Int
        public var point: Coordinate
        /// Index of `point` among the route's points (legs joined, each leg's points counted whole).
        public var pointIndex: Int
        public var maneuver: Maneuver
        public var street: String?
        public var roadNumbers: [String]?
        public var junction: Junction?
        /// Degrees from the arriving direction to the leaving one (+ = right).
        public var turnAngleDegrees: Int?
        public var roundaboutExit: Int?
        /// The next instruction follows within 150 m, so both can be said at once.
        public var combinesWithNext: Bool
        public var message: String
        public var combinedMessage: String?
    }

    /// The kind of junction an instruction is at.
    public enum Junction: String, Sendable {
        case regular = "REGULAR", bifurcation = "BIFURCATION", roundabout = "ROUNDABOUT"
    }

    /// The instructions of one leg.
    public struct Group: Sendable, Equatable {
        public var firstInstruction: Int
        public var lastInstruction: Int
        public var lengthMeters: Int
        public var message: String?
    }

    /// One step as MKRoute.Step has it: an instruction and the stretch of road up to the next.
    public struct Step: Sendable, Equatable {
        public var text: String
        public var distanceMeters: Int
        public var travelTimeSeconds: Int
        public var maneuver: Maneuver
        public var street: String?
        public var points: [Coordinate]
    }
}

/// The side of the road traffic keeps to.
public enum DrivingSide: String, Sendable {
    case left = "LEFT", right = "RIGHT"

    /// The side in the country of a dataset's time zone (the dataset knows no country).
    public init(timeZone zone: TimeZone) {
        let left = ["Europe/London", "Europe/Dublin", "Europe/Malta", "Asia/Nicosia", "Asia/Tokyo", "Asia/Kolkata", "Asia/Hong_Kong",
                    "Asia/Singapore", "Asia/Bangkok", "Africa/Johannesburg", "Africa/Nairobi", "Pacific/Auckland"]
        self = left.contains(zone.identifier) || zone.identifier.hasPrefix("Australia/") ? .left : .right
    }
}
