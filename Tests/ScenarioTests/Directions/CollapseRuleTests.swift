import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import RoutePlanning

/// One instruction per decision: each rule that folds what a driver does not decide, on a drawn
/// map routed through the production path (import, planning, guidance, TomTom and OSRM shapes).
/// Every map here gives an extra instruction when its rule is taken out.
@Suite("Guidance: one instruction per decision") struct CollapseRuleTests {
    typealias P = GuidanceProbe

    // MARK: Forks and bends that keep the name and the road class

    @Test func aRoadSplitAroundAnIslandSaysNothing() throws {
        // Both branches are Main Street and meet again at d: one road, not a fork.
        let s = try Scenario("""
                      c
            a     b       d     e
                      f
            """, gridMeters: 20, ways: [
                "ab": ["highway": "primary", "name": "Main Street"],
                "bcd": ["highway": "primary", "name": "Main Street", "oneway": "yes"],
                "bfd": ["highway": "primary", "name": "Main Street", "oneway": "yes"],
                "de": ["highway": "primary", "name": "Main Street"]])
        let tomTom = try P.tomTom(s, ["a", "e"]), osrm = try P.osrm(s, ["a", "e"])
        #expect(P.middle(tomTom) == [])
        #expect(P.middle(osrm) == [])
    }

    @Test func aBendKeepingNameAndClassPastALesserRoadSaysNothing() throws {
        // Main Street bends 24° right; a residential street leaves 45° left, less than twice the
        // angle: only the name and class make the way on obvious.
        let s = try Scenario("""
                                            d





            a                   b




                                                  c
            """, gridMeters: 10, ways: [
                "abc": ["highway": "secondary", "name": "Main Street"], "bd": ["highway": "residential", "name": "Side Street"]])
        #expect(P.middle(try P.tomTom(s, ["a", "c"])) == [])
        let side = try P.tomTom(s, ["a", "d"])
        #expect(P.middle(side) == ["BEAR_LEFT"] || P.middle(side) == ["TURN_LEFT"])
    }

    @Test func realForksAreKept() throws {
        let s = try Scenario("""
                          l
            a     f
                          r
            """, gridMeters: 300, ways: ["af": ["highway": "primary", "name": "Trunk Road"],
                                         "fl": ["highway": "primary", "name": "Left Branch"],
                                         "fr": ["highway": "primary", "name": "Right Branch"]])
        let left = try P.tomTom(s, ["a", "l"])
        #expect(P.middle(left) == ["KEEP_LEFT"])
        #expect(left[1].junctionType == "BIFURCATION")
        #expect(left[1].message == "Keep left onto Left Branch")
        #expect(P.middle(try P.tomTom(s, ["a", "r"])) == ["KEEP_RIGHT"])
        #expect(P.middle(try P.osrm(s, ["a", "r"])) == ["fork slight right"])
    }

    @Test func aStartOnAForksNodeSaysOnlyTheDeparture() throws {
        // Starting on the node where the road splits, snapped (by its bearing, due east) onto the
        // end of the road arriving there: the driver is not driving through the fork.
        let s = try Scenario("""
                          l
            a     f
                          r
            """, gridMeters: 300, ways: ["af": ["highway": "primary", "name": "Trunk Road"],
                                         "fl": ["highway": "primary", "name": "Left Branch"],
                                         "fr": ["highway": "primary", "name": "Right Branch"]])
        let atTheNode: (inout RouteQuery) -> Void = {
            var east = WaypointSnapping()
            east.bearing = (degrees: 90, range: 10)
            $0.snapping = [east, WaypointSnapping()]
        }
        let osrm = try P.osrm(s, ["f", "l"], configure: atTheNode)
        #expect(P.middle(osrm) == [])
        #expect(osrm.first?.name == "Left Branch")
        #expect(P.middle(try P.tomTom(s, ["f", "l"], configure: atTheNode)) == [])
    }

    @Test func aLoopCurlingBackIsAUTurnNotAFork() throws {
        // Main Street goes on north to e; beside it a loop of the same name leaves only 20° left
        // but curls back south within 40 m (into the other carriageway): no fork to keep right
        // at, and taking the loop is a U-turn, as OSRM says it.
        let s = try Scenario("""


                          e





                   g   f

                        c





                   h    a
            """, gridMeters: 5, ways: [
                "ac": ["highway": "secondary", "name": "Main Street", "oneway": "yes"],
                "ce": ["highway": "secondary", "name": "Main Street"],
                "cfgh": ["highway": "secondary", "name": "Main Street", "oneway": "yes"]])
        #expect(P.middle(try P.tomTom(s, ["a", "e"])) == [])
        #expect(P.middle(try P.osrm(s, ["a", "e"])) == [])
        #expect(P.middle(try P.osrm(s, ["a", "h"])) == ["continue uturn"])
    }

