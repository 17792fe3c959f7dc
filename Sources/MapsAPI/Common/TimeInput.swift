public import Foundation

/// Parses the times people and clients write: RFC 3339 with an offset, a local date-time without
/// one (the dataset's time zone), `HH:MM` (the next such moment), or `now`.
public enum TimeInput {
    public static func parse(_ text: String, timeZone: TimeZone, now: Date) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.lowercased() == "now" { return now }
        if let d = RFC3339.parse(t, defaultTimeZone: timeZone) { return d }
        let parts = t.split(separator: ":")
        if parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m), parts[1].count == 2 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            var c = calendar.dateComponents([.year, .month, .day], from: now)
            c.hour = h
            c.minute = m
            c.second = 0
            guard var d = calendar.date(from: c) else { return nil }
            if d <= now { d = calendar.date(byAdding: .day, value: 1, to: d) ?? d }
            return d
        }
        return nil
    }

    /// Durations like `30m`, `2h`, `90s`, `1h30m`, `45` (minutes) or `PT30M`; seconds.
    public static func duration(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasPrefix("pt") { t.removeFirst(2) }
        // Finite only: "1e400", "1e307" or "inf" would otherwise come back as an infinite duration.
        if let minutes = Double(t), minutes >= 0 { return (minutes * 60).isFinite ? minutes * 60 : nil }
        var total = 0.0, number = ""
        for c in t {
            if c.isNumber || c == "." { number.append(c); continue }
            guard let n = Double(number) else { return nil }
            switch c {
            case "h": total += n * 3600
            case "m": total += n * 60
            case "s": total += n
            case "d": total += n * 86_400
            default: return nil
            }
            number = ""
        }
        return number.isEmpty && total > 0 && total.isFinite ? total : nil
    }
}
