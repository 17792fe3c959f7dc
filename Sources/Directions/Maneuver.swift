/// TomTom's maneuver codes (the 33 of the Calculate Route guidance), with the ones Wayfinder emits.
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

    /// The maneuver for a plain turn of `angle` degrees (positive = right).
    static func turn(angle: Double) -> Maneuver {
        let a = abs(angle)
        let right = angle > 0
        switch a {
        case ..<25: return .straight
        case ..<60: return right ? .bearRight : .bearLeft
        case ..<125: return right ? .turnRight : .turnLeft
        case ..<170: return right ? .sharpRight : .sharpLeft
        default: return .makeUTurn
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