    // MARK: A new name where the name does not change

    @Test func aNumberChangingOnTheSameNamedRoadIsNoNewName() throws {
        let s = try Scenario("a   b   c   d", gridMeters: 100, ways: [
            "ab": ["highway": "primary", "name": "Main Street", "ref": "B 3"],
            "bc": ["highway": "primary", "name": "Main Street", "ref": "B 4"],
            "cd": ["highway": "primary", "name": "Main Street"]])
        #expect(P.middle(try P.tomTom(s, ["a", "d"])) == [])
        #expect(P.middle(try P.osrm(s, ["a", "d"])) == [])
    }

    @Test func aNameComingBackAfterAnUnnamedStretchIsNoNewName() throws {
        // Main Street, 300 m without a name, Main Street again: the driver never left it.
        let s = try Scenario("a   b   c   d", gridMeters: 100, ways: [
            "ab": ["highway": "primary", "name": "Main Street"], "bc": ["highway": "primary", "name": ""],
            "cd": ["highway": "primary", "name": "Main Street"]])
        let tomTom = try P.tomTom(s, ["a", "d"])
        #expect(P.middle(tomTom) == [])
    }

    @Test func aRealNameChangeIsAnnounced() throws {
        let s = try Scenario("a b c", gridMeters: 200, ways: ["ab": ["highway": "primary", "name": "Kaivokatu"],
                                                            "bc": ["highway": "primary", "name": "Mikonkatu", "ref": "E12"]])
        let steps = try P.tomTom(s, ["a", "c"])
        #expect(P.middle(steps) == ["STRAIGHT"])
        #expect(steps[1].message == "Continue onto Mikonkatu/E12")
        #expect(steps[1].roadNumbers == ["E12"])
        #expect(P.middle(try P.osrm(s, ["a", "c"])) == ["new name straight"])
    }

    // MARK: Roundabouts: entry and exit as one instruction

    static let ring = """
                n
        w       p       q       e
                s       t
                  y         x
        """

    static func ringScenario(name: String) throws -> Scenario {
        // A one-way ring p → s → t → q → p (anticlockwise, for right-hand traffic), a service road off it at s.
        try Scenario(ring, gridMeters: 150, wayList: [
            ("pstqp", ["highway": "primary", "junction": "roundabout", "name": name]),
            ("wp", ["highway": "primary", "name": "West Road"]), ("np", ["highway": "primary", "name": "North Road"]),
            ("qe", ["highway": "primary", "name": "East Road"]), ("tx", ["highway": "primary", "name": "South Road"]),
            ("sy", ["highway": "service", "name": ""]),
        ])
    }

    @Test func aRoundaboutIsOneInstructionWithItsExitCounted() throws {
        let s = try Self.ringScenario(name: "")
        let service = try P.service(s)
        // From w: round p → s (a service road: not an exit that counts) → t (South Road, 1st) → q (East Road, 2nd).
        let toX = try P.tomTom(s, ["w", "x"], service: service)
        #expect(P.middle(toX).count == 1)
        let enter = try #require(toX.first { $0.junctionType == "ROUNDABOUT" })
        #expect(enter.roundaboutExitNumber == 1)
        #expect(enter.message == "At the roundabout take the 1st exit onto South Road")
        let toE = try P.tomTom(s, ["w", "e"], service: service)
        #expect(P.middle(toE).count == 1)
        #expect(toE.first { $0.junctionType == "ROUNDABOUT" }?.roundaboutExitNumber == 2)
        // OSRM's shape: the roundabout with its exit number, then leaving it.
        let osrm = try P.osrm(s, ["w", "e"], service: service)
        #expect(osrm.map(\.maneuver.type) == ["depart", "roundabout", "exit roundabout", "arrive"])
        #expect(osrm.filter { $0.maneuver.type.contains("roundabout") }.map(\.maneuver.exit) == [2, 2])
        #expect(osrm.first { $0.maneuver.type == "exit roundabout" }?.name == "East Road")
        // Leaving where one entered is a plain turn, no roundabout at all.
        #expect(try P.tomTom(s, ["w", "n"], service: service).first { $0.junctionType == "ROUNDABOUT" } == nil)
    }

    @Test func aLargeNamedRingIsARotary() throws {
        let s = try Self.ringScenario(name: "Ring Plaza")
        let service = try P.service(s)
        let toE = try P.tomTom(s, ["w", "e"], service: service)
        #expect(toE.first { $0.junctionType == "ROUNDABOUT" }?.message == "At Ring Plaza take the 2nd exit onto East Road")
        let osrm = try P.osrm(s, ["w", "e"], service: service)
        let rotary = try #require(osrm.first { $0.maneuver.type == "rotary" })
        #expect(rotary.rotary_name == "Ring Plaza")
        #expect(rotary.maneuver.exit == 2)
        #expect(osrm.contains { $0.maneuver.type == "exit rotary" })
    }

