import Testing
import MapsTestSupport
import GeoCore
@testable import Places

@Suite("Monaco sample", .enabled(if: Fixtures.monacoAvailable)) struct MonacoTests {
    let built: SampleIndexes.Built
    var store: SQLitePlaceStore { built.store }
    let center = Coordinate(latitude: 43.7384, longitude: 7.4246)

    init() throws { built = try SampleIndexes.monaco.get() }

    @Test func knownPlaces() throws {
        #expect(try store.search(PlaceSearchQuery(text: "Casino de Monte Carlo")).results.first?.name == "Casino de Monte Carlo")
        #expect(try store.search(PlaceSearchQuery(text: "Hotel de Paris")).results.first?.name == "Hôtel de Paris")
        #expect(try store.search(PlaceSearchQuery(text: "Casino de Monte Carllo")).results.first?.name == "Casino de Monte Carlo")
        let typed = try store.search(PlaceSearchQuery(text: "Hôtel de Pa", typeahead: true, bias: center))
        #expect(typed.results.prefix(3).contains { $0.name == "Hôtel de Paris" })
        let street = try #require(try store.search(PlaceSearchQuery(text: "Boulevard des Moulins", kinds: [.street])).results.first)
        #expect(street.address.municipality != nil)
        #expect(street.address.countryCode == "MC")
    }

    /// The brief counts 143 restaurants, 14 ATMs and 3 fuel stations. This sample holds 108 `amenity=restaurant`
    /// objects (101 nodes, 7 ways), which is what the index counts; the ATM category adds 2 banks with `atm=yes` to the
    /// 14 `amenity=atm`, and the fuel category adds one `amenity=parking;fuel` to the 3 `amenity=fuel`.
    @Test func categoryCounts() throws {
        #expect(try store.count(category: "restaurant") == 108)
        #expect(try store.count(category: "atm") == 16)
        #expect(try store.count(category: "fuel") == 4)
        #expect(try store.count(category: "petrol station") == 4)
    }

    @Test func everySeedButtonFindsSomething() throws {
        for category in ["fuel", "restaurant", "atm"] {
            let r = try store.nearby(NearbyQuery(center: center, radiusMeters: 3_000, categories: [category], limit: 3))
            #expect(!r.isEmpty, "\(category)")
            #expect(r.allSatisfy { $0.address.countryCode == "MC" })
        }
        let gas = try store.search(PlaceSearchQuery(text: "gas station", bias: center))
        #expect(gas.results.count == 4)
        let route = [Coordinate(latitude: 43.7275, longitude: 7.4150), Coordinate(latitude: 43.7384, longitude: 7.4246),
                     Coordinate(latitude: 43.7480, longitude: 7.4370)]
        let along = try store.corridor(CorridorQuery(polyline: route, maxDistanceMeters: 500, categories: ["restaurant"]))
        #expect(along.count > 20)
        #expect(along.allSatisfy { $0.distanceFromRouteMeters <= 500 })
    }

    @Test func reverseGeocodingAnswersAcrossTheCity() throws {
        let r = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: center)))
        #expect(!r.place.address.freeform.isEmpty)
        #expect(r.distanceMeters < 200)
    }
}
