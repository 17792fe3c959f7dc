import Testing
import Foundation
import MapsAPI
import MapsAPIMapping
import GeoCore

@Suite("Opening hours in TomTom's shape") struct OpeningHoursMappingTests {
    @Test func nextSevenDaysInTomTomShape() throws {
        let hours = try #require(OpeningHours("Mo-Fr 08:00-18:00; Fr 18:00-02:00"))
        // Wednesday 6 May 2026, 15:00 in Helsinki.
        let zone = try #require(TimeZone(identifier: "Europe/Helsinki"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = try #require(calendar.date(from: DateComponents(year: 2026, month: 5, day: 6, hour: 15)))
        let tomTom = hours.tomTomOpeningHours(startingOn: start, timeZone: zone)
        #expect(tomTom.mode == "nextSevenDays")
        #expect(tomTom.timeRanges.count == 5)
        #expect(tomTom.timeRanges[0].startTime == SearchLocalTime(date: "2026-05-06", hour: 8, minute: 0))
        let friday = tomTom.timeRanges[2]
        #expect(friday.startTime == SearchLocalTime(date: "2026-05-08", hour: 18, minute: 0))
        #expect(friday.endTime == SearchLocalTime(date: "2026-05-09", hour: 2, minute: 0))
    }
}
