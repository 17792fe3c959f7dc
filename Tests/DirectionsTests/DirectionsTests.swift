import Foundation
import Testing
import GeoCore
import MapsTestSupport
import RoadNetwork
import RoutePlanning
import Directions

/// Guidance, sections and notices made from a planned route, before any wire format.
@Suite("Directions") struct DirectionsTests {
    //  a - - b - - c        Kaivokatu (a b), a toll road Mikonkatu (b c)
    //        |
    //        d              Keskuskatu (b d)
    static let scenario = try! Scenario("""
        a - - b - - c
              |
              d
        """, gridMeters: 200, ways: [
            "ab": ["highway": "primary", "name": "Kaivokatu"], "bc": ["highway": "primary", "name": "Mikonkatu", "toll": "yes"],
            "bd": ["highway": "residential", "name": "Keskuskatu"]])

    static func route(_ stops: [Character]) throws -> TimedRoute {
        let s = scenario
        return try #require(s.planning.plan(PlanRequest(waypoints: stops.map(s.coordinate), mode: .car)).plan?.best)
    }

    var graph: RoadGraph { Self.scenario.graphs[.car]! }
    var english: InstructionText { InstructionText(language: "en-GB", units: .metric)! }

    @Test func aTurnIsOneInstructionBetweenDepartureAndArrival() throws {
        let route = try Self.route(["a", "d"])
        let g = GuidanceBuilder(graph: graph, text: english).build(route)
        #expect(g.instructions.map(\.maneuver) == [.depart, .turnRight, .arrive])
        #expect(g.instructions[1].message == "Turn right onto Keskuskatu")
        #expect(g.instructions[1].kind == .turn && g.instructions[1].direction == .right)
        #expect(abs(g.instructions[1].offsetMeters - 600) <= 2)
        #expect(abs((g.instructions.last?.offsetMeters ?? 0) - route.lengthMeters) < 1)
        // One group for the one leg, one step per instruction, the steps' lengths adding up.
        #expect(g.groups.count == 1 && g.groups[0].firstInstruction == 0 && g.groups[0].lastInstruction == 2)
        #expect(g.steps.count == 3)
        #expect(abs(g.steps.map(\.distanceMeters).reduce(0, +) - route.lengthMeters) <= 1)
        #expect(g.drivingSide == .right)
    }

    @Test func eachLegEndsAtItsWaypoint() throws {
        let route = try Self.route(["a", "c", "d"])
        let g = GuidanceBuilder(graph: graph, text: english).build(route)
        #expect(g.groups.count == 2)
        #expect(g.instructions.filter { $0.maneuver.instructionType == "LOCATION_WAYPOINT" }.count == 1)
        #expect(g.instructions.last?.maneuver.instructionType == "LOCATION_ARRIVAL")
    }

    @Test func tollSectionsAndTheNoticeFollowTheRoads() throws {
        let through = try Self.route(["a", "c"])
        let runs = RouteSections.runs(.toll, through, graph: graph)
        #expect(runs.count == 1)
        let points = through.legs[0].points.count
        #expect(runs.first?.endPoint == points - 1)
        #expect(runs.first.map { $0.startPoint > 0 } == true)
        #expect(Advisories.notices(through, graph: graph).contains("This route includes toll roads."))
        let free = try Self.route(["a", "d"])
        #expect(RouteSections.runs(.toll, free, graph: graph).isEmpty)
        #expect(Advisories.notices(free, graph: graph).isEmpty)
        #expect(RouteSections.slowdowns(through, graph: graph).isEmpty)  // no live traffic
    }

    @Test func theDrivingSideComesFromTheCountryOrTimeZone() {
        #expect(DrivingSide(timeZoneIdentifier: "Europe/London") == .left)
        #expect(DrivingSide(timeZoneIdentifier: "Australia/Sydney") == .left)
        #expect(DrivingSide(timeZoneIdentifier: "Europe/Helsinki") == .right)
        #expect(DrivingSide(countryCode: "gb") == .left && DrivingSide(countryCode: "FI") == .right)
        #expect(InstructionText(language: "fi-FI", units: .metric) != nil)
        #expect(InstructionText(language: "EN-us", units: .imperial) != nil)
        #expect(InstructionText(language: "xx-XX", units: .metric) == nil)
    }
}
