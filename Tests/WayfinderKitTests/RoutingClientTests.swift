import Foundation
import Testing
import MapsAPI
import MapsTestSupport
import WayfinderKit

/// Routes from a real server (Monaco imported in process), decoded into the shared MapsAPI
/// types and the SDK's values.
@Suite("Routing against a real server", .enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"),
       .timeLimit(.minutes(2)))
struct RoutingClientTests {
    let client: WayfinderClient

    init() async throws { client = try #require(await LoopbackMapsServer.shared(.monaco), "the Monaco server did not start").client }

    @Test("a route with steps, legs, polyline and times, like MKDirections.calculate()")
    func routeWithSteps() async throws {
        let response = try await Directions(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille), client: client).calculate()
        #expect(response.routes.count == 1)
        let route = response.route
        #expect(route.distanceMeters > 1000 && route.distanceMeters < 6000)
        #expect(route.travelTimeSeconds > 60)
        #expect(route.arrivalTime.timeIntervalSince(route.departureTime) == Double(route.travelTimeSeconds))
        #expect(route.travelMode == .car)
        #expect(!route.isAlternative)
        #expect(route.legs.count == 1)
        #expect(route.polyline.count > 10)
        #expect(route.polyline.first!.distanceMeters(to: Monaco.monteCarlo) < 200)
        #expect(route.polyline.last!.distanceMeters(to: Monaco.fontvieille) < 200)
        // Steps as MKRoute.Step: instructions, distance, time, manoeuvre, street, points.
        #expect(route.steps.count >= 3)
        #expect(route.steps.first?.maneuver == .depart)
        #expect(route.steps.last?.maneuver.isArrival == true)
        #expect(route.steps.allSatisfy { !$0.instructions.isEmpty && !$0.polyline.isEmpty })
        #expect(abs(route.steps.reduce(0) { $0 + $1.distanceMeters } - route.distanceMeters) < 10)
        #expect(route.steps.contains { $0.street != nil })
        // Nothing is lost: the shared wire document is there too.
        #expect(route.body.guidance?.instructions.count ?? 0 >= route.steps.count - 1)
        #expect(response.body.formatVersion == "0.0.12")
        #expect(response.snappedLocations.count == 2)
        #expect(response.snappedLocations.allSatisfy { $0.distanceMeters < 100 })
        #expect(route.departureTimeText.count == "2026-12-01T08:05:00+01:00".count)
    }

