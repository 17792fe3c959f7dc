import RoadNetwork

extension Profile {
    /// Walking at 5 km/h (after OSRM's foot.lua), on anything but motorways and motorroads, and on
    /// trunk roads only where the country's law opens them (`CountryAccess`);
    /// ignoring one-ways and turn restrictions; steps at half pace.
    public static let pedestrian = Profile(
        mode: .pedestrian,
        highwaySpeedsKmh: [
            "primary": 5, "primary_link": 5, "secondary": 5, "secondary_link": 5, "tertiary": 5, "tertiary_link": 5,
            "unclassified": 5, "residential": 5, "road": 5, "living_street": 5, "service": 5, "track": 5, "path": 5,
            "steps": 2.5, "pedestrian": 5, "footway": 5, "platform": 5, "corridor": 5, "pier": 5, "bridleway": 5,
        ],
        countryHighwaySpeedsKmh: ["trunk": 5, "trunk_link": 5],
        routeSpeedsKmh: ["ferry": 5],
        accessGrantedSpeedKmh: 5,
        excludedTags: ["impassable": ["yes"], "motorroad": ["yes"], "highway": ["construction", "proposed"]],
        maxspeedFactor: nil,
        accessKeys: ["access", "foot"],
        obeysOneway: false,
        onewayKeys: ["oneway:foot"],
        passableBarriers: [],
        blockingBarriers: ["yes", "wall", "fence", "hedge", "retaining_wall", "city_wall", "ditch", "debris"],
        restrictionKeys: [],
        restrictionExemptions: [],
        turnCosts: TurnCostModel(turnPenaltySeconds: 0, turnBias: 1, uTurnPenaltySeconds: 0,
                                 trafficSignalSeconds: 2, uTurns: .anywhere)
    )
}
