import Testing
import MapsTestSupport
import RoadNetwork
import OSMPBF

/// A bridge that opens for boats (`bridge=movable`) is crossed by car at 5 km/h, the waits for it
/// included, whatever the road; a tagged `duration` wins (OSRM car.lua 26.10's `bridge_speeds`).
@Suite("Movable bridges") struct MovableBridgeTests {
    /// 100 m grid: `ab` a street, `bc` a street over the water.
    static func seconds(bridge: Tags, mode: TravelMode = .car) throws -> Double {
        var tags: Tags = ["highway": "residential"]
        for (k, v) in bridge.pairs { tags.pairs.append((k, v)) }
        let s = try Scenario("a b c", ways: ["ab": ["highway": "residential"], "bc": tags])
        return try #require(s.routeResult(["a", "c"], mode: mode)).durationSeconds
    }

    /// 100 m at 25 km/h (14.4 s), then 100 m at 5 km/h (72 s).
    @Test func aMovableBridgeIsCrossedAtWalkingPace() throws {
        #expect(abs(try Self.seconds(bridge: ["bridge": "yes"]) - 28.8) < 0.05)
        #expect(abs(try Self.seconds(bridge: ["bridge": "movable"]) - 86.4) < 0.05)
        #expect(abs(try Self.seconds(bridge: ["bridge": "movable"], mode: .taxi) - 86.4) < 0.05)
    }

    @Test func aTaggedDurationWins() throws {
        #expect(abs(try Self.seconds(bridge: ["bridge": "movable", "duration": "00:03"]) - (14.4 + 180)) < 0.05)
    }

    /// bicycle.lua has no bridge speeds.
    @Test func aBicycleRidesOverAtItsOwnSpeed() throws {
        #expect(try Self.seconds(bridge: ["bridge": "movable"], mode: .bicycle) == (try Self.seconds(bridge: ["bridge": "yes"], mode: .bicycle)))
    }

    /// The slow crossing decides the route: 400 m round the block (57.6 s) beat 200 m over an opening bridge (86.4 s).
    @Test func aCarGoesRoundAMovableBridge() throws {
        let map = """
            a b c
            d e f
            """
        func route(_ bridge: String) throws -> String? {
            try Scenario(map, ways: ["ab": ["highway": "residential"], "bc": ["highway": "residential", "bridge": bridge],
                                     "ad": ["highway": "residential"], "def": ["highway": "residential"], "fc": ["highway": "residential"]])
                .route("a", "c")
        }
        #expect(try route("yes") == "abc")
        #expect(try route("movable") == "adefc")
    }
}
