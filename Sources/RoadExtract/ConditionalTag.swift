public import GeoCore
import OSMPBF

/// OSM's conditional restrictions as far as they are supported: one `value @ (schedule)` per tag,
/// where the schedule is the weekly subset of opening_hours that `OpeningHours` reads strictly
/// (weekdays, day ranges and lists, hour spans, `off`); and turn restrictions limited by
/// `day_on`/`day_off`/`hour_on`/`hour_off`.
///
/// Anything else (several `;`-separated conditions, vehicle properties such as `weight>7.5`,
/// months, dates, public or school holidays, sunrise) is not supported: the conditional rule is
/// then treated as off (the unconditional tags alone decide) and counted, so that the import log
/// says how many were dropped. Holidays need the country's calendar, which the dataset does not
/// carry, so a condition naming `PH` is dropped rather than applied on the wrong days.
public enum ConditionalTag {
    /// What a conditional tag says, or why it was not used.
    public enum Reading: Equatable, Sendable {
        case supported(value: String, schedule: String)
        case unsupported
    }

    /// Reads `value @ condition` (the condition in optional parentheses).
    public static func read(_ text: String) -> Reading {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .unsupported }
        let value = parts[0].trimmingCharacters(in: " ")
        var condition = parts[1].trimmingCharacters(in: " ")
        if condition.hasPrefix("(") && condition.hasSuffix(")") { condition = String(condition.dropFirst().dropLast()).trimmingCharacters(in: " ") }
        guard !value.isEmpty, !condition.contains("("), !condition.contains(")"), schedule(condition) != nil else { return .unsupported }
        return .supported(value: value, schedule: condition)
    }

    /// The schedule a condition names, when supported.
    public static func schedule(_ condition: String) -> OpeningHours? {
        guard !condition.isEmpty, !condition.lowercased().contains(" and ") else { return nil }
        return OpeningHours(condition, strict: true)
    }

    /// The schedule of `day_on`/`day_off`/`hour_on`/`hour_off` (full or short English day names,
    /// hours as `7`, `07`, `07:00`): nil without any of them, `.unsupported` when unreadable.
    static func restrictionSchedule(_ tags: Tags) -> Reading? {
        let dayOn = tags["day_on"], dayOff = tags["day_off"], hourOn = tags["hour_on"], hourOff = tags["hour_off"]
        guard dayOn != nil || dayOff != nil || hourOn != nil || hourOff != nil else { return nil }
        var days = ""
        if dayOn != nil || dayOff != nil {
            guard let a = day(dayOn ?? dayOff!), let b = day(dayOff ?? dayOn!) else { return .unsupported }
            days = a == b ? a : a + "-" + b
        }
        var hours = "00:00-24:00"
        if hourOn != nil || hourOff != nil {
            guard let on = hourOn.flatMap(time), let off = hourOff.flatMap(time) else { return .unsupported }
            hours = on + "-" + off
        }
        let text = days.isEmpty ? hours : days + " " + hours
        return schedule(text) == nil ? .unsupported : .supported(value: "", schedule: text)
    }

    private static let dayNames = ["mo", "tu", "we", "th", "fr", "sa", "su"]

    private static func day(_ text: String) -> String? {
        let short = String(text.trimmingCharacters(in: " ").lowercased().prefix(2))
        guard dayNames.contains(short) else { return nil }
        return short.prefix(1).uppercased() + short.dropFirst()
    }

    private static func time(_ text: String) -> String? {
        let parts = text.trimmingCharacters(in: " ").split(separator: ":")
        guard (1...2).contains(parts.count), let h = Int(parts[0]), (0...24).contains(h) else { return nil }
        let m = parts.count == 2 ? Int(parts[1]) : 0
        guard let m, (0..<60).contains(m) else { return nil }
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
}
