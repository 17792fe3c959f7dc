public import RoadNetwork

/// TomTom's maneuver codes (the 33 of the Calculate Route guidance).
public enum Maneuver: String, Sendable, CaseIterable {
    case arrive = "ARRIVE", arriveLeft = "ARRIVE_LEFT", arriveRight = "ARRIVE_RIGHT", depart = "DEPART"
    case straight = "STRAIGHT", keepRight = "KEEP_RIGHT", bearRight = "BEAR_RIGHT", turnRight = "TURN_RIGHT"
    case sharpRight = "SHARP_RIGHT", keepLeft = "KEEP_LEFT", bearLeft = "BEAR_LEFT", turnLeft = "TURN_LEFT"
    case sharpLeft = "SHARP_LEFT", makeUTurn = "MAKE_UTURN", enterMotorway = "ENTER_MOTORWAY"
    case enterFreeway = "ENTER_FREEWAY", enterHighway = "ENTER_HIGHWAY", takeExit = "TAKE_EXIT"
    case motorwayExitLeft = "MOTORWAY_EXIT_LEFT", motorwayExitRight = "MOTORWAY_EXIT_RIGHT", takeFerry = "TAKE_FERRY"
    case roundaboutCross = "ROUNDABOUT_CROSS", roundaboutRight = "ROUNDABOUT_RIGHT", roundaboutLeft = "ROUNDABOUT_LEFT"
    case roundaboutBack = "ROUNDABOUT_BACK", tryMakeUTurn = "TRY_MAKE_UTURN", follow = "FOLLOW"
    case switchParallelRoad = "SWITCH_PARALLEL_ROAD", switchMainRoad = "SWITCH_MAIN_ROAD", entranceRamp = "ENTRANCE_RAMP"
    case waypointLeft = "WAYPOINT_LEFT", waypointRight = "WAYPOINT_RIGHT", waypointReached = "WAYPOINT_REACHED"

    /// TomTom's code for a decision. `side` is where an arrival's destination lies (nil: on the road).
    static func of(_ kind: ManeuverKind, _ direction: TurnDirection, side: TurnDirection? = nil, intoMotorway: Bool = false) -> Maneuver {
        switch kind {
        case .depart: return .depart
        case .arrive: return side.map { $0.isLeft ? .arriveLeft : .arriveRight } ?? .arrive
        case .waypoint: return side.map { $0.isLeft ? .waypointLeft : .waypointRight } ?? .waypointReached
        case .ferry: return .takeFerry
        case .uTurn: return .makeUTurn
        case .merge: return intoMotorway ? .enterMotorway : turn(direction)
        case .onRamp: return .entranceRamp
        case .offRamp: return direction.isLeft ? .motorwayExitLeft : .motorwayExitRight
        case .fork: return direction.isLeft ? .keepLeft : direction.isRight ? .keepRight : .straight
        case .roundabout, .rotary, .roundaboutTurn:
            switch direction {
            case .straight, .slightLeft, .slightRight: return .roundaboutCross
            case .right, .sharpRight: return .roundaboutRight
            case .left, .sharpLeft: return .roundaboutLeft
            case .uTurn: return .roundaboutBack
            }
        case .newName: return direction == .straight ? .straight : turn(direction)
        case .turn, .continue, .endOfRoad: return turn(direction)
        }
    }

    static func turn(_ d: TurnDirection) -> Maneuver {
        switch d {
        case .uTurn: .makeUTurn
        case .sharpRight: .sharpRight
        case .right: .turnRight
        case .slightRight: .bearRight
        case .straight: .straight
        case .slightLeft: .bearLeft
        case .left: .turnLeft
        case .sharpLeft: .sharpLeft
        }
    }

    /// TomTom's `instructionType` for this maneuver.
    public var instructionType: String {
        switch self {
        case .depart: "LOCATION_DEPARTURE"
        case .arrive, .arriveLeft, .arriveRight: "LOCATION_ARRIVAL"
        case .waypointLeft, .waypointRight, .waypointReached: "LOCATION_WAYPOINT"
        case .straight, .follow: "ROAD_CHANGE"
        default: "TURN"
        }
    }
}