    @Test("instructions follow the client's locale, or the language asked for")
    func instructionsInTheLocalesLanguage() async throws {
        let server = try #require(await LoopbackMapsServer.shared(.monaco))
        var german = WayfinderClient.Configuration()
        german.locale = Locale(identifier: "de_DE")
        let route = try await WayfinderClient(serverURL: server.url, configuration: german)
            .calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille)).route
        #expect(route.steps.last?.instructions.hasPrefix("Sie haben Ihr Ziel erreicht") == true)
        #expect(route.steps.dropFirst().contains { $0.instructions.contains(" Sie ") })
        // A locale without instructions falls back to the server's language; an explicit language wins.
        var klingon = WayfinderClient.Configuration()
        klingon.locale = Locale(identifier: "tlh")
        let english = try await WayfinderClient(serverURL: server.url, configuration: klingon)
            .calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille)).route
        #expect(english.steps.last?.instructions.hasPrefix("You have arrived") == true)
        let french = try await WayfinderClient(serverURL: server.url, configuration: german)
            .calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille).language("fr-FR")).route
        #expect(french.steps.last?.instructions.hasPrefix("Vous êtes arrivé") == true)
        #expect(InstructionLanguages.tag(for: Locale(identifier: "nb_NO")) == "nb-NO")
        #expect(InstructionLanguages.tag(for: Locale(identifier: "pt")) == "pt")
    }

    @Test func alternativesAreMarked() async throws {
        let response = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille).alternatives(2))
        #expect(response.routes.count >= 2)
        #expect(response.routes.dropFirst().allSatisfy { $0.isAlternative })
        #expect(response.routes.allSatisfy { !$0.steps.isEmpty })
    }

    @Test("advisory notices are carried (restricted access at a destination-only service road)")
    func advisoryNotices() async throws {
        // The middle of OSM way 943330854, a service road tagged access=destination in Fontvieille.
        let destinationOnly = Coordinate(latitude: 43.7291583, longitude: 7.4103118)
        let route = try await client.calculateRoute(RouteRequest(from: Monaco.hermitage, to: destinationOnly)).route
        #expect(route.advisoryNotices == route.body.advisoryNotices ?? [])
        #expect(route.advisoryNotices.contains { $0.contains("restricted access") }, "\(route.advisoryNotices)")
    }

    @Test("waypoints make legs, and addingStop re-plans through a stop")
    func waypointsAndStops() async throws {
        let direct = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille))
        let replanned = try await client.calculateRoute(direct.request.addingStop(Monaco.suisse))
        #expect(replanned.request.waypoints == [Monaco.suisse])
        #expect(replanned.route.legs.count == 2)
        #expect(replanned.route.travelTimeSeconds >= direct.route.travelTimeSeconds)
        #expect(replanned.route.steps.contains { $0.maneuver.rawValue.hasPrefix("WAYPOINT") })
    }

    @Test func bestOrderReordersWaypoints() async throws {
        // Fontvieille first would zig-zag: the best order visits Suisse, then Rocher.
        let request = RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille, via: [Monaco.rocher, Monaco.suisse]).optimizingWaypointOrder()
        let response = try await client.calculateRoute(request)
        #expect(response.optimizedWaypointOrder.map { Set($0) } == [0, 1])
        #expect(response.route.legs.count == 3)
    }

    @Test("a bicycle route says where the bicycle is walked: ranges of its polyline, on the server's pedestrian sections")
    func walkedSectionsOfABicycleRoute() async throws {
        let route = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille)
            .travelMode(.bicycle).routeType(.shortest)).route
        #expect(route.travelMode == .bicycle)
        let walked = route.body.sections.filter { $0.sectionType == "TRAVEL_MODE" && $0.travelMode == "pedestrian" }
        #expect(!walked.isEmpty, "Monaco's stairs and footways are walked by bike")
        #expect(route.walkedSections == walked.map { $0.startPointIndex...$0.endPointIndex })
        #expect(route.walkedSections.allSatisfy { $0.upperBound < route.polyline.count })
        // A walk has no walked sections of its own: all of it is on foot.
        let walk = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille).travelMode(.pedestrian)).route
        #expect(walk.walkedSections.isEmpty)
    }

    @Test("arrive by: the answer's departure arrives in time", arguments: [TravelMode.car, .pedestrian, .bicycle, .taxi])
    func arriveBy(mode: TravelMode) async throws {
        let deadline = Date().addingTimeInterval(3 * 3600)
        let route = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille)
            .travelMode(mode).arriving(by: deadline)).route
        #expect(route.arrivalTime <= deadline.addingTimeInterval(1))
        #expect(route.arrivalTime > deadline.addingTimeInterval(-300))
        #expect(route.travelMode == mode)
    }

    @Test func departAtIsHonoured() async throws {
        let departure = Date().addingTimeInterval(86_400).rounded()
        let route = try await client.calculateRoute(RouteRequest(from: Monaco.hermitage, to: Monaco.rocher)
            .departing(at: departure).routeType(.shortest).avoiding(.tollRoads, .ferries).ignoringLiveTraffic()).route
        #expect(abs(route.departureTime.timeIntervalSince(departure)) < 1)
    }

    @Test func etaOnlyAsksForTheSummary() async throws {
        let eta = try await Directions(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille), client: client).calculateETA()
        #expect(eta.travelTimeSeconds > 60 && eta.distanceMeters > 1000)
        let summary = try await client.calculateRoute({ var r = RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille); r.includesGeometry = false; return r }())
        #expect(summary.route.steps.isEmpty && summary.route.polyline.isEmpty)
    }

    @Test func travelTimeMatrix() async throws {
        let matrix = try await client.travelTimes(from: [Monaco.monteCarlo, Monaco.hermitage], to: [Monaco.fontvieille, Monaco.rocher, Monaco.suisse])
        #expect(matrix.travelTimesSeconds.count == 2 && matrix.travelTimesSeconds.allSatisfy { $0.count == 3 })
        #expect(matrix.travelTimesSeconds.joined().allSatisfy { ($0 ?? 0) > 0 })
        #expect(matrix.distancesMeters.joined().allSatisfy { ($0 ?? 0) > 100 })
        let direct = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille)).route
        let cell = try #require(matrix.travelTime(from: 0, to: 0))
        #expect(abs(cell - Double(direct.travelTimeSeconds)) < 0.2 * Double(direct.travelTimeSeconds))
    }

    // MARK: Errors, each its own case with the server's message

    @Test func aPointAtSeaIsNoRoadNearPoint() async throws {
        let error = await #expect(throws: WayfinderError.self) {
            try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.sea))
        }
        guard case .noRoadNearPoint(let message)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.contains("destination"))
    }

    @Test("an arrival no departure can meet is noRoute, in the seed's words")
    func unreachableArrivalIsNoRoute() async throws {
        let error = await #expect(throws: WayfinderError.self) {
            try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille).arriving(by: Date().addingTimeInterval(20)))
        }
        guard case .noRoute(let message)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.hasPrefix("No routes found satisfying requested time."))
    }

    @Test func contradictoryOptionsAreAnInvalidQueryNamingTheParameter() async throws {
        await #expect(throws: WayfinderError.invalidQuery("computeBestOrder cannot be combined with maxAlternatives > 0", parameter: "computeBestOrder")) {
            try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille, via: [Monaco.suisse])
                .optimizingWaypointOrder().alternatives(1))
        }
        let error = await #expect(throws: WayfinderError.self) {
            try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille).language("xx-XX"))
        }
        guard case .invalidQuery(_, let parameter)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(parameter == "language")
    }

    @Test func invalidCoordinatesAreRefusedBeforeAnyRequest() async throws {
        let unreachable = WayfinderClient(serverURL: URL(string: "http://127.0.0.1:9")!)
        await #expect(throws: WayfinderError.invalidQuery("location 1 (95.0, 7.0) is not a valid coordinate", parameter: "locations")) {
            try await unreachable.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Coordinate(latitude: 95, longitude: 7)))
        }
    }

    @Test func noServerIsServerUnavailable() async throws {
        let unreachable = WayfinderClient(serverURL: URL(string: "http://127.0.0.1:9")!)
        let error = await #expect(throws: WayfinderError.self) {
            try await unreachable.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille))
        }
        guard case .serverUnavailable(let message)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.contains("127.0.0.1:9"))
    }

    @Test func serverStatusDescribesTheDataset() async throws {
        let status = try await client.serverStatus()
        #expect(status.status == "ok")
        #expect(status.source == "monaco.osm.pbf")
        #expect(status.timeZone == "Europe/Monaco")
        #expect(Set(status.travelModes) == Set(TravelMode.allCases))
    }
}

extension Date {
    /// Whole seconds (the server's times have no fractions).
    func rounded() -> Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded()) }
}
