import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Dataset
import DatasetImport
import Places
import GeoCore

/// The whole service on the real Helsinki clip: import (graphs, hierarchy, base map, places),
/// then places search, reverse geocoding and search along a route checked by routing.
@Suite(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
struct HelsinkiServiceTests {
    /// Monday 2026-11-30 03:00 in Helsinki: no historical congestion, so times are free-flow.
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))
    static let service: MapsService? = {
        let dir = Fixtures.temporaryDirectory("wayfinder-helsinki")
        var options = DatasetImporter.Options(extractPath: Fixtures.helsinki, outputPath: dir.path)
        options.profiles = [.car, .pedestrian]
        guard (try? DatasetImporter(options: options).run()) != nil, let dataset = try? Dataset(path: dir.path) else { return nil }
        return try? MapsService(dataset: dataset, clock: { clock.now })
    }()

    static let kamppi = Coordinate(latitude: 60.16898, longitude: 24.93199)
    static let senate = Coordinate(latitude: 60.16952, longitude: 24.95225)

    @Test func knownPlacesByNameTypoAndPrefix() throws {
        let service = try #require(Self.service)
        let exact = try service.search(PlaceSearchQuery(text: "Stockmann", limit: 3))
        #expect(exact.results.first?.poi?.name.contains("Stockmann") == true)
        let typo = try service.search(PlaceSearchQuery(text: "Stokmann", limit: 3))
        #expect(typo.results.first?.poi?.name.contains("Stockmann") == true)
        let prefix = try service.search(PlaceSearchQuery(text: "Stockm", typeahead: true, limit: 3))
        #expect(prefix.results.contains { $0.poi?.name.contains("Stockmann") == true })
    }

    @Test func addressesByStreetAndNumber() throws {
        let service = try #require(Self.service)
        let r = try service.search(PlaceSearchQuery(text: "Aleksanterinkatu 52", limit: 3))
        let first = try #require(r.results.first)
        #expect(first.address.streetName == "Aleksanterinkatu")
        #expect(first.address.streetNumber == "52")
    }

    @Test func reverseGeocodingFindsAnAddressAndIsEmptyAtSea() throws {
        let service = try #require(Self.service)
        let here = try service.reverseGeocode(ReverseGeocodeQuery(position: Coordinate(latitude: 60.1681, longitude: 24.9440)))
        #expect(here.addresses.first?.address.freeformAddress.isEmpty == false)
        let sea = try service.reverseGeocode(ReverseGeocodeQuery(position: Coordinate(latitude: 60.10, longitude: 24.90), radiusMeters: 100))
        #expect(sea.addresses.isEmpty)
    }

    @Test func noGasStationIsAPlainEmptyAnswer() throws {
        let service = try #require(Self.service)
        var q = PlaceSearchQuery(text: "gas station")
        q.bias = Self.kamppi
        #expect(try service.search(q).results.isEmpty)
    }

    /// The detour of every result matches routing through the place: time(A → place → B) −
    /// time(A → B), and stays within the budget.
    @Test func alongRouteDetoursMatchRoutesThroughThePlace() throws {
        let service = try #require(Self.service)
        var routeQuery = RouteQuery(waypoints: [Self.kamppi, Self.senate], mode: .car)
        let route = try service.calculateRoute(routeQuery).routes[0]
        let points = route.legs.flatMap { $0.points ?? [] }.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        var q = MapsService.AlongRouteQuery(points: points, maxDetourSeconds: 240)
        q.categories = ["restaurant"]
        q.limit = 8
        let found = try service.searchAlongRoute(q)
        #expect(!found.results.isEmpty)
        for r in found.results {
            let detour = try #require(r.detourTime)
            #expect(detour <= 240)
            let place = Coordinate(latitude: r.position.lat, longitude: r.position.lon)
            routeQuery.waypoints = [Self.kamppi, place, Self.senate]
            let via = try service.calculateRoute(routeQuery).routes[0].summary
            let expected = via.travelTimeInSeconds - route.summary.travelTimeInSeconds
            #expect(abs(expected - detour) <= 2, "\(r.poi?.name ?? "?"): detour \(detour) s, routing through it adds \(expected) s")
            let extraMeters = via.lengthInMeters - route.summary.lengthInMeters
            #expect(abs(extraMeters - (r.detourDistance ?? 0)) <= 15, "\(r.poi?.name ?? "?"): detour distance")
        }
        // Sorted by detour time.
        let times = found.results.compactMap(\.detourTime)
        #expect(times == times.sorted())
    }

    @Test func alongRouteRefusesBadInput() throws {
        let service = try #require(Self.service)
        var q = MapsService.AlongRouteQuery(points: [Self.kamppi, Self.senate], maxDetourSeconds: 86_400 * 365)
        q.categories = ["atm"]
        #expect(throws: APIError.self) { try service.searchAlongRoute(q) }
        q.maxDetourSeconds = 600
        q.points = [Self.kamppi]
        #expect(throws: APIError.self) { try service.searchAlongRoute(q) }
    }
}
