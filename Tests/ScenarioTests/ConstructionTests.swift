import Foundation
import Testing
import MapsTestSupport

/// A road with `construction=*` is under works and closed to cars unless the value says the works
/// leave it open (`no`, `widening`, `minor`), as OSRM's car.lua reads it: Milan's Cassanese trunk
/// (w53237917, `highway=trunk, construction=trunk`) was a shortcut OSRM does not take.
@Suite("Roads under construction") struct ConstructionTests {
    static func shortcut(_ construction: String) throws -> Scenario {
        try Scenario("""
            x - a - - - - - - - b - y
                |               |
                c - - - - - - - d
            """, ways: ["xa": ["highway": "trunk"], "by": ["highway": "trunk"], "acdb": ["highway": "trunk"],
                        "ab": ["highway": "trunk", "construction": construction]])
    }

    @Test(arguments: ["trunk", "yes", "primary"])
    func aRoadUnderWorksIsNotDriven(construction: String) throws {
        #expect(try Self.shortcut(construction).route("x", "y") == "xacdby")
    }

    @Test(arguments: ["minor", "widening", "no"])
    func minorWorksLeaveTheRoadOpen(construction: String) throws {
        #expect(try Self.shortcut(construction).route("x", "y") == "xaby")
    }
}