    @Test func aSmallFourWayRingIsARoundaboutTurn() throws {
        // A 9 m ring with one road at each of its four nodes, well apart: taken like a junction.
        let s = try Scenario("""
                    n

                    i
              w j       k e
                    l

                    s
            """, gridMeters: 5, wayList: [
                ("ijlki", ["highway": "residential", "junction": "roundabout", "name": ""]),
                ("ni", ["highway": "residential", "name": "North Street"]), ("wj", ["highway": "residential", "name": "West Street"]),
                ("ke", ["highway": "residential", "name": "East Street"]), ("ls", ["highway": "residential", "name": "South Street"]),
            ])
        let osrm = try P.osrm(s, ["w", "e"])
        #expect(P.middle(osrm) == ["roundabout turn straight"])
        #expect(osrm.first { $0.maneuver.type == "roundabout turn" }?.maneuver.exit == 2)
        let tomTom = try P.tomTom(s, ["w", "e"])
        #expect(P.middle(tomTom) == ["ROUNDABOUT_CROSS"])
        #expect(tomTom[1].message == "At the roundabout take the 2nd exit onto East Street")
    }

    // MARK: Short segments in junctions and dual carriageways

    @Test func twoTurnsAcrossADualCarriagewayAreOneUTurn() throws {
        // OSRM's segregated intersection: first (dual, one-way each side) crossed by second.
        let s = try Scenario("""
                i l
            d   c b   a
            e   f g   h
                j k
            """, gridMeters: 20, ways: [
                "abcd": ["highway": "primary", "name": "first", "oneway": "yes"],
                "efgh": ["highway": "primary", "name": "first", "oneway": "yes"],
                "ic": ["highway": "primary", "name": "second", "oneway": "yes"], "bl": ["highway": "primary", "name": "second", "oneway": "yes"],
                "kg": ["highway": "primary", "name": "second", "oneway": "yes"], "fj": ["highway": "primary", "name": "second", "oneway": "yes"],
                "cf": ["highway": "primary", "name": "first", "oneway": "yes"], "gb": ["highway": "primary", "name": "first", "oneway": "yes"]])
        #expect(P.middle(try P.tomTom(s, ["a", "h"])) == ["MAKE_UTURN"])
        #expect(P.middle(try P.osrm(s, ["a", "h"])) == ["continue uturn"])
        // Turning onto the cross road stays one turn.
        #expect(P.middle(try P.osrm(s, ["a", "j"])).count == 1)
    }

    @Test func aStaggeredCrossingGoesStraightOn() throws {
        // The cross road's two halves are 2 m apart: right then left is straight on along first.
        let s = try Scenario("""
                                x
            a                   b
                                c                   d
                                y
            """, gridMeters: 2, ways: [
                "ab": ["highway": "residential", "name": "first"], "cd": ["highway": "residential", "name": "first"],
                "xbcy": ["highway": "residential", "name": "second"]])
        #expect(P.middle(try P.tomTom(s, ["a", "d"])) == [])
    }

    @Test func aNameThatChangesAndChangesBackSaysNothing() throws {
        let s = try Scenario("a   b   c   d", gridMeters: 100, ways: [
            "ab": ["highway": "primary", "name": "Main Street"], "bc": ["highway": "primary", "name": "Bridge"],
            "cd": ["highway": "primary", "name": "Main Street"]])
        #expect(P.middle(try P.tomTom(s, ["a", "d"])) == [])
    }

    @Test func aShortNamedPieceBetweenTwoNamesIsOneNameChange() throws {
        // As at Monaco's Rond-Point Sainte-Dévote: 15 m of another name between Boulevard and
        // Avenue, with a link leaving where the Avenue starts. The driver hears of the Avenue only.
        let s = try Scenario("""
            a         b  c         d

                           e
            """, gridMeters: 5, ways: [
                "ab": ["highway": "secondary", "name": "Boulevard", "oneway": "yes"],
                "bc": ["highway": "secondary", "name": "Rond-Point", "oneway": "yes"],
                "cd": ["highway": "secondary", "name": "Avenue", "oneway": "yes"],
                "ce": ["highway": "secondary_link", "name": "Rond-Point", "oneway": "yes"]])
        let steps = try P.tomTom(s, ["a", "d"])
        #expect(P.middle(steps) == ["STRAIGHT"])
        #expect(steps.dropFirst().first?.street == "Avenue")
        #expect(P.middle(try P.osrm(s, ["a", "d"])).count == 1)
    }

