import Testing
import MapsTestSupport
import OSMPBF

@Suite("Oneway streets") struct OnewayTests {
    let scenario: Scenario

    init() throws {
        scenario = try Scenario("""
            a - b
            |   | \\
            d - c  e
            """, ways: ["ab": ["highway": "primary", "oneway": "yes"], "bc": ["highway": "primary", "oneway": "yes"],
                        "cd": ["highway": "primary", "oneway": "yes"], "da": ["highway": "primary", "oneway": "yes"],
                        "be": ["highway": "residential"]])
    }

    @Test("routes follow the one-way direction", arguments: [
        ("a", "b", "ab"), ("b", "a", "bcda"), ("a", "e", "abe"), ("e", "a", "ebcda"),
    ] as [(Character, Character, String)])
    func route(from: Character, to: Character, expected: String) {
        #expect(scenario.route(from, to) == expected)
    }

    @Test("pedestrians ignore one-ways", arguments: [("b", "a", "ba"), ("e", "a", "eba")] as [(Character, Character, String)])
    func walking(from: Character, to: Character, expected: String) {
        #expect(scenario.route(from, to, mode: .pedestrian) == expected)
    }
}

/// A car obeys the one-way keys of its own class first (`oneway:motorcar`, `oneway:motor_vehicle`,
/// `oneway:vehicle`), then `oneway`, as OSRM's car.lua does.
@Suite("Oneway keys of the vehicle class") struct VehicleOnewayTests {
    /// a–b is 800 m straight; a–c–d–b goes round it.
    static let map = """
        a - - - - - - - b
        |               |
        c - - - - - - - d
        """

    static func scenario(direct: Tags) throws -> Scenario {
        try Scenario(map, ways: ["ab": direct, "ac": ["highway": "residential"],
                                 "cd": ["highway": "residential"], "db": ["highway": "residential"]])
    }

    @Test(arguments: ["oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle"])
    func theVehicleClassKeyComesFirst(key: String) throws {
        let open = try Self.scenario(direct: Tags([(key: "highway", value: "residential"), (key: "oneway", value: "yes"), (key: key, value: "no")]))
        #expect(open.route("b", "a") == "ba")
        let closed = try Self.scenario(direct: Tags([(key: "highway", value: "residential"), (key: "oneway", value: "no"), (key: key, value: "yes")]))
        #expect(closed.route("b", "a") == "bdca")
        #expect(closed.route("a", "b") == "ab")
    }

    /// `oneway:bicycle=no` lets bicycles ride both ways; a car still keeps to the one-way.
    @Test func anotherModesKeyDoesNotApply() throws {
        let s = try Self.scenario(direct: ["highway": "residential", "oneway": "yes", "oneway:bicycle": "no"])
        #expect(s.route("b", "a") == "bdca")
    }
}
