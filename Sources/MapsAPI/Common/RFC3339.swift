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
        // Only text of the right shape reaches Foundation: its formatters trap ("Incorrect range") on
        // "000\u{36C}-000-00:00", where a match ends inside a combining sequence, and ICU dies of
        // SIGFPE on a fraction of a hundred digits.
        guard hasDateTimeShape(Array(trimmed.utf8)) else { return nil }
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

    /// `yyyy-MM-dd` then `T`, `t` or a space, `HH:mm`, optionally `:ss` with up to 9 decimals, then
    /// optionally `Z`, `z` or `±HH:mm`: every form `parse` reads, and nothing longer.
    static func hasDateTimeShape(_ b: [UInt8]) -> Bool {
        var i = 0
        func digits(_ n: ClosedRange<Int>) -> Bool {
            var count = 0
            while i < b.count, count < n.upperBound, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1; count += 1 }
            return n.contains(count)
        }
        func byte(_ allowed: String) -> Bool {
            guard i < b.count, allowed.utf8.contains(b[i]) else { return false }
            i += 1
            return true
        }
        guard digits(4...4), byte("-"), digits(2...2), byte("-"), digits(2...2), byte("Tt "),
              digits(2...2), byte(":"), digits(2...2) else { return false }
        if byte(":") {
            guard digits(2...2) else { return false }
            if byte("."), !digits(1...9) { return false }
        }
        if byte("Zz") { return i == b.count }
        if byte("+-") { guard digits(2...2), byte(":"), digits(2...2) else { return false } }
        return i == b.count
    }
}
