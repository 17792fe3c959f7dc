import Foundation
import Testing
import MapsAPI
import MapsTestSupport
import WayfinderKit

/// Places from a real server (Monaco imported in process): search, typeahead, reverse
/// geocoding, category and nearby search, POI categories and search along a route.
@Suite("Places against a real server", .enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"),
       .timeLimit(.minutes(2)))
struct SearchClientTests {
    let client: WayfinderClient

    init() async throws { client = try #require(await LoopbackMapsServer.shared(.monaco), "the Monaco server did not start").client }

    @Test("local search lists names and phone numbers, as MKLocalSearch")
    func localSearchWithPhoneNumbers() async throws {
        let response = try await LocalSearch(SearchRequest("restaurant", near: Monaco.hermitage, limit: 20), client: client).start()
        #expect(response.places.count == 20)
        #expect(response.totalResults >= 20)
        #expect(response.places.filter { $0.phoneNumber != nil }.count >= 5)
        #expect(response.places.allSatisfy { $0.kind == .pointOfInterest && !$0.name.isEmpty && $0.distanceMeters != nil })
        #expect(response.places.allSatisfy { !$0.categoryIDs.isEmpty && !$0.formattedAddress.isEmpty })
        #expect(response.places.allSatisfy { $0.coordinate.distanceMeters(to: Monaco.hermitage) < 5000 })
        #expect(response.body.summary.queryType == "NEARBY")
    }

    @Test("typeahead suggestions from three characters, as the time-to-leave seed's address fields")
    func suggestions() async throws {
        #expect(try await client.suggestions(for: "Pi").isEmpty)
        let places = try await client.suggestions(for: "Pizz", near: Monaco.hermitage)
        #expect(!places.isEmpty)
        #expect(places.contains { $0.name.lowercased().contains("pizz") })
    }

    @Test("search texts with reserved characters arrive intact")
    func reservedCharactersAreEncoded() async throws {
        // The server folds accents and drops punctuation; what matters is that "/", "+", "&",
        // "?" and "#" reached it inside the query instead of cutting the URL.
        let response = try await client.search("café de paris/+&?#", limit: 3)
        #expect(response.query.hasPrefix("cafe de paris"))
        let addresses = try await client.search({ var r = SearchRequest("Rue Grimaldi 45"); r.scope = .addresses; return r }())
        #expect(addresses.places.first?.address.streetName == "Rue Grimaldi")
    }

    @Test func searchValidation() async throws {
        await #expect(throws: WayfinderError.invalidQuery("the search text is empty", parameter: "query")) {
            try await client.search("  ")
        }
        await #expect(throws: WayfinderError.invalidQuery("a radius needs a centre (near)", parameter: "radius")) {
            try await client.search({ var r = SearchRequest("atm"); r.radiusMeters = 100; return r }())
        }
    }

    @Test("reverse geocoding: the long press of the along-route seed")
    func reverseGeocoding() async throws {
        let addresses = try await client.reverseGeocode(Monaco.hermitage)
        let first = try #require(addresses.first)
        #expect(first.formattedAddress.contains("Monaco"))
        #expect(first.street == "Avenue de l'Hermitage")
        #expect(first.coordinate.distanceMeters(to: Monaco.hermitage) < 50)
        #expect(try await client.reverseGeocode(Monaco.sea, radiusMeters: 100).isEmpty)
    }

    @Test func categoryAndNearbySearch() async throws {
        let atms = try await client.nearby(NearbySearchRequest("atm", around: Monaco.hermitage, radiusMeters: 1500, limit: 5))
        #expect(!atms.places.isEmpty)
        #expect(atms.places.allSatisfy { $0.categoryIDs.contains(7397) && ($0.distanceMeters ?? .infinity) <= 1500 })
        var byID = NearbySearchRequest(around: Monaco.hermitage, radiusMeters: 2000)
        byID.categoryIDs = [7315]
        let restaurants = try await client.nearby(byID)
        #expect(restaurants.places.count == 10)
        #expect(restaurants.places.allSatisfy { $0.categoryIDs.contains { $0 == 7315 || $0 / 1000 == 7315 } })
    }

    @Test func poiCategoriesHaveIDsNamesAndSynonyms() async throws {
        let categories = try await client.poiCategories()
        #expect(categories.contains { $0.id == 7315 && $0.name == "Restaurant" })
        #expect(categories.contains { $0.id == 7397 })
        #expect(categories.allSatisfy { !$0.name.isEmpty })
    }

    @Test("search along a Route object: detours that match re-planning through the place")
    func alongARoute() async throws {
        let planned = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille))
        let found = try await client.searchAlongRoute(AlongRouteSearchRequest("restaurant", along: planned.route, maxDetourSeconds: 300))
        #expect(!found.places.isEmpty && found.places.count <= 10)
        let detours = found.places.compactMap(\.detour)
        #expect(detours.count == found.places.count)
        #expect(detours.allSatisfy { $0.timeSeconds <= 300 && $0.offsetMeters != nil })
        #expect(zip(detours, detours.dropFirst()).allSatisfy { $0.timeSeconds <= $1.timeSeconds })
        // "Add to my route": the re-planned trip costs what the search said, within rounding.
        let stop = try #require(found.places.max { ($0.detour?.timeSeconds ?? 0) < ($1.detour?.timeSeconds ?? 0) })
        let via = try await client.calculateRoute(planned.request.addingStop(stop.coordinate))
        #expect(via.route.legs.count == 2)
        let extra = via.route.travelTimeSeconds - planned.route.travelTimeSeconds
        #expect(abs(extra - stop.detour!.timeSeconds) <= 30, "re-planned +\(extra) s, search said +\(stop.detour!.timeSeconds) s")
    }

    @Test("search along points, by category ids, sorted by offset")
    func alongPoints() async throws {
        let route = try await client.calculateRoute(RouteRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille)).route
        var request = AlongRouteSearchRequest(nil, alongPoints: route.polyline, maxDetourSeconds: 600)
        request.categoryIDs = [7397]
        request.sortBy = .detourOffset
        request.limit = 20
        let atms = try await client.searchAlongRoute(request)
        #expect(!atms.places.isEmpty)
        let offsets = atms.places.compactMap { $0.detour?.offsetMeters }
        #expect(offsets == offsets.sorted())
    }

    @Test func alongRouteValidation() async throws {
        await #expect(throws: WayfinderError.invalidQuery("a route of at least two points is needed (plan it with geometry)", parameter: "route.points")) {
            try await client.searchAlongRoute(AlongRouteSearchRequest("atm", alongPoints: [Monaco.hermitage]))
        }
        let error = await #expect(throws: WayfinderError.self) {
            try await client.searchAlongRoute(AlongRouteSearchRequest("atm", alongPoints: [Monaco.hermitage, Monaco.sea]))
        }
        // The search API reports a point off the road network as a bad request naming the points.
        switch error {
        case .invalidQuery(_, let parameter)?: #expect(parameter == "route.points")
        case .noRoadNearPoint?: break
        default: Issue.record("got \(String(describing: error))")
        }
    }
}
