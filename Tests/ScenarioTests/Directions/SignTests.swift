import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import OSMPBF

/// What drivers read on the sign, carried into TomTom's and OSRM's fields: exits and where they
/// lead, road numbers, lanes, the side of the road traffic keeps to.
@Suite("Guidance: signs, lanes and shields") struct SignTests {
    typealias P = GuidanceProbe

    static func exit(junctionRef: String? = nil) throws -> Scenario {
        var link: Tags = ["highway": "motorway_link", "oneway": "yes", "name": "",
                          "destination": "Darmstadt;Frankfurt", "destination:ref": "A 67"]
        if let junctionRef { link.pairs.append(("junction:ref", junctionRef)) }
        return try Scenario("""
            a     b     c
                      d
            """, gridMeters: 100, wayList: [
                ("abc", ["highway": "motorway", "oneway": "yes", "name": "", "ref": "A 5"]), ("bd", link),
            ], nodes: ["b": ["highway": "motorway_junction", "ref": "12", "name": "Darmstadt-Nord"]])
    }

    @Test func anExitIsToldByItsNumberAndWhereItLeads() throws {
        let s = try Self.exit()
        let steps = try P.tomTom(s, ["a", "d"])
        let exit = try #require(steps.dropFirst().first)
        #expect(exit.maneuver == "MOTORWAY_EXIT_RIGHT")
        #expect(exit.message == "Take exit 12 towards A 67: Darmstadt, Frankfurt")
        #expect(exit.exitNumber == "12")
        #expect(exit.signpostText == "A 67: Darmstadt, Frankfurt")
        #expect(exit.junctionType == "BIFURCATION")
        #expect((exit.turnAngleInDecimalDegrees ?? 0) > 0)
        let osrm = try P.osrm(s, ["a", "d"])
        let ramp = try #require(osrm.first { $0.maneuver.type == "off ramp" })
        #expect(ramp.maneuver.modifier == "slight right")
        #expect(ramp.exits == "12")
        #expect(ramp.destinations == "A 67: Darmstadt, Frankfurt")
        #expect(ramp.maneuver.instruction == "Take exit 12 towards A 67: Darmstadt, Frankfurt")
        #expect(osrm.first?.ref == "A 5")
    }

    @Test func theRampsOwnExitNumberWins() throws {
        let steps = try P.tomTom(try Self.exit(junctionRef: "12a"), ["a", "d"])
        #expect(steps[1].exitNumber == "12a")
        #expect(steps[1].message?.hasPrefix("Take exit 12a towards") == true)
    }

    @Test func joiningAMotorwayIsAMerge() throws {
        let s = try Scenario("""
            e     f
            x            g     h
            """, gridMeters: 100, ways: [
                "efg": ["highway": "motorway_link", "oneway": "yes", "name": ""],
                "xgh": ["highway": "motorway", "oneway": "yes", "name": "", "ref": "A 5"]])
        let steps = try P.tomTom(s, ["e", "h"])
        #expect(P.middle(steps) == ["ENTER_MOTORWAY"])
        #expect(steps[1].message == "Join the motorway A 5")
        #expect(steps[1].roadNumbers == ["A 5"])
        let osrm = try P.osrm(s, ["e", "h"])
        #expect(P.middle(osrm).first?.hasPrefix("merge") == true)
        #expect(osrm.first { $0.maneuver.type == "merge" }?.ref == "A 5")
    }

    @Test func theEndOfARoadIsSaid() throws {
        let s = try Scenario("""
            w     j     e
                  s
            """, gridMeters: 100, ways: ["wje": ["highway": "residential", "name": "Cross Street"],
                                         "sj": ["highway": "residential", "name": "South Street"]])
        let steps = try P.tomTom(s, ["s", "w"])
        #expect(steps[1].message == "At the end of the road turn left onto Cross Street")
        #expect(P.middle(try P.osrm(s, ["s", "w"])) == ["end of road left"])
    }

    static let lanes = """
              n
        a     b     e
              s
        """

