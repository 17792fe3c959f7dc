import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Traffic
import OSMPBF

/// Drawn maps for time-dependent routing: rush hours, arrive-by, FIFO, live updates, closures.
@Suite("Time and traffic") struct TimeAndTrafficTests {
    //  a ---- b
    //  |      |
    //  c ---- d
    // The top road (primary) is faster at night; a per-segment profile makes ab crawl at rush hour.
    static let drawing = """
        a       b

        c       d
        """
    static let ways: KeyValuePairs<String, OSMTags> = ["ab": ["highway": "primary"], "bd": ["highway": "primary"],
                                                     "ac": ["highway": "secondary"], "cd": ["highway": "secondary"]]
    // Monday 2026-11-30 in Helsinki (UTC+2).
    static let mondayThreeAM = Date(timeIntervalSince1970: 1_796_000_400)   // 03:00 local
    static let mondayEightAM = Date(timeIntervalSince1970: 1_796_018_400)   // 08:00 local

    static func scenario() throws -> Scenario {
        try Scenario(drawing, gridMeters: 500, ways: ["ab": ["highway": "primary"], "bd": ["highway": "primary"],
                                                      "ac": ["highway": "secondary"], "cd": ["highway": "secondary"]])
    }

    /// 24 hourly speeds: 65 km/h except 7:00–9:59 when ab crawls at 8 km/h.
    static func rushHourProfile(_ s: Scenario) -> [UInt8] {
        let speeds = (0..<24).map { (7...9).contains($0) ? "8" : "65" }.joined(separator: ",")
        return Array("\(s.osmID("a")),\(s.osmID("b")),\(speeds)\n\(s.osmID("b")),\(s.osmID("a")),\(speeds)\n".utf8)
    }

    static func service(_ s: Scenario, clock: TestClock) throws -> MapsService {
        try s.service(clock: clock) { state in
            try TrafficStore(stateFolder: state).saveHistorical(rushHourProfile(s), source: "rush.csv")
        }
    }

