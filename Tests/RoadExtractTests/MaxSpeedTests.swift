import Testing
import OSMPBF
import RoadExtract

@Suite struct MaxSpeedTests {
    @Test(arguments: [
        ("50", 50.0), ("30 mph", 48.28), ("20 knots", 37.04), ("50 km/h", 50), ("FI:urban", 50), ("RU:rural", 90),
        ("DE:motorway", 140), ("walk", 7), ("none", 140), ("50;30", 30), ("FR:zone30", 30), ("XX:urban", 50),
        ("AT:rural", 100),
    ] as [(String, Double)])
    func parses(text: String, kmh: Double) throws {
        let value = try #require(MaxSpeed.kmh(text))
        #expect(abs(value - kmh) < 0.01)
    }

    @Test(arguments: ["signals", "variable", "", "fast", "-5", "0"])
    func rejects(text: String) {
        #expect(MaxSpeed.kmh(text) == nil)
    }

    /// car.lua's order: the advisory speed, the limit, then the zone a limit was derived from; a
    /// direction's own key before the key for both.
    @Test(arguments: [
        (["maxspeed": "50", "maxspeed:advisory": "30"], 30.0, 30.0),
        (["maxspeed": "50", "maxspeed:backward": "30"], 50, 30),
        (["source:maxspeed": "DE:urban"], 50, 50),
        (["maxspeed:type": "US:rural", "maxspeed": "35 mph"], 56.33, 56.33),
        (["source:maxspeed": "sign", "maxspeed:type": "DE:rural"], 100, 100),
    ] as [([String: String], Double, Double)])
    func signed(tags: [String: String], forward: Double, backward: Double) throws {
        let limits = MaxSpeed.signed(Tags(tags))
        #expect(abs(try #require(limits.forward) - forward) < 0.01)
        #expect(abs(try #require(limits.backward) - backward) < 0.01)
    }

    @Test func noKeyNoSpeed() {
        let limits = MaxSpeed.signed(["highway": "residential", "source:maxspeed": "sign"])
        #expect(limits.forward == nil && limits.backward == nil)
    }
}
