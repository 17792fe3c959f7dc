import Foundation

/// What the watch says, in the seed app's words where it has them, and plainly beside them.
public enum WatchMessages {
    /// The seed's refusal, word for word.
    public static let noRouteSatisfiesTime = "No routes found satisfying requested time. Please choose different arrival time and try again."
    /// The seed's alert at zero.
    public static let timeToLeave = "Time's UP! Time to leave!"

    /// The seed's traffic toast; `n` is previous departure minus new departure, as the seed computes it.
    public static func trafficChange(_ n: Int) -> String { "Route recalculated due to change in traffic: \(n) sec" }

    /// "Leave 2 min earlier" / "You can leave 45 s later".
    public static func friendlyChange(_ n: Int) -> String {
        if n > 0 { return "Leave \(span(n)) earlier" }
        if n < 0 { return "You can leave \(span(-n)) later" }
        return "No change: leave at the same time"
    }

    /// A duration as people say it: "45 s", "2 min", "1 h 5 min" (minutes rounded).
    public static func span(_ seconds: Int) -> String {
        let s = abs(seconds)
        if s < 60 { return "\(s) s" }
        let minutes = Int((Double(s) / 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// "08:04" in the dataset's zone.
    static func clockTime(_ seconds: Double, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: seconds))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(c.hour ?? 0)):\(two(c.minute ?? 0))"
    }
}