    @Test func slowerRoadWinsAtRushHour() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayThreeAM)
        let service = try Self.service(s, clock: clock)
        var night = s.query(["a", "d"])
        night.departAt = Self.mondayThreeAM
        #expect(s.nodes(try service.calculateRoute(night).routes[0]) == "abd")
        var rush = s.query(["a", "d"])
        rush.departAt = Self.mondayEightAM
        let r = try service.calculateRoute(rush).routes[0]
        #expect(s.nodes(r) == "acd")
        #expect(r.summary.departureTime == "2026-11-30T08:00:00+02:00")
    }

    @Test func arriveByPicksADepartureThatReallyArrives() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayThreeAM)
        let service = try Self.service(s, clock: clock)
        let deadline = Self.mondayEightAM.addingTimeInterval(600)
        var q = s.query(["a", "d"])
        q.arriveAt = deadline
        let plan = try service.calculateRoute(q).routes[0]
        let departure = try #require(RFC3339.parse(plan.summary.departureTime, defaultTimeZone: service.timeZone))
        #expect(RFC3339.parse(plan.summary.arrivalTime, defaultTimeZone: service.timeZone)! <= deadline)
        // Brute force: scan departures minute by minute; none later than the plan (by more than a
        // minute) arrives in time.
        var latest: Date?
        var t = deadline.addingTimeInterval(-3600)
        while t < deadline {
            var forward = s.query(["a", "d"])
            forward.departAt = t
            let arrival = RFC3339.parse(try service.calculateRoute(forward).routes[0].summary.arrivalTime, defaultTimeZone: service.timeZone)!
            if arrival <= deadline { latest = t }
            t += 60
        }
        let scanned = try #require(latest)
        #expect(abs(scanned.timeIntervalSince(departure)) < 61, "scan found \(scanned), arrive-by said \(departure)")
    }

    @Test func leavingLaterNeverArrivesEarlier() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayThreeAM)
        let service = try Self.service(s, clock: clock)
        var previous = Date.distantPast
        var t = Self.mondayEightAM.addingTimeInterval(-7200)
        while t < Self.mondayEightAM.addingTimeInterval(7200) {
            var q = s.query(["a", "d"])
            q.departAt = t
            let arrival = RFC3339.parse(try service.calculateRoute(q).routes[0].summary.arrivalTime, defaultTimeZone: service.timeZone)!
            #expect(arrival >= previous, "leaving at \(t) arrives before leaving earlier")
            previous = arrival
            t += 300
        }
    }

    @Test func liveUpdateChangesTheRouteThenExpires() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayThreeAM)
        let service = try s.service(clock: clock)
        #expect(s.nodes(try service.calculateRoute(s.query(["a", "d"])).routes[0]) == "abd")
        let jam = "\(s.osmID("a")),\(s.osmID("b")),5\n"
        let report = try service.applyTraffic(Array(jam.utf8), kind: .speeds, expiresInSeconds: 600, source: "jam.csv")
        #expect(report.matchedSegments == 1)
        let during = try service.calculateRoute(s.query(["a", "d"])).routes[0]
        #expect(s.nodes(during) == "acd")
        clock.advance(by: 700)
        service.refreshTraffic()
        #expect(s.nodes(try service.calculateRoute(s.query(["a", "d"])).routes[0]) == "abd")
    }

    @Test func liveTrafficShowsAsDelayAndCanBeIgnored() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayThreeAM)
        let service = try s.service(clock: clock)
        let jam = "\(s.osmID("a")),\(s.osmID("b")),20\n\(s.osmID("a")),\(s.osmID("c")),10\n"
        _ = try service.applyTraffic(Array(jam.utf8), kind: .speeds, expiresInSeconds: 3600, source: "jam.csv")
        var q = s.query(["a", "b"])
        let withTraffic = try service.calculateRoute(q).routes[0].summary
        #expect(withTraffic.trafficDelayInSeconds > 0)
        #expect(withTraffic.trafficLengthInMeters > 0)
        q.traffic = false
        let without = try service.calculateRoute(q).routes[0].summary
        #expect(without.travelTimeInSeconds < withTraffic.travelTimeInSeconds)
        // The same road either way: the delay is the time with traffic minus the time without.
        #expect(without.lengthInMeters == withTraffic.lengthInMeters)
        #expect(abs(withTraffic.trafficDelayInSeconds - (withTraffic.travelTimeInSeconds - without.travelTimeInSeconds)) <= 1)
        #expect(without.trafficDelayInSeconds == 0)
    }

    @Test func closuresAreNeverDrivenThrough() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayThreeAM)
        let service = try s.service(clock: clock)
        let closure = "\(s.osmID("a")),\(s.osmID("b"))\n\(s.osmID("b")),\(s.osmID("a"))\n"
        _ = try service.applyTraffic(Array(closure.utf8), kind: .closures, expiresInSeconds: 1800, source: "closed.csv")
        let r = try service.calculateRoute(s.query(["a", "d"])).routes[0]
        #expect(s.nodes(r) == "acd")
        #expect(r.advisoryNotices?.contains { $0.contains("closed") } == true)
        // Even to reach b itself.
        #expect(s.nodes(try service.calculateRoute(s.query(["a", "b"])).routes[0]) == "acdb")
    }

    @Test func arrivalInThePastOrTooSoonIsRefused() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayThreeAM)
        let service = try s.service(clock: clock)
        var past = s.query(["a", "d"])
        past.arriveAt = Self.mondayThreeAM.addingTimeInterval(-60)
        #expect(throws: APIError.self) { try service.calculateRoute(past) }
        var tooSoon = s.query(["a", "d"])
        tooSoon.arriveAt = Self.mondayThreeAM.addingTimeInterval(10)
        do {
            _ = try service.calculateRoute(tooSoon)
            Issue.record("an impossible arrival was accepted")
        } catch {
            #expect(error.code == .noRouteFound)
            #expect(error.message.hasPrefix("No routes found satisfying requested time."))
        }
    }
}

typealias OSMTags = [String: String]
