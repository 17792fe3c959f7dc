import RoadNetwork

extension Profile {
    /// Cycling, after OSRM's bike.lua: 15 km/h on roads, pushing at walking pace where cycling is
    /// not allowed (footways, pedestrian areas, steps), no motorways or trunk roads unless tagged.
    public static let bicycle = Profile(
        mode: .bicycle,
        highwaySpeedsKmh: [
            "cycleway": 15, "primary": 15, "primary_link": 15, "secondary": 15, "secondary_link": 15,
            "tertiary": 15, "tertiary_link": 15, "residential": 15, "unclassified": 15, "living_street": 15,
            "road": 15, "service": 15, "track": 12, "path": 12,
        ],
        pushingSpeedsKmh: ["footway": 4, "pedestrian": 4, "steps": 2, "platform": 4, "corridor": 4, "bridleway": 4],
        routeSpeedsKmh: ["ferry": 5, "shuttle_train": 10],
        accessGrantedSpeedKmh: 15,
        excludedTags: ["area": ["yes"], "impassable": ["yes"], "highway": ["construction", "proposed"]],
        maxspeedFactor: nil,
        surfaceSpeedCapsKmh: ["cobblestone": 10, "sett": 10, "gravel": 10, "ground": 10, "dirt": 8, "grass": 6,
                              "mud": 4, "sand": 3, "pebblestone": 8, "unpaved": 10, "fine_gravel": 12, "compacted": 14],
        tracktypeSpeedCapsKmh: ["grade3": 10, "grade4": 8, "grade5": 6],
        smoothnessSpeedCapsKmh: ["bad": 10, "very_bad": 6, "horrible": 4, "very_horrible": 3, "impassable": 0],
        accessKeys: ["access", "vehicle", "bicycle"],
        obeysOneway: true,
        onewayKeys: ["oneway:bicycle", "oneway"],
        impliedOnewayHighways: [],
        impliedOnewayJunctions: ["roundabout", "circular"],
        contraflowTags: [
            "cycleway": ["opposite", "opposite_lane", "opposite_track", "opposite_share_busway"],
            "cycleway:left": ["opposite", "opposite_lane", "opposite_track"],
            "cycleway:right": ["opposite", "opposite_lane", "opposite_track"],
        ],
        passableBarriers: [],
        blockingBarriers: ["yes", "wall", "fence", "hedge", "retaining_wall", "city_wall", "ditch", "debris"],
        restrictionKeys: ["restriction", "restriction:vehicle", "restriction:bicycle"],
        restrictionExemptions: ["bicycle", "vehicle"],
        turnCosts: TurnCostModel(turnPenaltySeconds: 6, turnBias: 1.4, uTurnPenaltySeconds: 5,
                                 trafficSignalSeconds: 2, uTurns: .anywhere)
    )
}
