/// Where in its week a moment falls in local time, weeks starting on Monday 00:00: the one week
/// arithmetic behind weekly speed profiles, the speeds learned for them and conditional rules.
public enum LocalWeek {
    public static let seconds = 604_800.0

    /// Seconds since the Monday 00:00 (local time) that began the week of `time` (seconds since
    /// 1970, whole seconds), and that week's number.
    @inlinable
    public static func position(_ time: Double, utcOffsetSeconds: Int) -> (secondsIntoWeek: Double, week: Double) {
        // 1970-01-01 was a Thursday: three days after a Monday. Whole numbers of seconds are exact
        // in a Double, so this rounds as integer arithmetic would.
        let local = (time + Double(utcOffsetSeconds)).rounded(.down) + 3 * 86_400
        let week = (local / seconds).rounded(.down)
        return (local - week * seconds, week)
    }
}
