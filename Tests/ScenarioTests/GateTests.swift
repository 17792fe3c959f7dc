import Testing
import MapsTestSupport
import OSMPBF

/// Gates across a road: a car passes them, and each costs the minute OSRM's car.lua gives it
/// (stop, open, drive through, close), unless the node's access tags say who may pass.
@Suite("Gates") struct GateTests {
    /// a–g–b is 800 m through the gate g; a–c–d–b goes round it, 200 m (about 29 s) longer.
    static let map = """
        a - - - g - - - b
        |               |
        c - - - - - - - d
        """

    static func scenario(gate: Tags?) throws -> Scenario {
        try Scenario(map, ways: ["agb": ["highway": "residential"], "ac": ["highway": "residential"],
                                 "cd": ["highway": "residential"], "db": ["highway": "residential"]],
                     nodes: gate.map { ["g": $0] } ?? [:])
    }

    @Test(arguments: ["gate", "lift_gate"])
    func aCarGoesRoundAGateWhenTheDetourIsQuicker(barrier: String) throws {
        #expect(try Self.scenario(gate: ["barrier": barrier]).route("a", "b") == "acdb")
        #expect(try Self.scenario(gate: nil).route("a", "b") == "agb")
    }

    @Test func aGateOpenToCarsByItsAccessTagsCostsNothing() throws {
        #expect(try Self.scenario(gate: ["barrier": "gate", "motor_vehicle": "yes"]).route("a", "b") == "agb")
    }

    @Test func passingAGateTakesAMinute() throws {
        let drawing = "a - - - g - - - b"
        let ways: KeyValuePairs<String, Tags> = ["agb": ["highway": "residential"]]
        let gated = try Scenario(drawing, ways: ways, nodes: ["g": ["barrier": "gate"]]).routeResult(["a", "b"])
        let open = try Scenario(drawing, ways: ways).routeResult(["a", "b"])
        let difference = try #require(gated?.durationSeconds) - (try #require(open?.durationSeconds))
        #expect(abs(difference - 60) < 0.5, "gate costs \(difference) s")
        // A route that ends at the gate does not pass it.
        #expect(try Scenario(drawing, ways: ways, nodes: ["g": ["barrier": "gate"]]).routeResult(["a", "g"])?.nodes == "ag")
    }
}
