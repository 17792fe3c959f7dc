public import Places
public import GeoCore
public import MapsAPI
public import Foundation

extension OpeningHours {
    /// TomTom's `openingHours` (`mode: nextSevenDays`): the open spans of the seven days starting on the day of
    /// `start`, in local time of `timeZone`.
    public func tomTomOpeningHours(startingOn start: Date, timeZone: TimeZone) -> SearchOpeningHours {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight = calendar.startOfDay(for: start)
        func localTime(_ dayOffset: Int, _ minutes: Int) -> SearchLocalTime {
            let day = calendar.date(byAdding: .day, value: dayOffset + minutes / 1_440, to: midnight) ?? midnight
            let c = calendar.dateComponents([.year, .month, .day], from: day)
            let date = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
            return SearchLocalTime(date: date, hour: minutes % 1_440 / 60, minute: minutes % 60)
        }
        // Calendar weekday: 1 = Sunday … 7 = Saturday; ours: 0 = Monday.
        let firstWeekday = (calendar.component(.weekday, from: midnight) + 5) % 7
        var ranges: [SearchTimeRange] = []
        for offset in 0..<7 {
            for span in week[(firstWeekday + offset) % 7] {
                ranges.append(SearchTimeRange(startTime: localTime(offset, span.lowerBound), endTime: localTime(offset, span.upperBound)))
            }
        }
        return SearchOpeningHours(mode: "nextSevenDays", timeRanges: ranges)
    }
}
