import RoadNetwork

extension Profile {
    /// Driving a private car. Speeds, caps and turn costs follow OSRM's car.lua (v5/v26) so that
    /// durations can be compared with OSRM's on the same extract.
    public static let car = Profile(
        mode: .car,
        highwaySpeedsKmh: carSpeeds,
        // car.lua drives alleys, parking aisles and driveways at the `service` speed and only
        // weighs them at half of it (`servicePenalties`): they are not shortcuts, but the time is real.
        serviceSpeedsKmh: ["emergency_access": 0],
        bridgeSpeedsKmh: ["movable": 5],
        ratePenalties: true,
        servicePenalties: ["alley": 0.5, "parking": 0.5, "parking_aisle": 0.5, "driveway": 0.5, "drive-through": 0.5, "drive-thru": 0.5],
        routeSpeedsKmh: ["ferry": 5, "shuttle_train": 10],
        accessGrantedSpeedKmh: 10,
        excludedTags: carExclusions,
        openConstructionValues: ["no", "widening", "minor"],
        maxspeedFactor: 0.8,
        surfaceSpeedCapsKmh: surfaceCaps,
        tracktypeSpeedCapsKmh: ["grade1": 60, "grade2": 40, "grade3": 30, "grade4": 25, "grade5": 20],
        smoothnessSpeedCapsKmh: ["intermediate": 80, "bad": 40, "very_bad": 20, "horrible": 10, "very_horrible": 5, "impassable": 0],
        accessKeys: ["access", "vehicle", "motor_vehicle", "motorcar"],
        obeysOneway: true,
        onewayKeys: ["oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle", "oneway"],
        impliedOnewayHighways: ["motorway", "motorway_link"],
        impliedOnewayJunctions: ["roundabout", "circular"],
        passableBarriers: ["cattle_grid", "border_control", "toll_booth", "sally_port", "gate", "lift_gate", "no",
                           "entrance", "height_restrictor", "arch", "checkpoint", "swing_gate"],
        barrierPenaltySeconds: ["gate": 60, "lift_gate": 60],
        // OSRM car.lua (lib/obstacles.lua): `traffic_signals:direction`, else `direction`.
        signalDirectionKeys: ["traffic_signals:direction", "direction"],
        yieldSeconds: ["stop": 2, "give_way": 1],
        restrictionKeys: ["restriction", "restriction:motor_vehicle", "restriction:motorcar", "restriction:vehicle"],
        restrictionExemptions: ["motorcar", "motor_vehicle", "vehicle"],
        turnCosts: TurnCostModel(turnPenaltySeconds: 7.5, turnBias: 1.075, uTurnPenaltySeconds: 20,
                                 trafficSignalSeconds: 2, uTurns: .deadEndsOnly, oncomingTurnSeconds: 2,
                                 followsDrivingSide: true)
    )

    static let carSpeeds: [String: Double] = [
        "motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40, "primary": 65, "primary_link": 30,
        "secondary": 55, "secondary_link": 25, "tertiary": 40, "tertiary_link": 20, "unclassified": 25,
        "residential": 25, "living_street": 10, "service": 15,
    ]

    static let carExclusions: [String: Set<String>] = [
        "area": ["yes"], "oneway": ["reversible", "alternating"], "impassable": ["yes"], "status": ["impassable"],
        "highway": ["construction", "proposed", "steps"],
    ]

    /// Speed caps by surface, shared by the motor profiles (OSRM car.lua's surface_speeds).
    static let surfaceCaps: [String: Double] = [
        "cement": 80, "compacted": 80, "fine_gravel": 80, "paving_stones": 60, "metal": 60, "bricks": 60,
        "grass": 40, "wood": 40, "sett": 40, "grass_paver": 40, "gravel": 40, "unpaved": 40, "ground": 40,
        "dirt": 40, "pebblestone": 40, "tartan": 40, "cobblestone": 30, "clay": 30, "earth": 20, "stone": 20,
        "rocky": 20, "sand": 20, "mud": 10,
    ]
}
