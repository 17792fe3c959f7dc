import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import MapsAPIMapping
import OSMPBF

/// Where the bicycle is walked, the answers say so: OSRM's step mode, TomTom's travel-mode
/// sections and the instruction text.
@Suite("Walking the bicycle in answers") struct CyclingGuidanceTests {
    let scenario: Scenario
    let service: MapsService

    init() throws {
        scenario = try Scenario("a b c d", gridMeters: 400, ways: [
            "ab": ["highway": "residential", "name": "High Street"], "bc": ["highway": "footway", "name": "Market Square"],
            "cd": ["highway": "residential", "name": "Mill Lane"],
        ], profiles: [.bicycle])
        service = try scenario.service(clock: RouteOptionTests.clock, profiles: [.bicycle])
    }

    func query() -> RouteQuery {
        var q = scenario.query(["a", "d"], mode: .bicycle)
        q.instructions = .text
        return q
    }

    @Test("OSRM steps carry mode \"pushing bike\" on the footway, \"cycling\" elsewhere")
    func osrmModes() throws {
        var options = OSRMRouteOptions()
        options.steps = true
        let steps = try service.osrmRoute(query(), options: options).routes[0].legs.flatMap(\.steps)
        #expect(steps.map(\.mode) == ["cycling", "pushing bike", "cycling", "cycling"])
        #expect(steps.map(\.name) == ["High Street", "Market Square", "Mill Lane", "Mill Lane"])
    }

    @Test("TomTom travel-mode sections: pedestrian inside the bicycle route")
    func travelModeSections() throws {
        let route = try service.calculateRoute(query()).routes[0]
        let modes = route.sections.filter { $0.sectionType == "TRAVEL_MODE" }
        #expect(modes.map { $0.travelMode ?? "" } == ["bicycle", "pedestrian", "bicycle"])
        #expect(modes.map(\.startPointIndex) == [0, 1, 2])
        #expect(modes.map(\.endPointIndex) == [1, 2, 3])
    }

    @Test("the instructions say to walk the bicycle, and to ride again")
    func walkYourBike() throws {
        let messages = try service.calculateRoute(query()).routes[0].guidance?.instructions.compactMap(\.message) ?? []
        #expect(messages.count == 4)
        #expect(messages.dropFirst().first?.hasSuffix("Walk your bike") == true)
        #expect(messages.dropFirst(2).first?.hasSuffix("Ride your bike again") == true)
        #expect(!messages.last!.contains("bike"))
    }

    @Test("a walked stretch of the same street is a step of its own: against the one-way end of High Street")
    func sameNameModeChange() throws {
        let s = try Scenario("a b c", gridMeters: 400, ways: [
            "ab": ["highway": "residential", "name": "High Street", "oneway": "yes"], "bc": ["highway": "residential", "name": "High Street"],
        ], profiles: [.bicycle])
        let service = try s.service(clock: RouteOptionTests.clock, profiles: [.bicycle])
        var q = s.query(["c", "a"], mode: .bicycle)
        q.instructions = .text
        var options = OSRMRouteOptions()
        options.steps = true
        let steps = try service.osrmRoute(q, options: options).routes[0].legs.flatMap(\.steps)
        #expect(steps.map(\.mode) == ["cycling", "pushing bike", "pushing bike"])
        #expect(steps.map { Int($0.distance.rounded()) } == [400, 400, 0])
    }
}
