import Foundation
import Testing
import MapsTestSupport
import GeoCore
import RoadNetwork
import RoutePlanning

/// A waypoint on a junction node may leave or arrive by any road there, as OSRM's does: which of
/// the roads a point a few centimetres from the node snaps to must not decide the route.
@Suite("Snapping at a junction") struct JunctionSnapTests {
    /// At j a one-way leaves west for o (and comes back round by x and y); the street east to t
    /// is two-way. `near` is 40 cm west of j, on the one-way.
    static func map() throws -> Scenario {
        try Scenario("""
            o - - - j - - - t
            |       |
            x - - - y
            """, gridMeters: 40, ways: ["jo": ["highway": "residential", "oneway": "yes"],
                                        "oxyj": ["highway": "residential"],
                                        "jt": ["highway": "residential"]])
    }

    static func near(_ c: Coordinate, westMeters: Double) -> Coordinate {
        Coordinate(latitude: c.latitude, longitude: c.longitude - westMeters / (111_320 * cos(c.latitude * .pi / 180)))
    }

    @Test func aPointAtAJunctionLeavesByAnyRoadThere() throws {
        let s = try Self.map()
        let start = Self.near(s.coordinate("j"), westMeters: 0.4)
        let route = try #require(s.planning.plan(PlanRequest(waypoints: [start, s.coordinate("t")], mode: .car)).plan?.best)
        let result = s.describe(route, graph: try #require(s.graphs[.car]))
        #expect(result.nodes == "jt", "route \(result.nodes)")
        #expect(result.distanceMeters < 170)
    }

    @Test func aPointAFewMetresFromTheJunctionKeepsItsRoad() throws {
        // 5 m along the one-way is on it, not at the junction: the route goes round.
        let s = try Self.map()
        let start = Self.near(s.coordinate("j"), westMeters: 5)
        let route = try #require(s.planning.plan(PlanRequest(waypoints: [start, s.coordinate("t")], mode: .car)).plan?.best)
        let result = s.describe(route, graph: try #require(s.graphs[.car]))
        #expect(result.nodes == "oxyjt", "route \(result.nodes)")
    }

    /// Two one-ways cross at j, each bound by `only_straight_on` (a→j only on to c, b→j only on
    /// to d: Helsinki's Bulevardi at Mannerheimintie, r75468 and r9112926): no turn joins one
    /// pair of roads to the other, and a destination 40 cm down j→c still arrives straight from
    /// b, not round the block by d, y and a.
    @Test func aJunctionsRoadsAreFoundWhenRestrictionsLeaveNoTurnBetweenThem() throws {
        let s = try Scenario("""
            x - - - a - - - y
            |       |       |
            b - - - j - - - d
            |       |       |
            w - - - c - - - z
            """, gridMeters: 40, ways: ["aj": ["highway": "residential", "oneway": "yes"], "jc": ["highway": "residential", "oneway": "yes"],
                                        "bj": ["highway": "residential", "oneway": "yes"], "jd": ["highway": "residential", "oneway": "yes"],
                                        "xay": ["highway": "residential"], "ydz": ["highway": "residential"],
                                        "zcw": ["highway": "residential"], "wbx": ["highway": "residential"]],
            restrictions: [.init(from: "aj", via: "j", to: "jc", type: "only_straight_on"),
                           .init(from: "bj", via: "j", to: "jd", type: "only_straight_on")])
        let j = s.coordinate("j")
        let end = Coordinate(latitude: j.latitude - 0.4 / 111_320, longitude: j.longitude)
        let route = try #require(s.planning.plan(PlanRequest(waypoints: [s.coordinate("b"), end], mode: .car)).plan?.best)
        let result = s.describe(route, graph: try #require(s.graphs[.car]))
        #expect(result.nodes == "bj", "route \(result.nodes)")
        #expect(result.distanceMeters < 200)
    }
}
