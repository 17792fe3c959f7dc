/// A weekly schedule read from the common subset of OSM's `opening_hours` syntax: `24/7`, rules separated
/// by `;` with weekday ranges and lists (`Mo-Fr`, `Sa,Su`) and time spans (`08:00-18:00`, `18:00-02:00`),
/// `off`/`closed`; a later rule replaces earlier ones for its days. Anything else (months, weeks,
/// sunrise…) makes `init` fail rather than guess. Public and school holiday rules (`PH`, `SH`) say nothing
/// about an ordinary week: they are skipped, or (`strict`) make `init` fail, for callers that would be
/// wrong on a holiday without them.
///
/// Shared by places (shop hours) and by the road network's conditional rules (`hour_on`, `@ (Mo-Fr 07:00-09:00)`).
public struct OpeningHours: Sendable, Equatable {
    /// Per weekday (0 = Monday … 6 = Sunday), open spans in minutes from that day's midnight; an end past
    /// 1440 runs into the next day.
    public var week: [[ClosedRange<Int>]]

    /// The weekday abbreviations of the syntax, lower-cased, Monday first.
    public static let dayNames = ["mo", "tu", "we", "th", "fr", "sa", "su"]

    public init?(_ text: String, strict: Bool = false) {
        var week = [[ClosedRange<Int>]](repeating: [], count: 7)
        let trimmed = String(text.trimmedSpaces)
        if trimmed == "24/7" {
            self.week = Array(repeating: [0...1_440], count: 7)
            return
        }
        let rules = trimmed.replacing("||", with: ";").split(separator: ";").map { String($0.trimmedSpaces) }.filter { !$0.isEmpty }
        guard !rules.isEmpty else { return nil }
        for rule in rules {
            guard let (days, spans) = Self.parse(rule: rule, strict: strict) else { return nil }
            for d in days { week[d] = spans }
        }
        self.week = week
    }

    /// Open whenever any of `schedules` is (OSM's `no @ (22:00-24:00); no @ (00:00-06:00)`).
    public init(anyOf schedules: [OpeningHours]) {
        week = (0..<7).map { d in schedules.flatMap { $0.week[d] } }
    }

    /// One schedule per line of `text` (strict), open whenever any is: how conditional rules keep
    /// the several schedules of one condition. Nil when a line does not read or there is none.
    public init?(anyOfLines text: some StringProtocol) {
        var parts: [OpeningHours] = []
        for line in text.split(separator: "\n") {
            guard let hours = OpeningHours(String(line), strict: true) else { return nil }
            parts.append(hours)
        }
        guard !parts.isEmpty else { return nil }
        self.init(anyOf: parts)
    }

    /// Whether the schedule is open at `minute` of the week (0 = Monday 00:00 local time); a span's end is
    /// exclusive, and a span past midnight holds into the next day.
    public func isOpen(minuteOfWeek minute: Int) -> Bool {
        let day = minute / 1_440, m = minute % 1_440
        if week[day].contains(where: { $0.lowerBound <= m && m < $0.upperBound }) { return true }
        let previous = (day + 6) % 7
        return week[previous].contains { $0.upperBound > 1_440 && $0.lowerBound <= m + 1_440 && m + 1_440 < $0.upperBound }
    }

    private static func parse(rule: String, strict: Bool) -> (days: [Int], spans: [ClosedRange<Int>])? {
        var parts = rule.split(separator: " ", maxSplits: 1).map(String.init)
        // Public and school holiday rules say nothing about an ordinary week.
        if let first = parts.first?.lowercased(), first.hasPrefix("ph") || first.hasPrefix("sh") { return strict ? nil : ([], []) }
        var days = Array(0..<7)
        if let first = parts.first, let parsed = weekdays(first, strict: strict) {
            days = parsed
            parts.removeFirst()
        }
        guard let rest = parts.first?.trimmedSpaces.lowercased() else { return nil }
        if rest == "off" || rest == "closed" { return (days, []) }
        if rest == "24/7" || rest == "00:00-24:00" { return (days, [0...1_440]) }
        var spans: [ClosedRange<Int>] = []
        for piece in rest.split(separator: ",") {
            let ends = piece.split(separator: "-")
            guard ends.count == 2, let start = minutes(ends[0]), var end = minutes(ends[1]) else { return nil }
            if end <= start { end += 1_440 }
            spans.append(start...end)
        }
        return spans.isEmpty ? nil : (days, spans)
    }

    /// "Mo-Fr,Su" → [0, 1, 2, 3, 4, 6]; nil when the text is not a weekday selector.
    private static func weekdays(_ text: String, strict: Bool) -> [Int]? {
        var days: [Int] = []
        for item in text.lowercased().split(separator: ",") {
            if item == "ph" || item == "sh" {
                if strict { return nil }
                continue
            }
            let ends = item.split(separator: "-")
            guard let a = ends.first.flatMap({ dayNames.firstIndex(of: String($0)) }) else { return nil }
            if ends.count == 1 {
                days.append(a)
            } else if ends.count == 2, let b = dayNames.firstIndex(of: String(ends[1])) {
                var d = a
                while true {
                    days.append(d)
                    if d == b { break }
                    d = (d + 1) % 7
                }
            } else {
                return nil
            }
        }
        return days.isEmpty ? nil : days
    }

    private static func minutes(_ text: Substring) -> Int? {
        let hm = text.trimmedSpaces.split(separator: ":")
        guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0...48).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    public var trimmedSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
