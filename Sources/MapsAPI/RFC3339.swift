public import Foundation

/// RFC 3339 date-times with the dataset's local UTC offset, as TomTom writes
/// `departureTime`/`arrivalTime` ("2025-05-06T08:00:00+02:00").
public enum RFC3339 {
    public static func format(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year!)-\(two(c.month!))-\(two(c.day!))T\(two(c.hour!)):\(two(c.minute!)):\(two(c.second!))\(sign)\(two(hours)):\(two(minutes))"
    }

    /// Parses "2026-12-01T08:30:00+02:00", "…Z", fractional seconds, or a time without offset
    /// (then read in `timeZone`). Nil when the text is not such a date-time.
    public static func parse(_ text: String, defaultTimeZone timeZone: TimeZone) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withOffset = ISO8601DateFormatter()
        withOffset.formatOptions = [.withInternetDateTime]
        if let d = withOffset.date(from: trimmed) { return d }
        withOffset.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = withOffset.date(from: trimmed) { return d }
        // No offset: local time in the dataset's zone.
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            local.dateFormat = format
            if let d = local.date(from: trimmed) { return d }
        }
        return nil
    }
}
