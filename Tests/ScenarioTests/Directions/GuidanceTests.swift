import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI

@Suite("Turn-by-turn guidance") struct GuidanceTests {
    static func instructions(_ s: Scenario, _ stops: [Character], configure: (inout RouteQuery) -> Void = { _ in }) throws -> [Instruction] {
        let service = try s.service(clock: RouteOptionTests.clock)
        var q = s.query(stops)
        q.instructions = .text
        configure(&q)
        return try #require(try service.calculateRoute(q).routes[0].guidance).instructions
    }

    static let cross = """
          n
        w j e
          s
        """

    @Test("turns at a crossroads", arguments: [
        ("s", "w", "TURN_LEFT", "Turn left onto West Street"),
        ("s", "e", "TURN_RIGHT", "Turn right onto East Street"),
        ("e", "n", "TURN_RIGHT", "Turn right onto North Street"),
    ] as [(Character, Character, String, String)])
    func crossroads(from: Character, to: Character, maneuver: String, message: String) throws {
        let s = try Scenario(Self.cross, gridMeters: 200, ways: [
            "sj": ["highway": "residential", "name": "South Street"], "jn": ["highway": "residential", "name": "North Street"],
            "jw": ["highway": "residential", "name": "West Street"], "je": ["highway": "residential", "name": "East Street"]])
        let steps = try Self.instructions(s, [from, to])
        #expect(steps.first?.maneuver == "DEPART")
        #expect(steps.first?.instructionType == "LOCATION_DEPARTURE")
        let turn = try #require(steps.dropFirst().first)
        #expect(turn.maneuver == maneuver)
        #expect(turn.message == message)
        #expect(turn.instructionType == "TURN")
        #expect(abs(turn.routeOffsetInMeters - 200) <= 2)
        #expect(steps.last?.instructionType == "LOCATION_ARRIVAL")
        #expect(steps.allSatisfy { !$0.drivingSide.isEmpty })
    }

    @Test func straightOnTheSameRoadSaysNothing() throws {
        let s = try Scenario(Self.cross, gridMeters: 200, ways: [
            "sjn": ["highway": "residential", "name": "Main Street"], "wje": ["highway": "residential", "name": "Cross Street"]])
        let steps = try Self.instructions(s, ["s", "n"])
        #expect(steps.map(\.maneuver) == ["DEPART", "ARRIVE"])
    }

    @Test func arrivalSaysWhichSide() throws {
        let s = try Scenario("""
            a       b
                1
                    
                2
            """, gridMeters: 100, ways: ["ab": ["highway": "residential"]])
        // 1 is just south of a road driven eastwards: on the right.
        let steps = try Self.instructions(s, ["a", "1"])
        #expect(steps.last?.maneuver == "ARRIVE_RIGHT")
        #expect(steps.last?.message == "You have arrived. Your destination is on the right")
    }

    @Test func stepsCarryDistancesAndPoints() throws {
        let s = try Scenario(Self.cross, gridMeters: 200, ways: [
            "sj": ["highway": "residential", "name": "South Street"], "jw": ["highway": "residential", "name": "West Street"]])
        let service = try s.service(clock: RouteOptionTests.clock)
        var q = s.query(["s", "w"])
        q.instructions = .text
        let route = try service.calculateRoute(q).routes[0]
        let steps = try #require(route.steps)
        #expect(steps.count == 3)
        #expect(steps[0].instruction == "Head north on South Street")
        #expect(abs(steps[0].distanceInMeters - 200) <= 2)
        #expect(steps[0].points.count >= 2)
        #expect(steps.reduce(0) { $0 + $1.distanceInMeters } == route.summary.lengthInMeters)
        #expect(route.guidance?.instructionGroups.first?.groupMessage?.hasPrefix("Leave from South Street") == true)
    }

    @Test func unsupportedLanguageIsABadRequest() throws {
        let s = try Scenario("a b", ways: ["ab": ["highway": "residential"]])
        let service = try s.service(clock: RouteOptionTests.clock)
        var q = s.query(["a", "b"])
        q.instructions = .text
        q.language = "xx-YY"
        #expect(throws: APIError.self) { try service.calculateRoute(q) }
    }
}
