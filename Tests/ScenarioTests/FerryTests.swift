import Foundation
import Testing
import MapsTestSupport
import OSMPBF
import RoadNetwork

/// Ferries carry the modes their tags say (every mode when untagged, as OSRM and Valhalla read
/// them); sightseeing lines carry nobody; a tagged duration counts unless it is impossible.
@Suite("Ferries") struct FerryTests {
    /// a→b: 2.4 km around by road (about 6 min by car), or across by the ferry p–r–q (900 m).
    static let harbourMap = """
        c - - - - - - - d
        |               |
        |               |
        a - p       q - b
              \\   /
                r
        """

    static func harbour(ferry: Tags, key: String = "prq") throws -> Scenario {
        try Scenario(harbourMap, gridMeters: 200, wayList: [
            ("acdb", ["highway": "residential"]), ("ap", ["highway": "residential"]), ("qb", ["highway": "residential"]),
            (key, ferry),
        ])
    }

    @Test func aCrossingWithATaggedDurationIsTaken() throws {
        let s = try Self.harbour(ferry: ["route": "ferry", "duration": "00:03"])
        let route = try #require(s.routeResult(["a", "b"]))
        #expect(route.nodes == "aprqb", "route \(route.nodes)")
        #expect(route.durationSeconds > 180 && route.durationSeconds < 300, "\(route.durationSeconds) s")
    }

    @Test(arguments: [
        (["route": "ferry", "duration": "00:03", "name": "Harbour Tour"], "a tour by name"),
        (["route": "ferry", "duration": "00:03", "name": "Sunset cruise"], "a cruise by name"),
        (["route": "ferry", "duration": "00:03", "tourism": "attraction"], "tourism-tagged"),
    ] as [(Tags, String)])
    func sightseeingLinesAreNotCrossings(ferry: Tags, why: String) throws {
        let s = try Self.harbour(ferry: ferry)
        #expect(s.route("a", "b") == "acdb", "\(why)")
        #expect(s.route("a", "b", mode: .pedestrian)?.contains("r") == false, "\(why), on foot")
    }

    @Test func hoursForAFewHundredMetresIsNoCrossing() throws {
        // Without the road around, the line is the only way across: three hours for 900 m is a
        // cruise with stops, so there is no route rather than a three-hour "crossing".
        let s = try Scenario(Self.harbourMap, gridMeters: 200, wayList: [
            ("ap", ["highway": "residential"]), ("qb", ["highway": "residential"]),
            ("prq", ["route": "ferry", "duration": "3:00"]),
        ])
        #expect(s.route("a", "b") == nil)
        #expect(s.route("a", "b", mode: .pedestrian) == nil)
    }

    @Test func aLoopIsASightseeingLine() throws {
        let s = try Self.harbour(ferry: ["route": "ferry", "duration": "00:05"], key: "prqp")
        #expect(s.route("a", "b") == "acdb")
    }

    @Test func anImpossiblyFastDurationFallsBackToTheFerrySpeed() throws {
        // 900 m in a minute is 54 km/h: believed; in 10 s it is a slip, and the 5 km/h crossing loses to the road.
        #expect(try Self.harbour(ferry: ["route": "ferry", "duration": "00:01"]).route("a", "b") == "aprqb")
        #expect(try Self.harbour(ferry: ["route": "ferry", "duration": "00:00:10"]).route("a", "b") == "acdb")
    }

    @Test(arguments: [
        (["route": "ferry", "duration": "00:03", "motor_vehicle": "no"], TravelMode.car, false),
        (["route": "ferry", "duration": "00:03", "motorcar": "no"], .car, false),
        (["route": "ferry", "duration": "00:03", "motor_vehicle": "no"], .pedestrian, true),
        (["route": "ferry", "duration": "00:03", "foot": "no"], .pedestrian, false),
        (["route": "ferry", "duration": "00:03", "foot": "no"], .car, true),
        (["route": "ferry", "duration": "00:03", "bicycle": "no"], .bicycle, false),
        (["route": "ferry", "duration": "00:03", "vehicle": "no"], .bicycle, false),
        (["route": "ferry", "duration": "00:03"], .bicycle, true),
    ] as [(Tags, TravelMode, Bool)])
    func aFerryCarriesTheModesItsTagsSay(ferry: Tags, mode: TravelMode, carried: Bool) throws {
        let s = try Self.harbour(ferry: ferry)
        let nodes = try #require(s.route("a", "b", mode: mode))
        #expect(nodes.contains("r") == carried, "\(mode): \(nodes)")
    }
}
