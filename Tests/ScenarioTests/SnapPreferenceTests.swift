import Foundation
import Testing
import MapsTestSupport
import OSMPBF
import RoadNetwork

/// Where a point meets the network: never on a ferry or a platform while a road of the mode is
/// within reach, and on a piece that only a ferry reaches only when the point is clearly on it.
@Suite("Snapping preferences") struct SnapPreferenceTests {
    /// `1` is 80 m from the street a–b and 40 m from the line p–q below it.
    static let besideMap = """
        a - - - - - - - - b
        |                 |
        |       1         |
        p - - - - - - - - q
        """

    static func beside(_ line: Tags, mode: TravelMode = .car) throws -> Scenario {
        try Scenario(besideMap, gridMeters: 40, wayList: [("ab", ["highway": "residential"]), ("ap", ["highway": "residential"]),
                                                      ("bq", ["highway": "residential"]), ("pq", line)])
    }

    @Test func aPointBesideAFerryStartsAndEndsOnTheRoad() throws {
        let s = try Self.beside(["route": "ferry", "duration": "00:02"])
        // Along a–b only (a route from the ferry would pass q).
        #expect(s.route("1", "b") == "b")
        #expect(s.route("a", "1") == "a")
    }

    @Test func aPointBesideAPlatformStartsOnTheFootway() throws {
        let s = try Scenario(Self.besideMap, gridMeters: 40, wayList: [
            ("ab", ["highway": "footway"]), ("ap", ["highway": "footway"]), ("bq", ["highway": "footway"]),
            ("pq", ["highway": "platform", "public_transport": "platform"]),
        ])
        #expect(s.route("1", "b", mode: .pedestrian) == "b")
    }

    @Test func aPointOnlyNearAFerryStillSnapsToIt() throws {
        // With no road within the limit, the ferry is the last resort rather than no route.
        let s = try Scenario("""
            a - p - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - q - b
                                              1
            """, gridMeters: 100, ways: ["ap": ["highway": "residential"], "pq": ["route": "ferry", "duration": "00:20"],
                                         "qb": ["highway": "residential"]])
        #expect(s.route("1", "b") == "qb")
    }

    /// The mainland streets a–b–c–d, and the pier road x–y that only the ferry b–x reaches.
    /// `1` stands on the mainland shore: 40 m from the pier road, 80 m from a–b.
    /// `2` stands on the island: 40 m from the pier road, 200 m from a–b.
    static let islandMap = """
        d - - - - f - - - c
        |         |       |
        a - - - - e - - - b
                          |
              1           |
              x - - - - - y
              2
        """

    static func island() throws -> Scenario {
        try Scenario(islandMap, gridMeters: 40, wayList: [
            ("ae", ["highway": "residential"]), ("eb", ["highway": "residential"]), ("bc", ["highway": "residential"]),
            ("cf", ["highway": "residential"]), ("fd", ["highway": "residential"]), ("da", ["highway": "residential"]),
            ("ef", ["highway": "residential"]), ("xy", ["highway": "residential"]),
            ("by", ["route": "ferry", "duration": "00:05"]),
        ])
    }

    @Test func aPointOnTheShoreDoesNotTakeTheFerryToThePierOpposite() throws {
        let s = try Self.island()
        let there = try #require(s.route("1", "d"))
        let back = try #require(s.route("d", "1"))
        #expect(!there.contains("y") && !back.contains("y"), "\(there) / \(back)")
    }

    @Test func aPointOnTheIslandTakesTheFerry() throws {
        let s = try Self.island()
        #expect(s.route("2", "d")?.hasPrefix("xyb") == true, "\(s.route("2", "d") ?? "no route")")
    }
}
