public import GeoCore
import OSMPBF

/// OSM's conditional restrictions as far as they are supported: `value @ (schedule)` per tag (or
/// several such entries separated by `;` with the same value), where the schedule is the weekly
/// subset of opening_hours that `OpeningHours` reads strictly (weekdays, day ranges and lists,
/// hour spans, `off`); and turn restrictions limited by `day_on`/`day_off`/`hour_on`/`hour_off`.
///
/// Anything else (entries with different values, vehicle properties such as `weight>7.5`,
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

    /// Separates the schedules of a condition that holds during any of several (`scheduleText`).
    public static let anyOfSeparator: Character = "\n"

    /// Reads `value @ condition` (the condition in optional parentheses), or several such entries
    /// separated by `;` with the same value, which hold whenever any of their schedules does.
    public static func read(_ text: String) -> Reading {
        var value: String?
        var schedules: [String] = []
        for entry in entries(text) {
            let parts = entry.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return .unsupported }
            let v = parts[0].trimmingCharacters(in: " ")
            var condition = parts[1].trimmingCharacters(in: " ")
            if condition.hasPrefix("(") && condition.hasSuffix(")") { condition = String(condition.dropFirst().dropLast()).trimmingCharacters(in: " ") }
            guard !v.isEmpty, value == nil || value == v, !condition.contains("("), !condition.contains(")"),
                  single(condition) != nil else { return .unsupported }
            value = v
            schedules.append(condition)
        }
        guard let value, !schedules.isEmpty else { return .unsupported }
        return .supported(value: value, schedule: schedules.joined(separator: String(anyOfSeparator)))
    }

    /// The schedule a condition names (`read`'s text, schedules separated by `anyOfSeparator`), when supported.
    public static func schedule(_ text: String) -> OpeningHours? {
        text.lowercased().contains(" and ") ? nil : OpeningHours(anyOfLines: text)
    }

    private static func single(_ condition: String) -> OpeningHours? {
        guard !condition.isEmpty, !condition.lowercased().contains(" and ") else { return nil }
        return OpeningHours(condition, strict: true)
    }

    /// The `;`-separated entries of a conditional value (a `;` inside parentheses belongs to its schedule).
    private static func entries(_ text: String) -> [String] {
        var out: [String] = [], current = "", depth = 0
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == ";" && depth == 0 {
                out.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        out.append(current)
        return out.filter { !$0.trimmingCharacters(in: " ").isEmpty }
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

    private static func day(_ text: String) -> String? {
        let short = String(text.trimmingCharacters(in: " ").lowercased().prefix(2))
        guard OpeningHours.dayNames.contains(short) else { return nil }
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