    @Test func aShortPieceOfAnotherNameBeforeATurnIsJustTheTurn() throws {
        let s = try Scenario("""
            a       b c   e

                      d
            """, gridMeters: 10, ways: [
                "ab": ["highway": "primary", "name": "Main Street"], "bce": ["highway": "primary", "name": "Short Street"],
                "cd": ["highway": "residential", "name": "Side Street"]])
        let steps = try P.tomTom(s, ["a", "d"])
        #expect(P.middle(steps) == ["TURN_RIGHT"])
        #expect(steps[1].message == "Turn right onto Side Street")
    }

    @Test func aTurnWhoseRoadIsRenamedAtOnceIsOneTurnOntoTheNewName() throws {
        let s = try Scenario("""
                    x
            a       b
                    c

                    d
            """, gridMeters: 10, ways: [
                "ab": ["highway": "primary", "name": "Main Street"], "xbc": ["highway": "residential", "name": "Link Street"],
                "cd": ["highway": "residential", "name": "Target Street"]])
        let steps = try P.tomTom(s, ["a", "d"])
        #expect(P.middle(steps) == ["TURN_RIGHT"])
        #expect(steps[1].street == "Target Street")
    }

    @Test func aTurnAndABendWithNoChoiceRightAfterAreOneTurn() throws {
        // Right onto Link Street, and 10 m on it bends 63° left into Target Street with no other way.
        let s = try Scenario("""
                    x
            a       b
                    c
                        d
            """, gridMeters: 10, ways: [
                "ab": ["highway": "primary", "name": "Main Street"], "xbc": ["highway": "residential", "name": "Link Street"],
                "cd": ["highway": "residential", "name": "Target Street"]])
        let steps = try P.tomTom(s, ["a", "d"])
        #expect(P.middle(steps) == ["TURN_RIGHT"])
        #expect(steps[1].street == "Target Street")
    }

    @Test func twoTurnsTheSameWayInsideAJunctionAreOneTurn() throws {
        // Left 45° into a gap 14 m long, then left 45° onto Cross Street: one left turn.
        let s = try Scenario("""
                      n
                      c   f

            a     b       e
            """, gridMeters: 5, ways: [
                "abe": ["highway": "primary", "name": "Main Street"], "bcf": ["highway": "primary", "name": "Gap"],
                "cn": ["highway": "primary", "name": "Cross Street"]])
        let steps = try P.tomTom(s, ["a", "n"])
        #expect(P.middle(steps) == ["TURN_LEFT"])
        #expect(steps[1].street == "Cross Street")
    }

    @Test func aSlipRoadIsOneTurn() throws {
        // The unnamed slip road b → d cuts the corner from Main Street into Cross Street.
        let s = try Scenario("""
            a           b           e           f



                                    d

                                    s
            """, gridMeters: 10, ways: [
                "abef": ["highway": "primary", "name": "Main Street"],
                "de": ["highway": "primary", "name": "Cross Street", "oneway": "yes"], "ds": ["highway": "primary", "name": "Cross Street"],
                "bd": ["highway": "primary_link", "oneway": "yes", "name": ""]])
        // Cross Street is one-way north of d, so the route takes the slip road (147 m).
        #expect(try P.route(s, ["a", "s"]).summary.lengthInMeters < 160)
        let steps = try P.tomTom(s, ["a", "s"])
        #expect(P.middle(steps) == ["TURN_RIGHT"] || P.middle(steps) == ["BEAR_RIGHT"])
        #expect(steps[1].street == "Cross Street")
        #expect(P.middle(try P.osrm(s, ["a", "s"])).count == 1)
    }

    // MARK: U-turns and continue_straight

    @Test func continueStraightDecidesWhetherARouteTurnsBackAtAWaypoint() throws {
        // Out to waypoint 1 and back to a. Allowed to turn back, the route does so at 1; told to
        // keep going, it drives on to the dead end at d and turns there.
        let s = try Scenario("a   b 1 c   d", gridMeters: 100, ways: ["abcd": ["highway": "residential", "name": "Long Road"]])
        let service = try P.service(s)
        let back = try P.route(s, ["a", "1", "a"], service: service) { $0.continueStraight = false }
        let onward = try P.route(s, ["a", "1", "a"], service: service) { $0.continueStraight = true }
        #expect(onward.summary.lengthInMeters > back.summary.lengthInMeters + 300)
        // Turning back at the waypoint is an instruction of its own.
        #expect(back.guidance?.instructions.map(\.maneuver) == ["DEPART", "WAYPOINT_REACHED", "MAKE_UTURN", "ARRIVE"])
        // OSRM (cars keep going by default) turns at the dead end: a U-turn step there.
        let osrm = try P.osrm(s, ["a", "1", "a"], service: service)
        #expect(P.middle(osrm).contains("continue uturn"))
    }
}
