import Testing
import OSMPBF
@testable import RoadExtract

@Suite("Conditional tags") struct ConditionalTagTests {
    @Test func readsOneValueWithASchedule() {
        #expect(ConditionalTag.read("no_left_turn @ (Mo-Fr 07:00-09:00)") == .supported(value: "no_left_turn", schedule: "Mo-Fr 07:00-09:00"))
        #expect(ConditionalTag.read("no @ Sa,Su 10:00-18:00") == .supported(value: "no", schedule: "Sa,Su 10:00-18:00"))
    }

    @Test func refusesWhatItCannotEvaluate() {
        for text in ["no @ (weight>7.5)", "no @ (PH)", "no @ (Mo-Fr 07:00-09:00); yes @ (Sa)", "no @ (Mo-Fr 07:00-09:00 AND wet)",
                     "no @ (Jan-Mar)", "no @ (sunrise-sunset)", "no", "@ (Mo 07:00-09:00)"] {
            #expect(ConditionalTag.read(text) == .unsupported, "\(text)")
        }
    }

    @Test func dayOnAndHourOnMakeASchedule() {
        let helsinki: Tags = ["day_on": "Monday", "day_off": "Friday", "hour_on": "7", "hour_off": "18:00"]
        #expect(ConditionalTag.restrictionSchedule(helsinki) == .supported(value: "", schedule: "Mo-Fr 07:00-18:00"))
        #expect(ConditionalTag.restrictionSchedule(["hour_on": "22:00", "hour_off": "06:00"]) == .supported(value: "", schedule: "22:00-06:00"))
        #expect(ConditionalTag.restrictionSchedule(["day_on": "Sunday"]) == .supported(value: "", schedule: "Su 00:00-24:00"))
        #expect(ConditionalTag.restrictionSchedule(["day_on": "Funday"]) == .unsupported)
        #expect(ConditionalTag.restrictionSchedule(["restriction": "no_left_turn"]) == nil)
    }

    @Test func wayConditionsPerDirection() throws {
        let car = Profile.car
        let closed = try #require(car.evaluate(way: ["highway": "primary", "motor_vehicle:conditional": "no @ (Mo-Fr 07:00-09:00)"]))
        #expect(closed.forwardCondition == ArcCondition(schedule: "Mo-Fr 07:00-09:00", rule: .closedWhileActive))
        #expect(closed.backwardCondition == closed.forwardCondition)
        // A more specific plain key decides over a general conditional one.
        let granted = try #require(car.evaluate(way: ["highway": "primary", "access:conditional": "no @ (Mo 07:00-09:00)", "motorcar": "yes"]))
        #expect(granted.forwardCondition == nil)
        let lifted = try #require(car.evaluate(way: ["highway": "primary", "oneway": "yes", "oneway:conditional": "no @ (Sa,Su 00:00-24:00)"]))
        #expect(lifted.backwardSpeedKmh > 0 && lifted.backwardCondition?.rule == .openWhileActive && lifted.forwardCondition == nil)
        let imposed = try #require(car.evaluate(way: ["highway": "primary", "oneway:conditional": "-1 @ (Mo 07:00-09:00)"]))
        #expect(imposed.forwardCondition?.rule == .closedWhileActive && imposed.backwardCondition == nil)
        let opened = try #require(car.evaluate(way: ["highway": "primary", "maxspeed:conditional": "30 @ (Mo-Fr 07:00-09:00)"]))
        #expect(opened.unsupportedConditions == 1)
        #expect(car.evaluate(way: ["highway": "primary", "access": "no", "access:conditional": "yes @ (Mo 07:00-09:00)"]) == nil)
    }
}

@Suite("Conditional tags, several entries and directions") struct ConditionalTagEntryTests {
    @Test func entriesWithOneValueJoin() throws {
        let reading = ConditionalTag.read("no @ 22:00-24:00; no @ (00:00-06:00)")
        #expect(reading == .supported(value: "no", schedule: "22:00-24:00\n00:00-06:00"))
        let hours = try #require(ConditionalTag.schedule("22:00-24:00\n00:00-06:00"))
        #expect(hours.isOpen(minuteOfWeek: 23 * 60) && hours.isOpen(minuteOfWeek: 3 * 60) && !hours.isOpen(minuteOfWeek: 12 * 60))
        // A `;` inside the parentheses belongs to the schedule.
        #expect(ConditionalTag.read("no @ (Tu 06:00-17:00; Sa 06:00-22:00)") == .supported(value: "no", schedule: "Tu 06:00-17:00; Sa 06:00-22:00"))
        #expect(ConditionalTag.read("no @ (22:00-06:00); destination @ (06:00-08:00)") == .unsupported)
    }

    @Test func directionalAccessConditions() throws {
        let way = try #require(Profile.car.evaluate(way: ["highway": "primary", "motor_vehicle:forward:conditional": "no @ (Mo 07:00-09:00)"]))
        #expect(way.forwardCondition?.rule == .closedWhileActive && way.backwardCondition == nil)
    }
}
