import Testing
import GeoCore
import OSMPBF
@testable import Places

/// Testikatu runs east from (0, 0) to (400, 0) with odd numbers 1 and 9 on its north side and even
/// 2 and 10 on its south side at its ends; Sivukatu runs north with no numbers; Välikatu has an OSM
/// interpolation way from 2 to 12; a building outline carries Rakennuskatu 3.
@Suite("Reverse geocoding") struct ReverseGeocodeTests {
    let store: SQLitePlaceStore

    init() throws {
        var m = TestMap()
        m.street("Testikatu", [(0, 0), (400, 0)])
        m.address("Testikatu", "1", 20, 15)
        m.address("Testikatu", "9", 380, 15)
        m.address("Testikatu", "2", 20, -15)
        m.address("Testikatu", "10", 380, -15)
        m.street("Sivukatu", [(-100, 100), (-100, 400)])
        m.street("Välikatu", [(0, -300), (300, -300)])
        let start = m.address("Välikatu", "2", 0, -290, postcode: "00200")
        let end = m.address("Välikatu", "12", 200, -290, postcode: "00200")
        m.way([start, end], ["addr:interpolation": "even", "addr:street": "Välikatu"])
        let corners = [(600.0, 600.0), (620, 600), (620, 620), (600, 620)].map { m.node($0.0, $0.1) }
        m.way(corners + [corners[0]], ["building": "yes", "addr:street": "Rakennuskatu", "addr:housenumber": "3", "addr:postcode": "00300"])
        m.street("Rakennuskatu", [(560, 550), (700, 550)])
        store = try m.store().0
    }

    @Test func anAddressPointAnswersWhenClose() throws {
        let r = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: TestMap.coordinate(21, 16))))
        #expect(r.matchType == .addressPoint)
        #expect(r.place.address.streetNameAndNumber == "Testikatu 1")
        #expect(r.place.address.freeform == "Testikatu 1, 00100 Helsinki")
        #expect(r.distanceMeters < 3)
    }

    @Test("numbers are interpolated between known ones on the same side", arguments: [
        (200.0, 10.0, "5"), (200.0, -10.0, "6"), (110.0, 10.0, "3"), (290.0, -10.0, "8"),
    ])
    func interpolation(east: Double, north: Double, expected: String) throws {
        let r = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: TestMap.coordinate(east, north))))
        #expect(r.matchType == .houseNumberRange)
        #expect(r.place.address.streetName == "Testikatu")
        #expect(r.place.address.houseNumber == expected)
        #expect(r.place.isInterpolated)
        #expect(r.distanceMeters < 12)
        #expect(r.place.address.postcode == "00100")
    }

    @Test func osmInterpolationWaysBecomeAddresses() throws {
        let r = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: TestMap.coordinate(81, -291))))
        #expect(r.place.address.streetNameAndNumber == "Välikatu 6")
        #expect(r.place.isInterpolated)
        #expect(r.place.address.postcode == "00200")
        let search = try store.search(PlaceSearchQuery(text: "Välikatu 8"))
        #expect(search.results.first?.address.houseNumber == "8")
        #expect(search.results.first?.isInterpolated == true)
    }

    @Test func theNearestStreetAnswersWithoutNumbers() throws {
        let r = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: TestMap.coordinate(-95, 250))))
        #expect(r.matchType == .street)
        #expect(r.place.name == "Sivukatu")
        #expect(r.place.kind == .street)
        #expect(abs(r.distanceMeters - 5) < 1)
        #expect(abs(r.place.position.latitude - TestMap.coordinate(-100, 250).latitude) < 1e-5)
    }

    @Test func aBuildingsOwnPointGivesItsOwnAddress() throws {
        let building = try #require(try store.search(PlaceSearchQuery(text: "Rakennuskatu 3")).results.first)
        #expect(building.osmType == .way)
        let r = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: building.position)))
        #expect(r.matchType == .addressPoint)
        #expect(r.place.address.streetNameAndNumber == "Rakennuskatu 3")
        #expect(r.distanceMeters < 0.01)
        #expect(abs(building.position.latitude - TestMap.coordinate(610, 610).latitude) < 2e-6)
    }

    @Test func nothingWithinTheRadiusIsAnEmptyAnswer() throws {
        #expect(try store.reverseGeocode(ReverseGeocodeQuery(position: TestMap.coordinate(5_000, 5_000))) == nil)
        #expect(try store.reverseGeocode(ReverseGeocodeQuery(position: TestMap.coordinate(-95, 250), radiusMeters: 2)) == nil)
        let noStreets = try store.reverseGeocode(ReverseGeocodeQuery(position: TestMap.coordinate(-95, 250), allowStreet: false))
        #expect(noStreets == nil)
    }
}
