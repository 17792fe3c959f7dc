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
