import Testing
import Foundation
import GeoCore

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
}

@Suite("Opening hours at a moment") struct OpeningHoursMomentTests {
    @Test func spansAreHalfOpenAndRunPastMidnight() throws {
        let hours = try #require(OpeningHours("Mo-Fr 07:00-18:00; Sa 22:00-02:00"))
        #expect(!hours.isOpen(minuteOfWeek: 6 * 60 + 59))
        #expect(hours.isOpen(minuteOfWeek: 7 * 60))
        #expect(hours.isOpen(minuteOfWeek: 4 * 1_440 + 17 * 60 + 59))
        #expect(!hours.isOpen(minuteOfWeek: 4 * 1_440 + 18 * 60))
        // Saturday night runs into Sunday.
        #expect(hours.isOpen(minuteOfWeek: 6 * 1_440 + 60))
        #expect(!hours.isOpen(minuteOfWeek: 6 * 1_440 + 120))
    }

    @Test func strictRefusesHolidays() {
        #expect(OpeningHours("Mo-Fr 08:00-18:00; PH off") != nil)
        #expect(OpeningHours("Mo-Fr 08:00-18:00; PH off", strict: true) == nil)
        #expect(OpeningHours("Su,PH 10:00-12:00", strict: true) == nil)
        #expect(OpeningHours("Sa,Su 00:00-24:00", strict: true)?.isOpen(minuteOfWeek: 5 * 1_440 + 600) == true)
    }
}
