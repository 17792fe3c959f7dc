import RoadNetwork

extension Profile {
    /// Cycling, after OSRM's bicycle.lua: 15 km/h on roads, walking the bicycle at 4 km/h where
    /// riding is not allowed but walking is (footways, pedestrian streets, areas along their outline, against a
    /// one-way without a contraflow exception, `bicycle=dismount`), carrying it on steps with a
    /// ramp or a short flight; no motorways or motorroads; trunk roads where the country's law opens
    /// them (`CountryAccess`), elsewhere only the directions a lane or track serves or a tag allows;
    /// a turn costs the square of its angle in right angles (bicycle.lua's turn function), a traffic
    /// signal 2 s in the directions it holds.
    public static let bicycle = Profile(
        mode: .bicycle,
        highwaySpeedsKmh: [
            "cycleway": 15, "primary": 15, "primary_link": 15, "secondary": 15, "secondary_link": 15,
            "tertiary": 15, "tertiary_link": 15, "residential": 15, "unclassified": 15, "living_street": 15,
            "road": 15, "service": 15, "track": 12, "path": 13,
        ],
        countryHighwaySpeedsKmh: ["trunk": 15, "trunk_link": 15],
        pushingSpeedsKmh: ["footway": 4, "pedestrian": 4, "steps": 2, "platform": 4, "corridor": 4, "bridleway": 4],
        routeSpeedsKmh: ["ferry": 5, "shuttle_train": 10],
        accessGrantedSpeedKmh: 15,
        excludedTags: ["impassable": ["yes"], "motorroad": ["yes"], "highway": ["construction", "proposed"]],
        maxspeedFactor: nil,
        surfaceSpeedCapsKmh: [
            "wood": 10, "metal": 10, "cobblestone:flattened": 10, "paving_stones": 10, "compacted": 10,
            "cobblestone": 7, "unpaved": 6, "fine_gravel": 10, "gravel": 6, "pebblestone": 6, "grass_paver": 6,
            "ground": 10, "dirt": 8, "earth": 6, "laterite": 5, "grass": 6, "mud": 3, "sand": 3, "woodchips": 3, "sett": 9,
        ],
        tracktypeSpeedCapsKmh: ["grade3": 10, "grade4": 8, "grade5": 6],
        smoothnessSpeedCapsKmh: ["bad": 10, "very_bad": 6, "horrible": 4, "very_horrible": 3, "impassable": 0],
        accessKeys: ["access", "vehicle", "bicycle"],
        accessDenied: ["no", "private", "agricultural", "forestry", "emergency", "military", "delivery_only", "delivery",
                       "use_sidepath"],
        obeysOneway: true,
        onewayKeys: ["oneway:bicycle", "oneway"],
        impliedOnewayHighways: [],
        impliedOnewayJunctions: ["roundabout", "circular"],
        walkingSpeedKmh: 4,
        dismountTags: ["bicycle": ["dismount"]],
        separateTags: ["cycleway": ["separate"], "cycleway:both": ["separate"], "cycleway:left": ["separate"],
                       "cycleway:right": ["separate"]],
        separateOverrides: ["bicycle": ["yes", "permissive", "designated", "destination"]],
        cycleLaneValues: ["track", "lane", "share_busway", "sharrow", "shared", "shared_lane"],
        oppositeLaneValues: ["opposite", "opposite_lane", "opposite_track", "opposite_share_busway"],
        impliedAccessTags: ["bicycle_road": ["yes"], "cyclestreet": ["yes"]],
        cycleRouteTags: ["route": ["bicycle", "mtb"]],
        stepRampTags: ["ramp:bicycle": ["yes"], "ramp:stroller": ["yes"], "ramp": ["yes"]],
        carriedStepsMaxCount: 30,
        carriedStepsSpeedKmh: 2,
        carriedStepsPenaltySeconds: 10,
        passableBarriers: [],
        blockingBarriers: ["yes", "wall", "fence", "hedge", "retaining_wall", "city_wall", "ditch", "debris"],
        // bicycle.lua (lib/traffic_signal.lua) reads only `traffic_signals:direction`, not `direction`.
        signalDirectionKeys: ["traffic_signals:direction"],
        restrictionKeys: ["restriction", "restriction:vehicle", "restriction:bicycle"],
        restrictionExemptions: ["bicycle", "vehicle"],
        // A traffic signal costs bicycle.lua's `traffic_signal_penalty`, 2 s. osrm-routed 26.10 answers
        // 19.1 s through a signal between two junctions (measured on Helsinki's): 2 s plus 17.1 s,
        // bicycle.lua's cost of a 180° turn (6 / 1.4 × 2²) on the turn it makes up to price a signal
        // off a junction, not a modelled wait, so it is not copied.
        turnCosts: TurnCostModel(turnPenaltySeconds: 6, turnBias: 1.4, uTurnPenaltySeconds: 20,
                                 trafficSignalSeconds: 2, uTurns: .anywhere, curve: .quadratic)
    )
}
