import Foundation
import Testing
import MapsTestSupport
import WayfinderKit

/// The README's code, compiled and run against a real server: "add the package, write ten
/// lines, get a route with steps", and the three flows' snippets.
@Suite("README snippets", .enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"), .timeLimit(.minutes(1)))
struct ReadmeTests {
    @Test("ten lines: a route with steps")
    func tenLines() async throws {
        let serverURL = try #require(await LoopbackMapsServer.shared(.monaco)).url
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let client = WayfinderClient(serverURL: serverURL)
        let request = RouteRequest(from: Coordinate(latitude: 43.7401, longitude: 7.4266),
                                   to: Coordinate(latitude: 43.7296, longitude: 7.4155))
        let route = try await Directions(request, client: client).calculate().route
        print("\(route.distanceMeters) m, \(route.travelTimeSeconds) s", route.advisoryNotices)
        for step in route.steps { print(step.instructions, "(\(step.distanceMeters) m)") }

        #expect(printed.count == route.steps.count + 1)
        #expect(printed.dropFirst().first?.hasPrefix("Head ") == true)
        #expect(printed.last?.hasPrefix("You have arrived") == true)
    }

    @Test("the three flows' snippets")
    func flows() async throws {
        let server = try #require(await LoopbackMapsServer.shared(.monaco))
        let client = server.client
        let departure = Monaco.monteCarlo, destination = Monaco.fontvieille, here = Monaco.hermitage, home = Monaco.monteCarlo
        let nine = Date().addingTimeInterval(3600)

        let planned = try await client.calculateRoute(RouteRequest(from: departure, to: destination))
        let found = try await client.searchAlongRoute(AlongRouteSearchRequest("restaurant", along: planned.route, maxDetourSeconds: 300)).places
        let replanned = try await client.calculateRoute(planned.request.addingStop(found[0].coordinate))   // "Add to my route"
        #expect(replanned.route.legs.count == 2)

        let watch = try await client.startTimeToLeave(TimeToLeaveRequest(from: .coordinate(home), to: .named("Place du Casino"),
                                                                         arriveBy: nine, preparationSeconds: 600))
        var messages: [String] = []
        for try await update in client.timeToLeaveUpdates(watchID: watch.id) {
            messages.append(update.message)
            if update.kind == .timeToLeave || update.kind == .plan { break }
        }
        #expect(messages.count == 1)
        try await client.stopTimeToLeave(id: watch.id)

        let places = try await LocalSearch(SearchRequest("restaurant", near: here), client: client).start().places
        let routes = try await Directions(RouteRequest(from: here, to: places[0].coordinate).alternatives(1), client: client).calculate().routes
        #expect(!places.isEmpty && !routes.isEmpty)
    }
}
