import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import RoadExtract
import OSMPBF

/// OSM's conditional rules (restrictions with `day_on`/`hour_on` or `restriction:conditional`,
/// `motor_vehicle:conditional`, `oneway:conditional`), evaluated at the moment the route reaches
/// them: drawn maps imported into a real dataset and served, at times on both sides of each window.
@Suite("Conditional rules") struct ConditionalRuleTests {
    /// Monday 2026-11-30 00:00 in Helsinki (UTC+2), the services' time zone.
    static let mondayMidnight = 1_795_989_600.0

    /// Local time in Helsinki: `day` 0 is Monday 2026-11-30.
    static func local(day: Int = 0, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
        Date(timeIntervalSince1970: mondayMidnight + Double(day * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    //     a
    //     |
    // d - j - b      1 km a side: a car needs about a minute for each arm.
    //     |
    //     c
    static let cross = """
          a
        d j b
          c
        """

    /// The Helsinki case: a `no_left_turn` from c's arm onto d's arm, limited to Mo–Fr 07:00–18:00.
    static func crossing(_ tags: [String: String], type: String = "no_left_turn") throws -> Scenario {
        try Scenario(cross, gridMeters: 1_000, ways: ["aj": ["highway": "primary"], "bj": ["highway": "primary"],
                                                       "cj": ["highway": "primary"], "dj": ["highway": "primary"]],
                     restrictions: [.init(from: "cj", via: "j", to: "dj", type: type, tags: tags)])
    }

    static let dayOnHourOn = ["day_on": "Monday", "day_off": "Friday", "hour_on": "07:00", "hour_off": "18:00"]

    func route(_ s: Scenario, _ service: MapsService, _ from: Character, _ to: Character,
               departAt: Date? = nil, arriveAt: Date? = nil) throws -> String {
        var q = s.query([from, to])
        q.departAt = departAt
        q.arriveAt = arriveAt
        return s.nodes(try service.calculateRoute(q).routes[0])
    }

    @Test func restrictionHoldsOnlyInItsHoursLeavingNow() throws {
        let s = try Self.crossing(Self.dayOnHourOn)
        let clock = TestClock(Self.local(6, 0))
        let service = try s.service(clock: clock)
        #expect(try route(s, service, "c", "d") == "cjd", "before the window the left turn is allowed")
        clock.set(Self.local(8, 0))
        #expect(try route(s, service, "c", "d") != "cjd", "inside the window the left turn is forbidden")
        clock.set(Self.local(18, 30))
        #expect(try route(s, service, "c", "d") == "cjd", "after the window")
        clock.set(Self.local(day: 5, 8, 0))
        #expect(try route(s, service, "c", "d") == "cjd", "Saturday is outside Mo-Fr")
        // Other moves at the junction are never restricted.
        clock.set(Self.local(8, 0))
        #expect(try route(s, service, "b", "d") == "bjd")
    }

    @Test func restrictionConditionalTagReadsTheSameWay() throws {
        let s = try Self.crossing(["restriction:conditional": "no_left_turn @ (Mo-Fr 07:00-18:00)"], type: "")
        let clock = TestClock(Self.local(6, 0))
        let service = try s.service(clock: clock)
        #expect(try route(s, service, "c", "d", departAt: Self.local(6, 0)) == "cjd")
        #expect(try route(s, service, "c", "d", departAt: Self.local(12, 0)) != "cjd")
        #expect(try route(s, service, "c", "d", departAt: Self.local(day: 6, 12, 0)) == "cjd")
    }

    @Test func departAtEvaluatesTheTurnWhenReached() throws {
        let s = try Self.crossing(Self.dayOnHourOn)
        let clock = TestClock(Self.local(5, 0))
        let service = try s.service(clock: clock)
        // Leaving 30 s before the window opens, the car reaches the turn (a kilometre on) inside it.
        #expect(try route(s, service, "c", "d", departAt: Self.local(6, 59, 30)) != "cjd")
        #expect(try route(s, service, "c", "d", departAt: Self.local(6, 57, 0)) == "cjd")
        // Leaving 30 s before the window closes, the turn is reached after it.
        #expect(try route(s, service, "c", "d", departAt: Self.local(17, 59, 30)) == "cjd")
        #expect(try route(s, service, "c", "d", departAt: Self.local(17, 50, 0)) != "cjd")
    }

    @Test func arriveByAcrossTheWindowEdge() throws {
        let s = try Self.crossing(Self.dayOnHourOn)
        let clock = TestClock(Self.local(5, 0))
        let service = try s.service(clock: clock)
        // Arriving just after 07:00, the turn (a kilometre before the end) is made before 07:00.
        #expect(try route(s, service, "c", "d", arriveAt: Self.local(7, 0, 30)) == "cjd")
        // Arriving at 07:10, the latest departure turns inside the window: the detour.
        let late = try route(s, service, "c", "d", arriveAt: Self.local(7, 10))
        #expect(late != "cjd" && late.hasPrefix("cj") && late.hasSuffix("jd"))
        // Arriving just after 18:00 the turn is made at 17:59: forbidden; later it is free.
        #expect(try route(s, service, "c", "d", arriveAt: Self.local(18, 0, 30)) != "cjd")
        #expect(try route(s, service, "c", "d", arriveAt: Self.local(18, 5)) == "cjd")
    }

    //  e - a ------- b
    //      |         |
    //      c ------- d - f     The top road is the faster one; e and f lead in, so that the
    //                          conditional road lies between the route's ends.
    static let square = """
        e a   b
          c   d f
        """

    static func square(top: [String: String]) throws -> Scenario {
        var ab: Tags = ["highway": "primary"]
        for (k, v) in top.sorted(by: { $0.key < $1.key }) { ab.pairs.append((k, v)) }
        return try Scenario(Self.square, gridMeters: 1_000, wayList: [
            ("ea", ["highway": "primary"]), ("ab", ab), ("bd", ["highway": "primary"]), ("df", ["highway": "primary"]),
            ("ac", ["highway": "tertiary"]), ("cd", ["highway": "tertiary"])])
    }

    @Test func accessConditionalClosesARoadInItsHours() throws {
        let s = try Self.square(top: ["motor_vehicle:conditional": "no @ (Mo-Fr 07:00-09:00)"])
        let clock = TestClock(Self.local(6, 0))
        let service = try s.service(clock: clock)
        #expect(try route(s, service, "e", "f") == "eabdf")
        clock.set(Self.local(8, 0))
        #expect(try route(s, service, "e", "f") == "eacdf", "leaving now inside the window")
        #expect(try route(s, service, "e", "f", departAt: Self.local(8, 0)) == "eacdf")
        #expect(try route(s, service, "e", "f", departAt: Self.local(9, 30)) == "eabdf")
        #expect(try route(s, service, "e", "f", departAt: Self.local(day: 6, 8, 0)) == "eabdf", "Sunday")
        // Leaving before 09:00, the top road is reached (a kilometre on) after the window.
        #expect(try route(s, service, "e", "f", departAt: Self.local(8, 59, 30)) == "eabdf")
        // Arriving by 09:03 means entering the top road before 09:00; by 09:10, after.
        #expect(try route(s, service, "e", "f", arriveAt: Self.local(9, 3)) == "eacdf")
        #expect(try route(s, service, "e", "f", arriveAt: Self.local(9, 10)) == "eabdf")
    }

    @Test func onewayConditionalLiftsAOneway() throws {
        // The top road is one-way a→b, both ways at weekends.
        let s = try Self.square(top: ["oneway": "yes", "oneway:conditional": "no @ (Sa,Su 00:00-24:00)"])
        let clock = TestClock(Self.local(12, 0))
        let service = try s.service(clock: clock)
        #expect(try route(s, service, "f", "e") == "fdcae", "against the one-way on a weekday")
        #expect(try route(s, service, "f", "e", departAt: Self.local(day: 5, 12, 0)) == "fdbae", "Saturday: both ways")
        #expect(try route(s, service, "f", "e", departAt: Self.local(day: 4, 23, 59)) == "fdbae", "reached on Saturday")
        #expect(try route(s, service, "e", "f") == "eabdf")
        clock.set(Self.local(day: 6, 12, 0))
        #expect(try route(s, service, "f", "e") == "fdbae", "leaving now on Sunday")
    }

    @Test func onewayConditionalImposesAOneway() throws {
        // The top road is two-way, one-way a→b on weekday mornings.
        let s = try Self.square(top: ["oneway:conditional": "yes @ (Mo-Fr 07:00-09:00)"])
        let clock = TestClock(Self.local(5, 0))
        let service = try s.service(clock: clock)
        #expect(try route(s, service, "f", "e") == "fdbae")
        #expect(try route(s, service, "f", "e", departAt: Self.local(8, 0)) == "fdcae")
        #expect(try route(s, service, "e", "f", departAt: Self.local(8, 0)) == "eabdf", "the one-way's own direction")
        #expect(try route(s, service, "f", "e", arriveAt: Self.local(9, 1)) == "fdcae")
        #expect(try route(s, service, "f", "e", arriveAt: Self.local(9, 15)) == "fdbae")
    }

    @Test func unsupportedConditionsAreOffAndCounted() throws {
        let extractor = Extractor(profiles: [.car])
        let s = try Self.crossing(["restriction:conditional": "no_left_turn @ (PH)"], type: "")
        _ = try extractor.run(source: InMemoryOSMSource([s.block]))
        #expect(extractor.statistics.unsupportedConditions == 1)
        #expect(extractor.statistics.restrictions == 0)
        let clock = TestClock(Self.local(8, 0))
        let service = try s.service(clock: clock)
        #expect(try route(s, service, "c", "d") == "cjd")
    }
}
