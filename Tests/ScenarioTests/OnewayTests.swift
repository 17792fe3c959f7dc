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
