import Foundation
import Testing
import MapsTestSupport
import MapsService
import OSMPBF

/// A point whose nearest road lies in a small piece of the network that the large part reaches
/// only one way (a one-way street into a dead end, as an extract's edge often leaves them): routes
/// go into the piece when they can, and start from the large part when they cannot leave it.
@Suite("Small pieces of the network") struct SmallPieceTests {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))
    let scenario: Scenario

    init() throws {
        scenario = try Scenario("""
            a - b - c - d
            |   |   |   |
            h - g - f - e
                    |
                    x
                    |
                    y
            """, ways: ["abcd": ["highway": "residential"], "hgfe": ["highway": "residential"], "ah": ["highway": "residential"],
                        "bg": ["highway": "residential"], "cf": ["highway": "residential"], "de": ["highway": "residential"], "fx": ["highway": "residential", "oneway": "yes"],
                        "xy": ["highway": "residential"]])
    }

    @Test func aDestinationInAOneWayPocketIsReached() throws {
        let service = try scenario.service(clock: Self.clock)
        let route = try service.calculateRoute(scenario.query(["a", "y"])).routes[0]
        #expect(scenario.nodes(route).hasSuffix("fxy"), "route \(scenario.nodes(route))")
    }

    @Test func anOriginThatCannotLeaveStartsFromTheLargePart() throws {
        let service = try scenario.service(clock: Self.clock)
        let route = try service.calculateRoute(scenario.query(["y", "a"])).routes[0]
        let nodes = scenario.nodes(route)
        #expect(!nodes.contains("x") && !nodes.contains("y") && nodes.hasSuffix("a"), "route \(nodes)")
    }

    /// A two-way bridge whose far end m meets only a one-way ramp down to a roundabout under
    /// construction (not driven) and one up from it: at m a car can neither turn back nor go on,
    /// so the bridge's two directions lie in different pieces of the turn graph, yet a trip from
    /// beside the dead ramp starts on the bridge (OSRM joins a two-way road's directions into one
    /// piece), not at the nearest junction of the large part 220 m away.
    @Test func anOriginBesideADeadRampStartsOnTheBridgeItLeavesFrom() throws {
        let tertiary: Tags = ["highway": "tertiary", "oneway": "yes"]
        let s = try Scenario("""
            a - b - c - - - - - - - m - - - r
            |   |   |                     1
            d - e - f               s
            """, gridMeters: 20, ways: ["abc": ["highway": "residential"], "def": ["highway": "residential"],
                                        "ad": ["highway": "residential"], "be": ["highway": "residential"],
                                        "cf": ["highway": "residential"], "cm": ["highway": "tertiary", "bridge": "yes"],
                                        "mr": tertiary, "sm": tertiary,
                                        "rs": ["highway": "tertiary", "junction": "roundabout", "construction": "secondary"]])
        #expect(s.route("1", "a") == "mcba")
        #expect(s.route("a", "1") == "abcm")
    }
}
