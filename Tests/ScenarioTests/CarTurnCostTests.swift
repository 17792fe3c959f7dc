import Testing
import MapsTestSupport
import OSMPBF

/// What a car's turns cost at a junction, after OSRM car.lua 26.10: the angle's sigmoid (7.5 s at
/// most, cheaper towards the kerb), plus up to 2 s for a turn across oncoming traffic.
@Suite("Car turn costs") struct CarTurnCostTests {
    /// A T junction, 100 m grid: `abc` a street, `bd` a side street south of `b`.
    static let junction = """
        a b c
          d
        """

    static func turnSeconds(_ s: Scenario, _ from: Character, _ to: Character) throws -> Double {
        let route = try #require(s.routeResult([from, to]))
        #expect(route.nodes == String([from, "b", to]))
        return route.durationSeconds - route.distanceMeters / (25 / 3.6)
    }

    /// Right into the side street: the sigmoid at 90° towards the kerb, 2.10 s. Left into it, across
    /// the oncoming lane: the sigmoid's 5.40 s plus 2 s × 0.963 for waiting for a gap, 7.32 s.
    @Test func aLeftTurnWaitsForOncomingTraffic() throws {
        let s = try Scenario(Self.junction, ways: ["abc": ["highway": "residential"], "bd": ["highway": "residential"]])
        let right = try Self.turnSeconds(s, "a", "d")
        let left = try Self.turnSeconds(s, "c", "d")
        #expect(abs(right - 2.10) < 0.05, "right turn \(right) s")
        #expect(abs(left - 7.32) < 0.05, "left turn \(left) s")
    }

    /// Turning left onto a roundabout crosses no oncoming lane: the sigmoid alone.
    @Test func aTurnOntoARoundaboutHasNoOncomingTraffic() throws {
        let s = try Scenario(Self.junction, ways: ["abc": ["highway": "residential"],
                                                   "bd": ["highway": "residential", "junction": "roundabout"]])
        let left = try Self.turnSeconds(s, "c", "d")
        #expect(abs(left - 5.40) < 0.05, "left turn \(left) s")
    }

    static func seconds(_ s: Scenario, _ from: Character, _ to: Character) throws -> Double {
        try #require(s.routeResult([from, to])).durationSeconds
    }

    /// What a sign at `node` adds to the trip, against the same map without it.
    static func signSeconds(_ drawing: String, gridMeters: Double = 100, ways: KeyValuePairs<String, Tags>,
                            node: Character, sign: Tags, from: Character, to: Character) throws -> Double {
        let signed = try Scenario(drawing, gridMeters: gridMeters, ways: ways, nodes: [node: sign])
        let plain = try Scenario(drawing, gridMeters: gridMeters, ways: ways)
        return try seconds(signed, from, to) - seconds(plain, from, to)
    }

    /// A give-way costs a second to the traffic it holds: both directions, or only the one its
    /// `direction` names (along the way's drawing).
    @Test func aGiveWayCostsASecond() throws {
        let line = "a - - - s - - - b"
        let ways: KeyValuePairs<String, Tags> = ["asb": ["highway": "residential"]]
        for (from, to) in [("a", "b"), ("b", "a")] as [(Character, Character)] {
            let extra = try Self.signSeconds(line, ways: ways, node: "s", sign: ["highway": "give_way"], from: from, to: to)
            #expect(abs(extra - 1) < 0.01, "\(from)\(to): \(extra) s")
        }
        let along = try Self.signSeconds(line, ways: ways, node: "s", sign: ["highway": "give_way", "direction": "forward"], from: "a", to: "b")
        let against = try Self.signSeconds(line, ways: ways, node: "s", sign: ["highway": "give_way", "direction": "forward"], from: "b", to: "a")
        #expect(abs(along - 1) < 0.01 && abs(against) < 0.01, "along \(along) s, against \(against) s")
    }

    /// A stop sign drawn on the side street 10 m before the junction, without a direction: the
    /// 2 s count for traffic heading to the junction, not for traffic leaving it.
    @Test func aStopBeforeAJunctionHoldsTrafficHeadingToIt() throws {
        let drawing = """
            a - - - - - - - b - - - - - - - c
                            s
                            |
                            |
                            d
            """
        let ways: KeyValuePairs<String, Tags> = ["abc": ["highway": "residential"], "bsd": ["highway": "residential"]]
        let stop: Tags = ["highway": "stop"]
        let heading = try Self.signSeconds(drawing, gridMeters: 10, ways: ways, node: "s", sign: stop, from: "d", to: "a")
        let leaving = try Self.signSeconds(drawing, gridMeters: 10, ways: ways, node: "s", sign: stop, from: "a", to: "d")
        #expect(abs(heading - 2) < 0.01, "heading to the junction \(heading) s")
        #expect(abs(leaving) < 0.01, "leaving it \(leaving) s")
    }

    /// `stop=minor` at the junction holds only traffic arriving by the minor road.
    @Test func aMinorStopHoldsOnlyTheMinorRoad() throws {
        let ways: KeyValuePairs<String, Tags> = ["abc": ["highway": "primary"], "bd": ["highway": "residential"]]
        let stop: Tags = ["highway": "stop", "stop": "minor"]
        let minor = try Self.signSeconds(Self.junction, ways: ways, node: "b", sign: stop, from: "d", to: "a")
        let major = try Self.signSeconds(Self.junction, ways: ways, node: "b", sign: stop, from: "a", to: "c")
        #expect(abs(minor - 2) < 0.01, "from the minor road \(minor) s")
        #expect(abs(major) < 0.01, "along the major road \(major) s")
    }
}
