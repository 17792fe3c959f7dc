import Testing
import MapsTestSupport
import MapsService
import RoadNetwork
import OSMPBF

/// Where traffic keeps left, a car's and a taxi's turns cost what their mirror image costs where it
/// keeps right (OSRM car.lua's `left_hand_driving`): a left turn is the one towards the kerb, a right
/// turn crosses the oncoming lane. The country comes from the extract's boundary, else from the time zone.
@Suite("Left-hand traffic") struct LeftHandTrafficTests {
    /// A T junction, 100 m grid: `abc` a street, `bd` a side street south of `b`. From `a` a driver
    /// turns right into it, from `c` left; both drives are 200 m.
    static let junction = """
        a b c
          d
        """

    /// The cheap turn towards the kerb (2.10 s) against the one across traffic (5.40 s + 1.93 s of waiting).
    static let difference = 7.32 - 2.10

    static func map(country code: String?) throws -> Scenario {
        let boundary: [(ways: [String], tags: Tags)] = code.map {
            [(ways: ["bd"], tags: ["type": "boundary", "boundary": "administrative", "admin_level": "2", "ISO3166-1": $0])]
        } ?? []
        return try Scenario(junction, ways: ["abc": ["highway": "residential"], "bd": ["highway": "residential"]],
                            relations: boundary)
    }

    /// Seconds a right turn at `b` costs more than a left turn.
    static func rightLessLeft(_ s: Scenario, mode: TravelMode) throws -> Double {
        let right = try #require(s.routeResult(["a", "d"], mode: mode))
        let left = try #require(s.routeResult(["c", "d"], mode: mode))
        #expect(right.nodes == "abd" && left.nodes == "cbd")
        return right.durationSeconds - left.durationSeconds
    }

    @Test("the boundary's country decides which turn crosses traffic", arguments: [
        ("GB", true), ("JP", true), ("AU", true), ("DE", false), ("US", false), (nil, false),
    ] as [(String?, Bool)])
    func turnsByCountry(_ code: String?, keepsLeft: Bool) throws {
        let s = try Self.map(country: code)
        for mode in [TravelMode.car, .taxi] {
            let extra = try Self.rightLessLeft(s, mode: mode)
            #expect(abs(extra - (keepsLeft ? Self.difference : -Self.difference)) < 0.05, "\(mode): right − left \(extra) s")
        }
    }

    /// A cyclist's turns keep bicycle.lua's bias towards the right in every country.
    @Test func aBicycleKeepsItsBias() throws {
        for code in ["GB", "DE"] {
            #expect(try Self.rightLessLeft(try Self.map(country: code), mode: .bicycle) < 0)
        }
    }

    /// Through the import and the routing service: the time zone given by hand tells the side when
    /// the extract names no country; a boundary's country wins over it. The side the guidance is
    /// written for is the one the turns were costed for.
    @Test("the imported dataset costs turns for its driving side", arguments: [
        (nil, "Europe/London", true), (nil, "Europe/Berlin", false), ("GB", "Europe/Helsinki", true), ("DE", "Europe/London", false),
    ] as [(String?, String, Bool)])
    func importedTurns(_ code: String?, timeZone: String, keepsLeft: Bool) throws {
        let s = try Self.map(country: code)
        let service = try s.service(clock: RouteOptionTests.clock, timeZone: timeZone)
        #expect(service.drivingSide == (keepsLeft ? .left : .right))
        let right = try service.calculateRoute(s.query(["a", "d"])).routes[0]
        let left = try service.calculateRoute(s.query(["c", "d"])).routes[0]
        #expect(s.nodes(right) == "abd" && s.nodes(left) == "cbd")
        let extra = right.summary.travelTimeInSeconds - left.summary.travelTimeInSeconds
        #expect(keepsLeft ? extra >= 4 : extra <= -4, "right − left \(extra) s")
    }
}
