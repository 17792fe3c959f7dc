import Testing
import MapsTestSupport
import OSMPBF
import RoutePlanning

/// Fastest car routes choose by OSRM car.lua's `routability` weight: the duration divided by the
/// share of its speed a road is worth (a single-lane or narrow two-way road, a parking aisle),
/// while the time they report is the real duration.
@Suite("Rate weights") struct RateWeightTests {
    /// a–b is 800 m straight; a–c–d–b goes round it, 600 m longer (1 400 m: about 205 s at 25 km/h with its two turns).
    static let map = """
        a - - - - - - - b
        |               |
        |               |
        c - - - - - - - d
        """

    static func scenario(direct: Tags) throws -> Scenario {
        try Scenario(map, ways: ["ab": direct, "ac": ["highway": "residential"],
                                 "cd": ["highway": "residential"], "db": ["highway": "residential"]])
    }

    /// Weighed at half its speed, the single-lane road's 115 s count as 230, more than the 205 s or
    /// so of the two-lane way round; without the lanes tag it is the quicker road and taken.
    @Test(arguments: [["lanes": "1"], ["width": "3"], ["width": "2,5 m"]])
    func aNarrowTwoWayRoadLosesToAQuickerWideRoad(narrow: [String: String]) throws {
        let tags = Tags(narrow.merging(["highway": "residential"]) { own, _ in own })
        #expect(try Self.scenario(direct: tags).route("a", "b") == "acdb")
        #expect(try Self.scenario(direct: ["highway": "residential"]).route("a", "b") == "ab")
    }

    /// A one-way single-lane road has no oncoming traffic: car.lua weighs it whole.
    @Test func aSingleLaneOneWayRoadCountsWhole() throws {
        #expect(try Self.scenario(direct: ["highway": "residential", "lanes": "1", "oneway": "yes"]).route("a", "b") == "ab")
    }

    /// A parking aisle is driven at the `service` speed (15 km/h: 800 m in 192 s, quicker) but weighs twice
    /// that, so a car keeps to the 1 400 m of residential streets (about 205 s) instead.
    @Test func aParkingAisleIsNotAShortcut() throws {
        let s = try Self.scenario(direct: ["highway": "service", "service": "parking_aisle"])
        #expect(s.route("a", "b") == "acdb")
    }

    /// The time reported is the sum of real durations, not the weight: the single-lane road, the
    /// only way from a to b here, takes as long as the same road without a lanes tag.
    @Test func theReportedTimeIsTheDurationNotTheWeight() throws {
        let line = "a - - - - - - - b"
        let narrow = try #require(try Scenario(line, ways: ["ab": ["highway": "residential", "lanes": "1"]]).routeResult(["a", "b"]))
        let open = try #require(try Scenario(line, ways: ["ab": ["highway": "residential"]]).routeResult(["a", "b"]))
        #expect(abs(narrow.durationSeconds - open.durationSeconds) < 0.5, "\(narrow.durationSeconds) s against \(open.durationSeconds) s")
        #expect(abs(narrow.route.durationSeconds - open.route.durationSeconds) < 0.5)
        // 800 m of parking aisle at 15 km/h: 192 s, the weight's 384 s nowhere.
        let aisle = try #require(try Scenario(line, ways: ["ab": ["highway": "service", "service": "parking_aisle"]]).routeResult(["a", "b"]))
        #expect(abs(aisle.durationSeconds - 192) < 2, "\(aisle.durationSeconds) s")
    }

    /// With no traffic in force, a depart-at or arrive-by route is the static route, chosen by the
    /// same weight.
    @Test(arguments: [false, true])
    func aTimedRouteWithoutTrafficChoosesByTheWeight(arriveBy: Bool) throws {
        let s = try Self.scenario(direct: ["highway": "residential", "lanes": "1"])
        var request = PlanRequest(waypoints: [s.coordinate("a"), s.coordinate("b")])
        let moment = Scenario.quietHour.timeIntervalSince1970 + 3600
        request.timing = arriveBy ? .arriveBy(moment) : .departAt(moment)
        let route = try #require(s.planning.plan(request).plan?.best)
        #expect(s.describe(route, graph: s.graphs[.car]!).nodes == "acdb")
    }
}
