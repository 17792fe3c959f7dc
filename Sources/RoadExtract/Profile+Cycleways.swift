public import OSMPBF

/// The rules of riding and pushing a bicycle (after OSRM's bicycle.lua): lanes on roads a
/// bicycle may not otherwise use, separately mapped cycleways, cycle streets, dismount zones,
/// walking against one-ways and carrying the bicycle on steps. Each reads a table of `Profile`;
/// profiles that leave the tables empty are not affected.
extension Profile {
    static func matches(_ tags: Tags, _ table: [String: Set<String>]) -> Bool {
        table.contains { key, values in tags[key].map(values.contains) ?? false }
    }

    /// A road whose cycleway is its own way (`cycleway=separate`) is left to that way, unless
    /// access is granted on the road itself (`bicycle=yes`).
    func isSeparatelyMapped(_ tags: Tags) -> Bool {
        !separateTags.isEmpty && Self.matches(tags, separateTags) && !Self.matches(tags, separateOverrides)
    }

    /// Which directions of a way a cycle lane or track serves (OSRM bicycle.lua's cycleway handler,
    /// with the OSM wiki's `cycleway:SIDE:oneway` and `cycleway:both`). `forward`/`backward` are the
    /// directions the one-way rules allow. On a two-way road a lane on the right runs with the way
    /// and one on the left against it (right-hand traffic), and `cycleway=*` serves both; on a
    /// one-way road a lane runs with the traffic unless its `:oneway` says `-1` (against) or `no`
    /// (both ways). `opposite*` runs against the traffic: on a one-way road it opens both directions.
    func cycleLanes(_ tags: Tags, forward: Bool, backward: Bool) -> (forward: Bool, backward: Bool) {
        guard !cycleLaneValues.isEmpty else { return (false, false) }
        let twoWay = forward && backward
        // The direction traffic goes on a one-way road (forward unless it is `oneway=-1`).
        let traffic = forward
        var f = false, b = false
        func serve(withWay: Bool) { if withWay { f = true } else { b = true } }
        if let v = tags["cycleway"] {
            if cycleLaneValues.contains(v) {
                if twoWay { f = true; b = true } else { serve(withWay: traffic) }
            } else if oppositeLaneValues.contains(v) {
                f = true; b = true
            }
        }
        for side in ["right", "left"] {
            guard let v = tags["cycleway:" + side] ?? tags["cycleway:both"] else { continue }
            // With the way: the right side on a two-way road, the traffic's side on a one-way road.
            let natural = twoWay ? side == "right" : traffic
            if cycleLaneValues.contains(v) {
                switch tags["cycleway:\(side):oneway"] ?? tags["cycleway:both:oneway"] {
                case "-1": serve(withWay: !natural)
                case "no": f = true; b = true
                default: serve(withWay: natural)
                }
            } else if oppositeLaneValues.contains(v) {
                if twoWay { serve(withWay: !natural) } else { f = true; b = true }
            }
        }
        return (f, b)
    }

    /// Whether a cycle street or cycle road implies access where no access key says otherwise.
    func impliedAccess(_ tags: Tags) -> Bool {
        !impliedAccessTags.isEmpty && Self.matches(tags, impliedAccessTags)
    }

    /// A way made for cycling (`WayFlags.cycleFriendly`): a cycleway, a cycle street, a road with
    /// a lane or track (`hasLane`), or `bicycle=designated`; only for profiles with lane tables.
    func isCycleFriendly(_ tags: Tags, hasLane: Bool) -> Bool {
        guard !cycleLaneValues.isEmpty else { return false }
        return tags["highway"] == "cycleway" || tags["bicycle"] == "designated" || hasLane || impliedAccess(tags)
    }

    /// Motor traffic at `fastTrafficKmh` or more by the way's `maxspeed`; only for profiles with lane tables.
    func isBesideFastTraffic(_ tags: Tags) -> Bool {
        guard !cycleLaneValues.isEmpty, let limit = tags["maxspeed"].flatMap(MaxSpeed.kmh) else { return false }
        return limit >= Self.fastTrafficKmh
    }

    static let fastTrafficKmh = 60.0

    /// Whether a relation's tags make its ways cycle-friendly for this profile (`route=bicycle`).
    func isCycleRoute(_ relationTags: Tags) -> Bool {
        !cycleRouteTags.isEmpty && Self.matches(relationTags, cycleRouteTags)
    }

    func isDismount(_ tags: Tags) -> Bool {
        !dismountTags.isEmpty && Self.matches(tags, dismountTags)
    }

    /// Walking pace against a one-way where walking is allowed; nil for roundabouts (walking round
    /// one the wrong way is not a route), `foot=no`, and modes that never walk.
    func pushAgainstOnewaySpeed(_ tags: Tags) -> Double? {
        guard let walk = walkingSpeedKmh, tags["foot"] != "no" else { return nil }
        if let junction = tags["junction"], impliedOnewayJunctions.contains(junction) { return nil }
        return walk
    }

    /// Steps the vehicle is taken on by hand: with a ramp at the pushing speed, as a short flight
    /// carried at `carriedStepsSpeedKmh` plus a penalty; nil when the flight is too long to carry.
    func carriedSteps(_ tags: Tags) -> (speedKmh: Double, penaltySeconds: Double)? {
        if Self.matches(tags, stepRampTags) { return (pushingSpeedsKmh["steps"] ?? carriedStepsSpeedKmh, 0) }
        if let limit = carriedStepsMaxCount, let count = tags["step_count"].flatMap({ Int($0) }), count > limit { return nil }
        return (carriedStepsSpeedKmh, carriedStepsPenaltySeconds)
    }
}
