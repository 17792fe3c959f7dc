import Foundation
import Testing
import MapsTestSupport
import MapsService

/// A point on a road that the mode reaches only over roads it may not drive (a hamlet joined to
/// the network by a track alone, as Monaco's hills or Porto's and Heidelberg's forest villages):
/// the route starts or ends at the nearest road of the large part, as OSRM's second candidate
/// does, and its notice says how far the point was moved.
@Suite("Pieces reached only over roads the mode may not drive") struct UnreachablePieceTests {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))

    /// Streets a–b–f–e and, 1.5 km down a track from b, a street c–d of its own.
    static func hamlet(gridMeters: Double = 100) throws -> Scenario {
        try Scenario("""
            a - - - b                             c - - - d
                    |
            e - - - f
            """, gridMeters: gridMeters, ways: ["ab": ["highway": "residential"], "bf": ["highway": "residential"],
                                                "fe": ["highway": "residential"],
                                                "bc": ["highway": "track"], "cd": ["highway": "residential"]])
    }

    @Test func aDestinationInTheHamletEndsAtTheNearestRoadACarReaches() throws {
        let s = try Self.hamlet()
        let route = try #require(s.routeResult(["a", "d"]), "NoRoute")
        #expect(route.nodes == "ab", "route \(route.nodes)")
        let body = try s.service(clock: Self.clock).calculateRoute(s.query(["a", "d"])).routes[0]
        let notice = body.advisoryNotices?.first { $0.hasPrefix("The destination lies on a road reached only over roads") }
        #expect(notice?.contains("\(Int(route.route.waypoints[1].distanceMeters.rounded())) m from the point") == true,
                "\(body.advisoryNotices ?? [])")
        #expect(route.route.waypoints[1].distanceMeters > 1500)
    }

    @Test func anOriginInTheHamletStartsFromTheNearestRoadACarReaches() throws {
        let s = try Self.hamlet()
        let route = try #require(s.routeResult(["d", "e"]), "NoRoute")
        #expect(route.nodes == "bfe", "route \(route.nodes)")
        #expect(route.route.waypoints[0].movedOffUnreachablePiece)
    }

    @Test func aRouteWithinTheHamletStaysThere() throws {
        let s = try Self.hamlet()
        #expect(s.route("c", "d") == "cd")
    }

    /// 15 km down the track the hamlet is another part of the map: no route, rather than a trip
    /// that ends far from the point.
    @Test func aPieceFarBeyondTheLimitHasNoRoute() throws {
        let s = try Self.hamlet(gridMeters: 1000)
        #expect(s.routeResult(["a", "d"]) == nil)
    }
}
