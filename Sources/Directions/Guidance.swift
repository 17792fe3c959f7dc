public import GeoCore
public import RoadNetwork

/// Turn-by-turn guidance for one route, in no wire format: one instruction per decision the
/// driver makes, one group per leg, and MapKit-style steps (an instruction and the road up to
/// the next one). TomTom's and OSRM's shapes are made from it in `MapsAPIMapping`.
public struct Guidance: Sendable {
    public var instructions: [Instruction]
    public var groups: [Group]
    public var steps: [Step]
    public var drivingSide: DrivingSide
    /// The language the texts are in (a supported tag such as `de-DE`).
    public var language: String

    /// What to do at one point of the route.
    public struct Instruction: Sendable, Equatable {
        /// Metres and seconds from the start of the route.
        public var offsetMeters: Double
        public var elapsedSeconds: Double
        public var point: Coordinate
        /// Index of `point` among the route's points (legs joined, each leg's points counted whole).
        public var pointIndex: Int
        /// Which leg the instruction belongs to.
        public var leg: Int
        public var kind: ManeuverKind
        public var direction: TurnDirection
        /// TomTom's maneuver code for this instruction.
        public var maneuver: Maneuver
        /// The road taken, as its name and road numbers (`ref` shields).
        public var street: String
        public var roadNumbers: [String]
        /// Exit number, exit name and destinations on the sign of the road taken.
        public var sign: Signpost
        /// Lanes before the junction (`turn:lanes` of the road arrived on), left to right.
        public var lanes: [Lane]
        /// Degrees from the arriving direction to the leaving one (+ right, − left, 180 back).
        public var turnAngle: Double
        /// Compass bearings (0–359) of the road arrived on and the road taken, at the point.
        public var bearingBefore: Int
        public var bearingAfter: Int
        public var roundabout: RoundaboutPassage?
        /// How the road after the instruction is travelled.
        public var mode: StepMode
        /// The junctions passed without an instruction up to the next one (for OSRM's intersections).
        public var intersections: [IntersectionSummary]
        public var message: String
        /// What a step starting here says (as MapKit's and Mapbox's steps word it): "Head north on …"
        /// at a start, else the message.
        public var stepText: String
        /// What leaving a roundabout says ("Exit the roundabout onto …"), for OSRM's separate exit step.
        public var exitText: String?
        /// The message with the parts marked up as TomTom's `tagged` instructions have them.
        public var taggedMessage: String
        /// The next instruction follows within 150 m, so both can be said at once.
        public var combinesWithNext: Bool
        public var combinedMessage: String?
        public var taggedCombinedMessage: String?
    }

    /// The instructions of one leg.
    public struct Group: Sendable, Equatable {
        public var firstInstruction: Int
        public var lastInstruction: Int
        public var lengthMeters: Double
        public var message: String
    }

    /// One step as MKRoute.Step has it: an instruction and the stretch of road up to the next.
    public struct Step: Sendable, Equatable {
        public var text: String
        public var distanceMeters: Double
        public var travelTimeSeconds: Double
        public var maneuver: Maneuver
        public var street: String
        public var points: [Coordinate]
    }
}

/// What kind of decision an instruction is, in OSRM's vocabulary (its `maneuver.type`).
public enum ManeuverKind: String, Sendable, Equatable, CaseIterable {
    case depart, arrive, waypoint
    /// A turn at a junction onto another road.
    case turn
    /// The road's name changes with no turn to make.
    case newName = "new name"
    /// A turn that stays on the same road (it turns while another way goes on).
    case `continue`
    case merge
    case onRamp = "on ramp", offRamp = "off ramp"
    case fork
    case endOfRoad = "end of road"
    case uTurn = "uturn"
    case roundabout, rotary
    /// A small roundabout taken like a junction (OSRM's `roundabout turn`).
    case roundaboutTurn = "roundabout turn"
    /// Boarding a ferry (OSRM's `notification`).
    case ferry
}

/// Which way an instruction turns (OSRM's `modifier`).
public enum TurnDirection: String, Sendable, Equatable, CaseIterable {
    case uTurn = "uturn", sharpRight = "sharp right", right, slightRight = "slight right", straight
    case slightLeft = "slight left", left, sharpLeft = "sharp left"

    /// The direction of a turn by `angle` degrees (+ right), after OSRM's bands: straight within
    /// 20°, slight to 40°, a turn to 120°, sharp beyond.
    public init(angle: Double) {
        let a = abs(angle), right = angle > 0
        switch a {
        case ...20: self = .straight
        case ...40: self = right ? .slightRight : .slightLeft
        case ...120: self = right ? .right : .left
        case ..<179.5: self = right ? .sharpRight : .sharpLeft
        default: self = .uTurn
        }
    }

    public var isLeft: Bool { self == .slightLeft || self == .left || self == .sharpLeft }
    public var isRight: Bool { self == .slightRight || self == .right || self == .sharpRight }
}

/// How a stretch of the route is travelled. Cycling adds walking the bike where it must be pushed.
public enum StepMode: String, Sendable, Equatable {
    case driving, ferry, cycling, pushingBike = "pushing bike", walking
}

/// What the sign at a junction says about the road taken.
public struct Signpost: Sendable, Equatable {
    /// The exit number (`junction:ref` of the ramp or `ref` of the motorway junction), e.g. `12` or `10, 13-15`.
    public var exitNumber: String = ""
    /// The motorway junction's name (`name` of the `highway=motorway_junction` node).
    public var exitName: String = ""
    /// Road numbers and places the road leads to (`destination:ref`, `destination`, `destination:street`).
    public var destinationRefs: [String] = []
    public var destinations: [String] = []

    public init() {}

    public var isEmpty: Bool { exitNumber.isEmpty && exitName.isEmpty && destinationRefs.isEmpty && destinations.isEmpty }

    /// What TomTom's `signpostText` and OSRM's `destinations` show: "A 5, A 67: Darmstadt, Frankfurt".
    public var destinationText: String {
        let refs = destinationRefs.joined(separator: ", "), places = destinations.joined(separator: ", ")
        switch (refs.isEmpty, places.isEmpty) {
        case (false, false): return refs + ": " + places
        case (false, true): return refs
        case (true, false): return places
        case (true, true): return ""
        }
    }
}

/// One lane before a junction: the ways painted on it and whether the route can use it.
public struct Lane: Sendable, Equatable {
    /// OSM `turn:lanes` values for this lane (`left`, `through`, `slight_right`, …; `none` when unmarked).
    public var indications: [String]
    public var valid: Bool
}

/// How a roundabout is driven: where the route leaves it and what kind it is.
public struct RoundaboutPassage: Sendable, Equatable {
    /// Where the route leaves the ring, and the distance and time round it.
    public var exitPoint: Coordinate
    public var exitPointIndex: Int
    public var ringMeters: Double
    public var ringSeconds: Double
    /// The exit taken, counting the exits passed (1 = the first).
    public var exitNumber: Int
    /// The ring's own name when it is a rotary (a large named circle, OSRM's `rotary_name`).
    public var rotaryName: String
    /// Bearings at the exit: the ring arrived on and the road taken.
    public var exitBearingBefore: Int
    public var exitBearingAfter: Int
}

/// A junction the route passes: the roads there (compass bearings), which can be entered, and
/// which are the ones arrived on and taken.
public struct IntersectionSummary: Sendable, Equatable {
    public var location: Coordinate
    public var bearings: [Int]
    public var entry: [Bool]
    public var inIndex: Int?
    public var outIndex: Int?
    public var lanes: [Lane]
}
