import Foundation
import Testing
import MapsTestSupport
import RoadNetwork
import Traffic

/// Weekly profiles only from data: free flow by default, demo congestion when asked for, and
/// learned speeds on top of imported ones where enough observations count.
@Suite("Weekly profiles") struct WeeklyProfileTests {
    static let scenario = try! Scenario("a - - - b - - - c", ways: ["ab": ["highway": "primary"], "bc": ["highway": "primary"]])
    var graph: RoadGraph { Self.scenario.graphs[.car]! }
    let zone = TimeZone(identifier: "Europe/Helsinki")!
    /// Monday 2026-11-30 03:00 and 17:00 in Helsinki.
    let night = 1_796_000_400.0, rush = 1_796_050_800.0

    func arc(_ from: Character, _ to: Character) -> Int {
        graph.segmentKeys.arcs(from: Self.scenario.osmID(from), to: Self.scenario.osmID(to)).first!.index
    }

    func table(_ model: TrafficModel) -> TravelTimeTable { model.table(referenceTime: Date(timeIntervalSince1970: night), updates: []).0 }

    @Test func theDefaultIsFreeFlowAllWeek() {
        let t = table(TrafficModel(graph: graph, timeZone: zone))
        let ab = arc("a", "b")
        #expect(t.traverseMs(ab, entry: rush) == t.traverseMs(ab, entry: night))
        #expect(t.traverseMs(ab, entry: rush) == Double(graph.arcDurationMs[ab]))
        #expect(t.profileOrigin(ab).isEmpty)
    }

    @Test func demoCongestionSlowsArterialsAtRushHour() {
        let t = table(TrafficModel(graph: graph, timeZone: zone, demoCongestion: true))
        let ab = arc("a", "b")
        #expect(t.traverseMs(ab, entry: rush) > 1.8 * t.traverseMs(ab, entry: night))
        #expect(t.profileOrigin(ab) == .demo)
    }

    @Test func learnedSlotsGoOnTopOfImportedOnesAndFallBackToThem() throws {
        let s = Self.scenario
        // Imported: 20 km/h all day on a–b.
        let imported = try SegmentSpeedCSV.parseProfiles(Array("\(s.osmID("a")),\(s.osmID("b")),\(Array(repeating: "20", count: 24).joined(separator: ","))\n".utf8),
                                                         source: "h")
        let learner = SpeedLearner(stateFolder: Fixtures.temporaryDirectory("wayfinder-learner").path, timeZone: zone, minimumObservations: 2)
        let update = LiveUpdate(id: "u", kind: .speeds, createdAt: rush, expiresAt: rush + 60, source: "t",
                                entries: [.init(from: s.osmID("a"), to: s.osmID("b"), speedKmh: 10)])
        #expect(try learner.observe(update) == false)
        #expect(learner.profiles() == nil)
        #expect(try learner.observe(update) == true)
        let model = TrafficModel(graph: graph, timeZone: zone, historical: imported, learned: learner.profiles())
        let t = table(model)
        let ab = arc("a", "b")
        // 400 m at 10 km/h at 17:00 (learned), at 20 km/h at 03:00 (imported).
        #expect(abs(t.traverseMs(ab, entry: rush) / 1000 - 144) < 1)
        #expect(abs(t.traverseMs(ab, entry: night) / 1000 - 72) < 1)
        #expect(t.profileOrigin(ab) == [.learned, .imported])
        #expect(t.profileOrigin(arc("b", "c")).isEmpty)
    }

    @Test func learnedSpeedsAreNeverFasterThanFreeFlow() throws {
        let s = Self.scenario
        let learner = SpeedLearner(stateFolder: Fixtures.temporaryDirectory("wayfinder-learner").path, timeZone: zone, minimumObservations: 1)
        try learner.observe(LiveUpdate(id: "u", kind: .speeds, createdAt: rush, expiresAt: rush + 60, source: "t",
                                       entries: [.init(from: s.osmID("a"), to: s.osmID("b"), speedKmh: 250)]))
        let t = table(TrafficModel(graph: graph, timeZone: zone, learned: learner.profiles()))
        let ab = arc("a", "b")
        #expect(t.traverseMs(ab, entry: rush) == Double(graph.arcDurationMs[ab]))
    }

    @Test func closuresAreNotLearnedAndTheStateSurvivesAReload() throws {
        let s = Self.scenario
        let folder = Fixtures.temporaryDirectory("wayfinder-learner").path
        let learner = SpeedLearner(stateFolder: folder, timeZone: zone, minimumObservations: 1)
        #expect(try learner.observe(LiveUpdate(id: "c", kind: .closures, createdAt: rush, expiresAt: rush + 60, source: "t",
                                               entries: [.init(from: s.osmID("a"), to: s.osmID("b"), speedKmh: nil)])) == false)
        #expect(learner.summary.segments == 0)
        try learner.observe(LiveUpdate(id: "u", kind: .speeds, createdAt: rush, expiresAt: rush + 60, source: "t",
                                       entries: [.init(from: s.osmID("a"), to: s.osmID("b"), speedKmh: 12)]))
        let reloaded = SpeedLearner(stateFolder: folder, timeZone: zone, minimumObservations: 1)
        #expect(reloaded.summary == learner.summary)
        let profiles = try #require(reloaded.profiles())
        // Monday 17:00 is slot 68 of the week.
        #expect(profiles.weekSpeeds(0)[68] == 12 && profiles.weekSpeeds(0)[67] == 0)
    }
}
