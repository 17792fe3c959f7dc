import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import RoutePlanning
import Traffic

/// The default time model: free flow (with turns and signals) plus live traffic, plus weekly
/// profiles only where data gave them (an imported file, or speeds learned from the live traffic
/// and probes received); the invented congestion by road class only with `--demo-congestion`.
@Suite("Time model") struct TimeModelTests {
    //  a - - - - b   one primary road, 1 km
    static func scenario() throws -> Scenario {
        try Scenario("a . . . . b", gridMeters: 200, ways: ["ab": ["highway": "primary"]])
    }

    // Monday 2026-11-30 in Helsinki (UTC+2).
    static let mondayThreeAM = Date(timeIntervalSince1970: 1_796_000_400)
    static let mondayFivePM = Date(timeIntervalSince1970: 1_796_050_800)
    static let week = 7 * 86_400.0

    static func route(_ service: MapsService, _ s: Scenario, departAt: Date) throws -> RouteBody {
        var q = s.query(["a", "b"])
        q.departAt = departAt
        return try service.calculateRoute(q).routes[0]
    }

    /// Posts `count` live speeds of `kmh` on a–b (both ways), each expiring after a minute.
    static func post(_ service: MapsService, _ s: Scenario, kmh: Int, count: Int, clock: TestClock) throws {
        let (a, b) = (s.osmID("a"), s.osmID("b"))
        for _ in 0..<count {
            _ = try service.applyTraffic(Array("\(a),\(b),\(kmh)\n\(b),\(a),\(kmh)\n".utf8), kind: .speeds, expiresInSeconds: 60, source: "feed")
            clock.advance(by: 10)
        }
        service.planning.waitForLearning()
    }

    @Test func withoutDataRushHourIsFreeFlow() throws {
        let s = try Self.scenario()
        let service = try s.service(clock: TestClock(Self.mondayThreeAM))
        let night = try Self.route(service, s, departAt: Self.mondayThreeAM.addingTimeInterval(3600))
        let rush = try Self.route(service, s, departAt: Self.mondayFivePM)
        #expect(night.summary.travelTimeInSeconds == rush.summary.travelTimeInSeconds)
        #expect(rush.summary.travelTimeInSeconds == rush.summary.noTrafficTravelTimeInSeconds)
        // No profile applies, so there is no historical time to give.
        #expect(rush.summary.historicTrafficTravelTimeInSeconds == nil)
        #expect(rush.summary.timeSources == ["freeFlow"])
        let health = service.health(startedAt: Date(), tiles: false, apiKeyRequired: false, http: nil)
        #expect(health.timeModel?.sources == ["freeFlow"])
        #expect(health.timeModel?.demoCongestion == false)
    }

    @Test func demoCongestionRestoresTheInventedFactorsAndSaysSo() throws {
        let s = try Self.scenario()
        let service = try s.service(clock: TestClock(Self.mondayThreeAM), timeModel: TimeModelSettings(demoCongestion: true))
        let night = try Self.route(service, s, departAt: Self.mondayThreeAM.addingTimeInterval(3600))
        let rush = try Self.route(service, s, departAt: Self.mondayFivePM)
        // Arterials: 1.9 × at 17:00 on weekdays.
        #expect(Double(rush.summary.travelTimeInSeconds) > 1.6 * Double(night.summary.travelTimeInSeconds))
        #expect(rush.summary.historicTrafficTravelTimeInSeconds == rush.summary.travelTimeInSeconds)
        #expect(rush.summary.timeSources == ["freeFlow", "demoCongestion"])
        let health = service.health(startedAt: Date(), tiles: false, apiKeyRequired: false, http: nil)
        #expect(health.timeModel?.sources == ["freeFlow", "demoCongestion"])
        #expect(health.timeModel?.demoCongestion == true)
    }

