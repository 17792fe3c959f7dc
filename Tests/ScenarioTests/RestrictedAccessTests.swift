import Foundation
import Testing
import MapsTestSupport
import MapsService
import RoadNetwork
import RoutePlanning

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

    @Test(arguments: [false, true])
    func aPrivateStreetIsNotPassedThrough(departAt: Bool) throws {
        let s = try Scenario(Self.shortcut, ways: ["xa": ["highway": "residential"], "by": ["highway": "residential"],
                                                   "ab": ["highway": "residential", "access": "private"],
                                                   "acdb": ["highway": "residential"]])
        var request = PlanRequest(waypoints: [s.coordinate("x"), s.coordinate("y")])
        if departAt { request.timing = .departAt(Scenario.quietHour.timeIntervalSince1970 + 3600) }
        let route = try #require(s.planning.plan(request).plan?.best)
        #expect(s.describe(route, graph: s.graphs[.car]!).nodes == "xacdby")
    }
}
