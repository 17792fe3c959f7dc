import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import MapsAPIMapping

/// Routes through a drawn map's real dataset and server code, and reads the guidance back in
/// TomTom's and OSRM's shapes.
enum GuidanceProbe {
    static func service(_ s: Scenario, timeZone: String = "Europe/Helsinki") throws -> MapsService {
        try s.service(clock: RouteOptionTests.clock, timeZone: timeZone)
    }

    /// TomTom's instructions for a route through the drawn stops.
    static func tomTom(_ s: Scenario, _ stops: [Character], service: MapsService? = nil, language: String = "en-GB",
                       configure: (inout RouteQuery) -> Void = { _ in }) throws -> [Instruction] {
        try route(s, stops, service: service, language: language, configure: configure).guidance?.instructions ?? []
    }

    static func route(_ s: Scenario, _ stops: [Character], service: MapsService? = nil, language: String = "en-GB",
                      configure: (inout RouteQuery) -> Void = { _ in }) throws -> RouteBody {
        let service = try service ?? Self.service(s)
        var q = s.query(stops)
        q.instructions = .text
        q.language = language
        configure(&q)
        return try service.calculateRoute(q).routes[0]
    }

    /// OSRM's steps (all legs) for a route through the drawn stops.
    static func osrm(_ s: Scenario, _ stops: [Character], service: MapsService? = nil, language: String = "en",
                     configure: (inout RouteQuery) -> Void = { _ in }) throws -> [OSRM.Step] {
        let service = try service ?? Self.service(s)
        var q = s.query(stops)
        q.language = language
        configure(&q)
        var options = OSRMRouteOptions()
        options.steps = true
        return try service.osrmRoute(q, options: options).routes[0].legs.flatMap(\.steps)
    }

    /// The maneuvers between departure and arrival.
    static func middle(_ list: [Instruction]) -> [String] {
        list.filter { !$0.instructionType.hasPrefix("LOCATION") }.map(\.maneuver)
    }

    /// OSRM's steps as "type modifier", departure and arrival left out.
    static func middle(_ steps: [OSRM.Step]) -> [String] {
        steps.filter { $0.maneuver.type != "depart" && $0.maneuver.type != "arrive" }
            .map { [$0.maneuver.type, $0.maneuver.modifier].compactMap { $0 }.joined(separator: " ") }
    }
}
