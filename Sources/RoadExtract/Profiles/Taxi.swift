import RoadNetwork

extension Profile {
    /// A taxi: a car that may also use ways and lanes reserved for taxis or public service vehicles
    /// (`taxi=yes`, `psv=yes`, `highway=busway`), including contraflow bus lanes tagged
    /// `oneway:psv=no` or `busway=opposite_lane` (where such lanes admit taxis, as psv lanes do).
    public static let taxi: Profile = {
        var p = Profile.car
        p.mode = .taxi
        p.highwaySpeedsKmh["busway"] = 40
        p.accessKeys = ["access", "vehicle", "motor_vehicle", "motorcar", "psv", "taxi"]
        p.psvKeys = ["psv", "taxi"]
        p.onewayKeys = ["oneway:taxi", "oneway:psv", "oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle", "oneway"]
        p.contraflowTags = ["busway": ["opposite_lane"], "busway:left": ["opposite_lane"], "busway:right": ["opposite_lane"]]
        p.restrictionExemptions = ["motorcar", "motor_vehicle", "vehicle", "psv", "taxi"]
        return p
    }()
}