    @Test func lanesBeforeAJunctionShowWhichToTake() throws {
        let s = try Scenario(Self.lanes, gridMeters: 100, ways: [
            "ab": ["highway": "primary", "name": "Main Street", "turn:lanes": "left|through|through;right"],
            "be": ["highway": "primary", "name": "Main Street"], "nbs": ["highway": "secondary", "name": "Cross Street"]])
        let route = try P.route(s, ["a", "s"]) { $0.sectionTypes = ["lanes"] }
        let section = try #require(route.sections.first { $0.sectionType == "LANES" })
        #expect(section.lanes?.map(\.directions) == [["LEFT"], ["STRAIGHT"], ["STRAIGHT", "RIGHT"]])
        #expect(section.lanes?.map(\.follow) == [nil, nil, "RIGHT"])
        let turn = try #require(route.guidance?.instructions.first { $0.maneuver == "TURN_RIGHT" })
        #expect(section.endPointIndex == turn.pointIndex)
        let osrm = try P.osrm(s, ["a", "s"])
        let lanes = try #require(osrm.first { $0.maneuver.type == "turn" }?.intersections.first?.lanes)
        #expect(lanes.map(\.indications) == [["left"], ["straight"], ["straight", "right"]])
        #expect(lanes.map(\.valid) == [false, false, true])
        // Without turn:lanes there is no lane section.
        let plain = try Scenario(Self.lanes, gridMeters: 100, ways: [
            "ab": ["highway": "primary", "name": "Main Street"], "be": ["highway": "primary", "name": "Main Street"],
            "nbs": ["highway": "secondary", "name": "Cross Street"]])
        #expect(try P.route(plain, ["a", "s"]) { $0.sectionTypes = ["lanes"] }.sections.allSatisfy { $0.sectionType != "LANES" })
    }

    @Test func roadNumbersAreShields() throws {
        let s = try Scenario(Self.lanes, gridMeters: 100, ways: [
            "abe": ["highway": "primary", "name": "Main Street"], "nbs": ["highway": "primary", "name": "Hauptstraße", "ref": "B 3;B 37"]])
        let turn = try P.tomTom(s, ["a", "s"])[1]
        #expect(turn.roadNumbers == ["B 3", "B 37"])
        #expect(turn.message == "Turn right onto Hauptstraße/B 3/B 37")
        #expect(try P.osrm(s, ["a", "s"])[1].ref == "B 3; B 37")
        // Tagged instructions mark the parts up.
        let tagged = try P.tomTom(s, ["a", "s"]) { $0.instructions = .tagged }[1]
        #expect(tagged.message == "Turn right onto <street>Hauptstraße</street>/<roadNumber>B 3</roadNumber>/<roadNumber>B 37</roadNumber>")
        let coded = try P.tomTom(s, ["a", "s"]) { $0.instructions = .coded }[1]
        #expect(coded.message == nil && coded.maneuver == "TURN_RIGHT" && coded.turnAngleInDecimalDegrees == 90)
    }

    @Test func closeInstructionsCanBeSaidTogether() throws {
        let s = try Scenario("""
                  n
            a     b     e
                  c     d
            """, gridMeters: 100, ways: [
                "abe": ["highway": "residential", "name": "First Street"], "nbc": ["highway": "residential", "name": "Second Street"],
                "cd": ["highway": "residential", "name": "Third Street"]])
        let steps = try P.tomTom(s, ["a", "d"])
        #expect(P.middle(steps) == ["TURN_RIGHT", "TURN_LEFT"])
        #expect(steps[1].possibleCombineWithNext)
        #expect(steps[1].combinedMessage == "Turn right onto Second Street then turn left onto Third Street")
        #expect(!steps[2].possibleCombineWithNext && steps[2].combinedMessage == nil)
    }

    @Test func theDrivingSideComesFromTheCountry() throws {
        let s = try Scenario(Self.lanes, gridMeters: 100, ways: [
            "abe": ["highway": "primary", "name": "High Street"], "nbs": ["highway": "primary", "name": "Church Road"]])
        let left = try P.service(s, timeZone: "Europe/London")
        #expect(try P.tomTom(s, ["a", "s"], service: left).allSatisfy { $0.drivingSide == "LEFT" })
        #expect(try P.osrm(s, ["a", "s"], service: left).allSatisfy { $0.driving_side == "left" })
        #expect(try P.tomTom(s, ["a", "s"]).allSatisfy { $0.drivingSide == "RIGHT" })
    }
}