    @Test func learnedSpeedsCountAfterTheMinimumObservationsAndSurviveARestart() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayFivePM.addingTimeInterval(60))
        let service = try s.service(clock: clock)
        let free = try Self.route(service, s, departAt: Self.mondayFivePM.addingTimeInterval(Self.week)).summary.travelTimeInSeconds
        let minimum = SpeedLearner.defaultMinimumObservations
        try Self.post(service, s, kmh: 10, count: minimum - 1, clock: clock)
        // Next Monday at 17:00: the live speeds have long expired, and too few observations count.
        let early = try Self.route(service, s, departAt: Self.mondayFivePM.addingTimeInterval(Self.week))
        #expect(early.summary.travelTimeInSeconds == free)
        #expect(early.summary.historicTrafficTravelTimeInSeconds == nil)
        #expect(service.planning.learner.summary.countingSlots == 0)

        try Self.post(service, s, kmh: 10, count: 1, clock: clock)
        let learned = try Self.route(service, s, departAt: Self.mondayFivePM.addingTimeInterval(Self.week))
        // 1 km at 10 km/h.
        #expect(abs(Double(learned.summary.travelTimeInSeconds) - 360) < 15, "\(learned.summary.travelTimeInSeconds) s")
        #expect(learned.summary.historicTrafficTravelTimeInSeconds == learned.summary.travelTimeInSeconds)
        #expect(learned.summary.timeSources == ["freeFlow", "learnedProfiles"])
        // Other quarter-hours keep free flow.
        let night = try Self.route(service, s, departAt: Self.mondayThreeAM.addingTimeInterval(Self.week))
        #expect(night.summary.travelTimeInSeconds == free)
        let health = service.health(startedAt: Date(), tiles: false, apiKeyRequired: false, http: nil)
        #expect(health.timeModel?.sources.contains("learnedProfiles") == true)
        #expect(health.timeModel.map { $0.learnedSlots > 0 && $0.learnedSegments == 2 } == true)

        // A restart reads what was learned from state/.
        let reopened = try MapsService(dataset: service.dataset, clock: { clock.now })
        let again = try Self.route(reopened, s, departAt: Self.mondayFivePM.addingTimeInterval(2 * Self.week))
        #expect(again.summary.travelTimeInSeconds == learned.summary.travelTimeInSeconds)
        #expect(FileManager.default.fileExists(atPath: service.stateFolder + "/traffic/learned-speeds.bin"))
    }

    @Test func learnedSpeedsAreAveragedOverWeeks() throws {
        let s = try Self.scenario()
        let clock = TestClock(Self.mondayFivePM.addingTimeInterval(60))
        let service = try s.service(clock: clock, timeModel: TimeModelSettings(minimumObservations: 1))
        try Self.post(service, s, kmh: 10, count: 3, clock: clock)
        clock.set(Self.mondayFivePM.addingTimeInterval(Self.week + 60))
        try Self.post(service, s, kmh: 30, count: 1, clock: clock)
        // Week means 10 and 30 km/h (not 15, the mean of the four observations).
        let r = try Self.route(service, s, departAt: Self.mondayFivePM.addingTimeInterval(2 * Self.week))
        #expect(abs(Double(r.summary.travelTimeInSeconds) - 1000 / (20 / 3.6)) < 10, "\(r.summary.travelTimeInSeconds) s")
    }

    @Test func probesFeedTheLearner() throws {
        let s = try Self.scenario()
        let t0 = Self.mondayFivePM.timeIntervalSince1970
        let clock = TestClock(Date(timeIntervalSince1970: t0 + 600))
        let service = try s.service(clock: clock, profiles: [.car], timeModel: TimeModelSettings(minimumObservations: 1))
        let free = try Self.route(service, s, departAt: Self.mondayFivePM.addingTimeInterval(Self.week)).summary.travelTimeInSeconds
        // Three vehicles drive a → b at 15 km/h, one fix every 5 s.
        let (a, b) = (s.coordinate("a"), s.coordinate("b"))
        var csv = "vehicle,lat,lon,time\n"
        for v in 0..<3 {
            var t = 0.0
            while t * 15 / 3.6 <= 1000 {
                let f = t * 15 / 3.6 / 1000
                csv += "v\(v),\(a.latitude + (b.latitude - a.latitude) * f),\(a.longitude + (b.longitude - a.longitude) * f),\(Int(t0 + Double(v) * 20 + t))\n"
                t += 5
            }
        }
        let report = try service.ingestProbes(Array(csv.utf8), expiresInSeconds: 300)
        service.planning.waitForLearning()
        #expect(report.update != nil)
        #expect(service.planning.learner.summary.countingSlots > 0)
        let learned = try Self.route(service, s, departAt: Self.mondayFivePM.addingTimeInterval(Self.week)).summary
        #expect(learned.travelTimeInSeconds > 2 * free, "\(learned.travelTimeInSeconds) s against \(free) s")
        #expect(learned.timeSources?.contains("learnedProfiles") == true)
    }
}
