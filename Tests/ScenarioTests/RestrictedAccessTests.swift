import Foundation
import Testing
import MapsTestSupport
import MapsService
import RoadNetwork
import RoutePlanning
import OSMPBF

/// Roads for private use, destinations, deliveries or customers only: a route may begin or end on
/// them (as OSRM's and TomTom's do), never pass through them, and says so in its notices.
@Suite("Restricted access") struct RestrictedAccessTests {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))

    /// A public street with a private court off it; `1` stands at the end of the court, 40 m
    /// from it and 160 m from the street.
    static func court(_ access: String) throws -> Scenario {
        try Scenario("""
            a - - - b - - - c
                    |
                    d
                    |
                    e
                    1
            """, gridMeters: 40, ways: ["abc": ["highway": "residential"],
                                        "bde": ["highway": "service", "access": access]])
    }

    @Test(arguments: ["private", "destination", "delivery", "customers"])
    func aRouteStartsOnTheRestrictedCourtItself(access: String) throws {
        let s = try Self.court(access)
        let route = try #require(s.routeResult(["1", "a"]))
        #expect(route.nodes == "edba", "route \(route.nodes)")
    }

    @Test func aRouteEndsOnThePrivateCourtWithTheNotice() throws {
        let s = try Self.court("private")
        let route = try #require(s.routeResult(["a", "1"]))
        #expect(route.nodes == "abde", "route \(route.nodes)")
        let service = try s.service(clock: Self.clock)
        let body = try service.calculateRoute(s.query(["a", "1"])).routes[0]
        #expect(body.advisoryNotices?.contains { $0.contains("restricted access") } == true, "\(body.advisoryNotices ?? [])")
    }

    @Test func aPedestrianStartsOnAPrivateFootway() throws {
        let s = try Scenario("""
            a - - - b - - - c
                    |
                    d
                    1
            """, gridMeters: 40, ways: ["abc": ["highway": "residential"], "bd": ["highway": "footway", "foot": "private"]])
        #expect(s.routeResult(["1", "a"], mode: .pedestrian)?.nodes == "dba")
    }

    /// x→y: straight through a private street (400 m) or around it (1.2 km); the private street
    /// is not a shortcut, leaving now or at a given time.
    static let shortcut = """
        x - a - - - - - - - b - y
            |               |
            |               |
            c - - - - - - - d
        """
    /// The shortcut a–b is private; the way round is public.
    static var shortcutWays: KeyValuePairs<String, Tags> {
        ["xa": ["highway": "residential"], "by": ["highway": "residential"],
         "ab": ["highway": "residential", "access": "private"], "acdb": ["highway": "residential"]]
    }

    @Test(arguments: [false, true])
    func aPrivateStreetIsNotPassedThrough(departAt: Bool) throws {
        let s = try Scenario(Self.shortcut, ways: Self.shortcutWays)
        var request = PlanRequest(waypoints: [s.coordinate("x"), s.coordinate("y")])
        if departAt { request.timing = .departAt(Scenario.quietHour.timeIntervalSince1970 + 3600) }
        let route = try #require(s.planning.plan(request).plan?.best)
        #expect(s.describe(route, graph: s.graphs[.car]!).nodes == "xacdby")
    }

    /// Arriving by a given time, the latest departure is the one around the private street, as
    /// leaving now or at a given time.
    @Test func anArriveByRouteDoesNotPassThroughAPrivateStreet() throws {
        let s = try Scenario(Self.shortcut, ways: Self.shortcutWays)
        var request = PlanRequest(waypoints: [s.coordinate("x"), s.coordinate("y")])
        request.timing = .arriveBy(Scenario.quietHour.timeIntervalSince1970 + 3 * 3600)
        let route = try #require(s.planning.plan(request).plan?.best)
        #expect(s.describe(route, graph: s.graphs[.car]!).nodes == "xacdby")
    }

    /// The same shortcut on a map 200 times the size: around is 80 km longer, hours more, and
    /// still the route does not pass through (OSRM's entry charge, an hour, would).
    @Test(arguments: [false, true])
    func aPrivateStreetIsNotPassedThroughEvenToSaveHours(departAt: Bool) throws {
        let s = try Scenario(Self.shortcut, gridMeters: 20_000, ways: Self.shortcutWays)
        var request = PlanRequest(waypoints: [s.coordinate("x"), s.coordinate("y")])
        if departAt { request.timing = .departAt(Scenario.quietHour.timeIntervalSince1970 + 3600) }
        let route = try #require(s.planning.plan(request).plan?.best)
        #expect(s.describe(route, graph: s.graphs[.car]!).nodes == "xacdby")
    }

    /// A hamlet (d e f g) whose only way in is a destination-only lane b–d off a block of
    /// public streets: the lane is one area a route may end or begin in; the hamlet beyond it is
    /// reached only by passing through it, so a route ends (or begins) at the lane's end, d.
    static let hamlet = """
        h - - - i - - - j
        |       |       |
        a - - - b - - - c
                |
                d
                |
                e - f
                |
                g
        """

    static func hamletBehindALane() throws -> Scenario {
        try Scenario(Self.hamlet, ways: ["hij": ["highway": "residential"], "abc": ["highway": "residential"],
                                         "ha": ["highway": "residential"], "ib": ["highway": "residential"], "jc": ["highway": "residential"],
                                         "bd": ["highway": "residential", "motor_vehicle": "destination"],
                                         "de": ["highway": "residential"], "ef": ["highway": "residential"], "eg": ["highway": "residential"]])
    }

    @Test func aDestinationBeyondARestrictedLaneEndsAtTheLanesEnd() throws {
        let s = try Self.hamletBehindALane()
        #expect(s.route("a", "g") == "abd")
        #expect(s.route("g", "a") == "dba")
        #expect(s.route("a", "d") == "abd")
    }

    @Test func aRouteWithinTheHamletStaysInIt() throws {
        let s = try Self.hamletBehindALane()
        #expect(s.route("g", "f") == "gef")
    }

    /// A one-way street d→e entered only from a destination-only lane b–d and leading out to the
    /// public ring (as Traubenweg off Hasenbühler Weg in Heidelberg): a pocket of the lane's area,
    /// so a route ends on it (`1`) through the lane, but a route to the ring beyond does not pass
    /// through it.
    static func pocket() throws -> Scenario {
        try Scenario("""
                      c - - - - - - - - - f
                      |                   |
            a - - - - b                   |
            |         |                   |
            |         d - - - - 1 - - - - e
            |                             |
            g - - - - - - - - - - - - - - h
            """, ways: ["ab": ["highway": "residential"], "bc": ["highway": "residential"], "cf": ["highway": "residential"],
                        "fe": ["highway": "residential"], "eh": ["highway": "residential"], "hg": ["highway": "residential"],
                        "ga": ["highway": "residential"],
                        "bd": ["highway": "residential", "motor_vehicle": "destination"],
                        "de": ["highway": "residential", "oneway": "yes"]])
    }

    @Test func aOneWayLeftOfADestinationLaneIsWhereARouteMayEnd() throws {
        let s = try Self.pocket()
        let route = try #require(s.routeResult(["a", "1"]))
        #expect(route.nodes.hasPrefix("abd") && route.ways.last == "de", "route \(route.nodes) over \(route.ways)")
        let around = try #require(s.route("a", "e"))
        #expect(!around.contains("d"), "route \(around)")
    }

    /// A two-way street a–c–d off a block of public streets into a destination-only lane d–e:
    /// the way out of the lane belongs to the lane's area, the way into it does not, so a route
    /// from i to `1` keeps to public streets (1.2 km) instead of cutting through the lane (800 m).
    @Test func aStreetIntoADestinationLaneIsReachedOverPublicStreets() throws {
        let s = try Scenario("""
            h - - - - - - - i
            |               |
            a - - - - - - - b
            |               |
            c - 1 - d - - - e
            """, ways: ["hi": ["highway": "residential"], "ha": ["highway": "residential"], "ib": ["highway": "residential"],
                        "ab": ["highway": "residential"], "acd": ["highway": "residential"], "be": ["highway": "residential"],
                        "de": ["highway": "residential", "motor_vehicle": "destination"]])
        let route = try #require(s.route("i", "1"))
        #expect(route.hasPrefix("iha") && !route.contains("e"), "route \(route)")
    }
}
