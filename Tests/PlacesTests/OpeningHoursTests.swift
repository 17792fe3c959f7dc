import Testing
import Foundation
import MapsAPI
@testable import Places

@Suite("Opening hours") struct OpeningHoursTests {
    @Test func commonForms() throws {
        #expect(OpeningHours("24/7")?.week == Array(repeating: [0...1_440], count: 7))
        let shop = try #require(OpeningHours("Mo-Fr 08:00-18:00; Sa 10:00-16:00; Su off"))
        #expect(shop.week[0] == [480...1_080])
        #expect(shop.week[4] == [480...1_080])
        #expect(shop.week[5] == [600...960])
        #expect(shop.week[6] == [])
        let bar = try #require(OpeningHours("Mo-Th 11:00-23:00; Fr-Sa 12:00-02:00; Su,PH 13:00-23:00"))
        #expect(bar.week[4] == [720...1_560])
        let lunch = try #require(OpeningHours("Mo-Fr 08:00-12:00, 13:00-17:00; PH off"))
        #expect(lunch.week[2] == [480...720, 780...1_020])
        #expect(OpeningHours("Jan-Mar Mo 10:00-12:00") == nil)
        #expect(OpeningHours("sunrise-sunset") == nil)
        #expect(OpeningHours("") == nil)
    }

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
