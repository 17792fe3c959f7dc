public import RoadNetwork
import OSMPBF

/// A direction of a way that is open or closed by the time of day.
public struct ArcCondition: Sendable, Equatable {
    /// The weekly schedule (`ConditionalTag`), as text.
    public var schedule: String
    public var rule: ConditionalRules.ArcRule
}

/// The conditional tags of a way a profile reads: `oneway:conditional` (the profile's one-way keys)
/// and `access:conditional` (its access keys, `motor_vehicle:conditional`, `motorcar:conditional`, …,
/// and their per-direction forms such as `motor_vehicle:forward:conditional`).
///
/// Supported: a one-way in force during a schedule (`oneway:conditional=yes @ (…)`, `-1`), a one-way
/// lifted during a schedule (`oneway:conditional=no @ (…)` on a one-way road: the reverse direction
/// exists, open only then), and a road closed to the mode during a schedule (`…:conditional=no @ (…)`
/// and the other denying values). A road opened to the mode during a schedule (`yes @ …` on
/// `access=no`), `maxspeed:conditional` and conditions `ConditionalTag` does not read are counted as
/// unsupported and treated as off: the unconditional tags alone decide.
extension Profile {
    struct ConditionalDirections {
        var forward: ArcCondition?
        var backward: ArcCondition?
        var unsupported = 0
    }

    /// The access condition that decides one direction: the most specific access key present decides,
    /// plain or conditional, its directional form (`motor_vehicle:forward:conditional`) first.
    func accessCondition(_ tags: Tags, direction: String) -> String? {
        for key in accessKeys.reversed() {
            if let text = tags[key + ":" + direction + ":conditional"] { return text }
            if tags[key + ":" + direction] != nil { return nil }
            if let text = tags[key + ":conditional"] { return text }
            if tags[key] != nil { return nil }
        }
        return nil
    }

    /// The one-way conditions, given which directions the unconditional tags allow.
    func conditionalDirections(_ tags: Tags, forward: Bool, backward: Bool) -> ConditionalDirections {
        var out = ConditionalDirections()
        guard obeysOneway, let text = onewayKeys.lazy.compactMap({ tags[$0 + ":conditional"] }).first else { return out }
        guard case .supported(let value, let schedule) = ConditionalTag.read(text) else {
            out.unsupported += 1
            return out
        }
        switch (value, forward, backward) {
        case ("yes", true, true), ("true", true, true), ("1", true, true):
            out.backward = ArcCondition(schedule: schedule, rule: .closedWhileActive)
        case ("-1", true, true), ("reverse", true, true):
            out.forward = ArcCondition(schedule: schedule, rule: .closedWhileActive)
        case ("no", true, false), ("false", true, false):
            out.backward = ArcCondition(schedule: schedule, rule: .openWhileActive)
        case ("no", false, true), ("false", false, true):
            out.forward = ArcCondition(schedule: schedule, rule: .openWhileActive)
        default:
            out.unsupported += 1
        }
        return out
    }

    /// Adds the one-way and access conditions to a verdict.
    func applyConditions(_ tags: Tags, _ directions: ConditionalDirections, to verdict: inout WayVerdict) {
        verdict.forwardCondition = verdict.forwardSpeedKmh > 0 ? directions.forward : nil
        verdict.backwardCondition = verdict.backwardSpeedKmh > 0 ? directions.backward : nil
        verdict.unsupportedConditions = directions.unsupported
        if maxspeedFactor != nil, tags["maxspeed:conditional"] != nil { verdict.unsupportedConditions += 1 }
        var unsupportedAccess = false
        for backward in [false, true] where (backward ? verdict.backwardSpeedKmh : verdict.forwardSpeedKmh) > 0 {
            guard let text = accessCondition(tags, direction: backward ? "backward" : "forward") else { continue }
            guard case .supported(let value, let schedule) = ConditionalTag.read(text), accessDenied.contains(value) else {
                unsupportedAccess = true
                continue
            }
            let closed = ArcCondition(schedule: schedule, rule: .closedWhileActive)
            // A direction already limited by a one-way condition keeps that one (rare; counted).
            if backward {
                if verdict.backwardCondition == nil { verdict.backwardCondition = closed } else { verdict.unsupportedConditions += 1 }
            } else {
                if verdict.forwardCondition == nil { verdict.forwardCondition = closed } else { verdict.unsupportedConditions += 1 }
            }
        }
        if unsupportedAccess { verdict.unsupportedConditions += 1 }
    }
}
