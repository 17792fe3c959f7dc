import Testing
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
}
