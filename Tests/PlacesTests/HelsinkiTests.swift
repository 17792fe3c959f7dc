import Testing
import Foundation
import MapsTestSupport
import GeoCore
@testable import Places

@Suite("Helsinki sample", .enabled(if: Fixtures.helsinkiAvailable)) struct HelsinkiTests {
    let built: SampleIndexes.Built
    var store: SQLitePlaceStore { built.store }
    let center = Coordinate(latitude: 60.1699, longitude: 24.9384)

    init() throws { built = try SampleIndexes.helsinki.get() }

    @Test("known places by exact name", arguments: [("Kiasma", "museum"), ("Ateneum", "museum"), ("Stockmann", "department_store"),
                                                      ("Hotel Kämp", "hotel"), ("Helsingin tuomiokirkko", "place_of_worship")])
    func exactName(name: String, category: String) throws {
        let first = try #require(try store.search(PlaceSearchQuery(text: name)).results.first)
        #expect(first.name == name)
        #expect(first.categories.first == category)
    }

    @Test("known places by a misspelt name", arguments: [("Atenuem", "Ateneum"), ("Kiasmaa", "Kiasma"), ("Stokmann", "Stockmann"),
                                                           ("Hotel Kamp", "Hotel Kämp"), ("Mannerheimntie", "Mannerheimintie"),
                                                           ("Aleksanterinktau", "Aleksanterinkatu")])
    func misspelt(text: String, expected: String) throws {
        let r = try store.search(PlaceSearchQuery(text: text, bias: center))
        #expect(r.results.first?.name == expected, "\(text) → \(r.names.prefix(3))")
    }

    @Test("known places by prefix while typing", arguments: [("Kias", "Kiasma"), ("Atene", "Ateneum"), ("Aleksanterink", "Aleksanterinkatu"),
                                                              ("Mannerh", "Mannerheimintie"), ("Hotel Kä", "Hotel Kämp"), ("Stockm", "Stockmann")])
    func prefix(text: String, expected: String) throws {
        let r = try store.search(PlaceSearchQuery(text: text, typeahead: true, bias: center, limit: 5))
        #expect(r.results.prefix(3).contains { $0.name == expected }, "\(text) → \(r.names)")
    }

    @Test("street and number find the address", arguments: [("Aleksanterinkatu 52", "Aleksanterinkatu", "52"),
                                                             ("Mannerheimintie 5", "Mannerheimintie", "5"),
                                                             ("Kaivokatu 1", "Kaivokatu", "1"), ("mikonkatu 18", "Mikonkatu", "18")])
    func streetNumber(text: String, street: String, number: String) throws {
        let first = try #require(try store.search(PlaceSearchQuery(text: text)).results.first)
        #expect(first.kind == .address)
        #expect(first.address.streetName == street)
        #expect(first.address.houseNumber == number)
        #expect(first.address.municipality == "Helsinki")
        #expect(first.address.postcode?.count == 5)
    }

    @Test func buildingsReverseGeocodeToTheirOwnAddress() throws {
        let buildings = try SampleIndexes.buildingAddresses(built.path)
        #expect(buildings.count > 20)
        var wrong: [String] = []
        for b in buildings {
            let r = try store.reverseGeocode(ReverseGeocodeQuery(position: b.position))
            let same = r?.place.address.streetName == b.street && r?.place.address.houseNumber == b.number
            // Several numbers may share one point (a building with two addresses): any of them at distance 0 is its own.
            if !(same || (r?.matchType == .addressPoint && (r?.distanceMeters ?? 1) < 0.01)) { wrong.append("\(b.street) \(b.number)") }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// The brief counts 214 restaurants, 18 ATMs and no fuel station. This index counts objects in each category:
    /// 215 restaurants (214 `amenity=restaurant` plus one `amenity=nightclub;restaurant`) and 20 ATMs
    /// (18 `amenity=atm` plus 2 `amenity=bank` with `atm=yes`).
    @Test func categoryCounts() throws {
        #expect(try store.count(category: "restaurant") == 215)
        #expect(try store.count(category: "atm") == 20)
        #expect(try store.count(category: "7397") == 20)
        #expect(try store.count(category: "fuel") == 0)
        #expect(try store.count(category: "7311") == 0)
        let info = try store.info()
        #expect(info.countryCode == "FI")
        #expect(info.counts[.poi] ?? 0 > 1_500)
    }

    @Test func noGasStationIsAPlainEmptyAnswer() throws {
        let r = try store.search(PlaceSearchQuery(text: "gas station", bias: center))
        #expect(r.results.isEmpty)
        #expect(r.matchedCategories == ["fuel"])
        #expect(try store.nearby(NearbyQuery(center: center, radiusMeters: 5_000, categories: ["7311"])).isEmpty)
        #expect(try store.corridor(CorridorQuery(polyline: [center, Coordinate(latitude: 60.175, longitude: 24.95)],
                                                 maxDistanceMeters: 500, text: "petrol station")).isEmpty)
    }

    @Test func nearbyRestaurantsHaveNamesAddressesAndPhones() throws {
        let r = try store.nearby(NearbyQuery(center: center, radiusMeters: 1_000, categories: ["restaurant"], limit: 50))
        #expect(r.count == 50)
        #expect(r.allSatisfy { !$0.name.isEmpty && $0.categories.contains("restaurant") })
        #expect(r.filter { $0.phone != nil }.count >= 10)
        #expect(r.filter { $0.address.streetName != nil }.count >= 45)
        let atms = try store.search(PlaceSearchQuery(text: "ATM", bias: center, limit: 20))
        #expect(atms.results.count == 20)
    }

    @Test func concurrentQueriesAgreeWithSequentialOnes() throws {
        let queries = ["Kiasma", "Mannerh", "Aleksanterinkatu 52", "ravintola", "Stokmann", "cafe"]
        let expected = try queries.map { try store.search(PlaceSearchQuery(text: $0, typeahead: true, bias: center)).results.map(\.id) }
        let mismatches = Atomic(0)
        let shared = store, origin = center
        DispatchQueue.concurrentPerform(iterations: 120) { i in
            let q = queries[i % queries.count]
            let ids = (try? shared.search(PlaceSearchQuery(text: q, typeahead: true, bias: origin)).results.map(\.id)) ?? []
            if ids != expected[i % queries.count] { mismatches.add() }
            if (try? shared.reverseGeocode(ReverseGeocodeQuery(position: origin))) == nil { mismatches.add() }
        }
        #expect(mismatches.value == 0)
    }
}
