import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI

/// Where a road bends at a junction: when keeping on it is a decision worth saying, and which way
/// it is said. Drawn maps through the production path, read back in TomTom's and OSRM's shapes.
@Suite("Guidance: bends at junctions") struct BendTests {
    typealias P = GuidanceProbe

    @Test func aMinorWayLeavingAsGentlyAsABendMakesTheBendADecision() throws {
        // Main Street bends 34° left at b; a service road leaves 39° right, less than 1.4 times
        // the bend: a Y where the driver sees two ways (as at Heidelberg's Bismarckplatz).
        let y = try Scenario("""
                                      c

            a                   b

                                     d
            """, gridMeters: 10, ways: [
                "ab": ["highway": "primary", "name": "Main Street"], "bc": ["highway": "primary", "name": "Main Street"],
                "bd": ["highway": "service", "name": ""]])
        #expect(P.middle(try P.osrm(y, ["a", "c"])) == ["continue slight left"])
        #expect(P.middle(try P.tomTom(y, ["a", "c"])) == ["BEAR_LEFT"])
        // The same service road leaving square (72°) is no rival: the bend says nothing.
        let side = try Scenario("""
                                      c

            a                   b


                                  d
            """, gridMeters: 10, ways: [
                "ab": ["highway": "primary", "name": "Main Street"], "bc": ["highway": "primary", "name": "Main Street"],
                "bd": ["highway": "service", "name": ""]])
        #expect(P.middle(try P.osrm(side, ["a", "c"])) == [])
        // Nor is a service road beside a road that goes on straight.
        let straight = try Scenario("""
            a                   b                   c

                                     d
            """, gridMeters: 10, ways: [
                "abc": ["highway": "primary", "name": "Main Street"], "bd": ["highway": "service", "name": ""]])
        #expect(P.middle(try P.osrm(straight, ["a", "c"])) == [])
    }

    @Test func keepingOnARoadThatCurlsOnIsSaidByTheWholeBend() throws {
        // Main Street leaves b 34° left beside Side Street (10° left, a choice) and curls on to 72°
        // within 20 m: by 25 m the driver has turned 56°, a left (as at Helsinki's Unioninkatu).
        let s = try Scenario("""
                                                            e


                                                          c                f

            a                                       b
            """, gridMeters: 5, ways: [
                "ab": ["highway": "secondary", "name": "Main Street"], "bce": ["highway": "secondary", "name": "Main Street"],
                "bf": ["highway": "secondary", "name": "Side Street"]])
        #expect(P.middle(try P.osrm(s, ["a", "e"])) == ["continue left"])
        #expect(P.middle(try P.tomTom(s, ["a", "e"])) == ["TURN_LEFT"])
        #expect(P.middle(try P.osrm(s, ["a", "f"])).count == 1)
    }
}
