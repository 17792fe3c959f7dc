import Testing
import GeoCore
import OSMPBF
@testable import Places

/// Reverse geocoding at the right house, drawn in metres:
///
///     y=40   +-----------+ Kulmakatu 1 (building, 0..40 × 10..40)      • Pitkäkatu 4 (node, 200, 30)
///            |  • POI    |
///     y=10   +-----------+
///     y=0  ====================== Kulmakatu ====================== (0..300)
///     y=-20       • Kulmakatu 2 (node, 30, -20)
///
/// Kulmakatu 3 is a node just east of the building, at (46, 15). The POI inside the building, a shop at
/// (10, 30), carries the other street's number, Sivukatu 1.
/// A café with its own address (Sivukatu 7) stands at (60, 25); Pitkäkatu runs north at x = 220 with
/// an interpolation line whose ends carry only numbers (1 to 9, odd; 10a to 10d, alphabetic); a
/// postcode boundary covers everything west of x = 150; a municipality boundary the whole map.
@Suite("Reverse at the right house") struct ReverseHouseTests {
    let store: SQLitePlaceStore

    init() throws {
        var m = TestMap()
        m.street("Kulmakatu", [(0, 0), (300, 0)], extra: ["maxspeed": "40"])
        m.building("Kulmakatu", "1", [(0, 10), (40, 10), (40, 40), (0, 40)])
        m.address("Kulmakatu", "2", 30, -20)
        m.address("Kulmakatu", "3", 46, 15)
        m.node(10, 30, ["shop": "books", "name": "Kirjakauppa", "addr:street": "Sivukatu", "addr:housenumber": "1"])
        m.node(60, 25, ["amenity": "cafe", "name": "Kahvila", "addr:street": "Sivukatu", "addr:housenumber": "7"])
        // A bar whose own address also exists 100 m away (so the index keeps one address point for it) stands
        // 15 m from another address.
        m.node(120, 30, ["amenity": "bar", "name": "Baari", "addr:street": "Sivukatu", "addr:housenumber": "9"])
        m.address("Sivukatu", "9", 120, 130)
        m.address("Kulmakatu", "5", 120, 45)
        m.street("Pitkäkatu", [(220, -200), (220, 400)])
        m.address("Pitkäkatu", "4", 200, 30)
        let one = m.node(235, 100, ["addr:housenumber": "1"]), nine = m.node(235, 300, ["addr:housenumber": "9"])
        m.way([one, nine], ["addr:interpolation": "odd", "addr:street": "Pitkäkatu"])
        let a = m.node(205, 100, ["addr:housenumber": "10a"]), d = m.node(205, 160, ["addr:housenumber": "10d"])
        m.way([a, d], ["addr:interpolation": "alphabetic", "addr:street": "Pitkäkatu"])
        m.boundary(id: 1, -100, -300, 150, 500, ["boundary": "postal_code", "postal_code": "00990"])
        m.boundary(id: 2, -1_000, -1_000, 1_000, 1_000, ["boundary": "administrative", "admin_level": "8", "name": "Testilä"])
        m.boundary(id: 3, -2_000, -2_000, 2_000, 2_000, ["boundary": "administrative", "admin_level": "4", "name": "Maakunta"])
        store = try m.store().0
    }

    func reverse(_ x: Double, _ y: Double, _ configure: (inout ReverseGeocodeQuery) -> Void = { _ in }) throws -> ReverseGeocodeResult? {
        var q = ReverseGeocodeQuery(position: TestMap.coordinate(x, y))
        configure(&q)
        return try store.reverseGeocode(q)
    }

    @Test func theBuildingContainingThePointAnswersEvenWhenAnotherAddressIsNearer() throws {
        // (38, 14) is inside Kulmakatu 1, 21 m from its centre but 8 m from the node of Kulmakatu 3.
        let r = try #require(try reverse(38, 14))
        #expect(r.place.address.streetNameAndNumber == "Kulmakatu 1")
        #expect(r.matchType == .addressPoint)
    }

    @Test func aPOIWithItsOwnAddressInsideTheBuildingAnswersAtThePOI() throws {
        #expect(try reverse(12, 31)?.place.address.streetNameAndNumber == "Sivukatu 1")  // 2 m from the shop
        #expect(try reverse(30, 15)?.place.address.streetNameAndNumber == "Kulmakatu 1")  // 25 m from it
    }

    @Test func aPOIsOwnAddressAnswersAtThePOI() throws {
        let r = try #require(try reverse(61, 24))
        #expect(r.place.address.streetNameAndNumber == "Sivukatu 7")
    }

    @Test func aPOIsOwnAddressAnswersEvenWhenTheIndexKeepsThatAddressElsewhere() throws {
        let r = try #require(try reverse(121, 31))
        #expect(r.place.address.streetNameAndNumber == "Sivukatu 9")
        #expect(r.distanceMeters < 2)
    }

    @Test func theNearestAddressPointBeatsAStreetNumber() throws {
        let r = try #require(try reverse(31, -17) { $0.includeRoad = true })
        #expect(r.place.address.streetNameAndNumber == "Kulmakatu 2")
        #expect(r.road?.speedLimitKmh == 40)
        #expect(r.road?.use == .localStreet)
    }

    @Test("interpolation lines with bare numbered ends answer forward and reverse", arguments: [
        (235.0, 150.0, "3"), (235.0, 250.0, "7"), (205.0, 120.0, "10b"), (205.0, 140.0, "10c"),
    ])
    func interpolationLines(x: Double, y: Double, number: String) throws {
        let r = try #require(try reverse(x + 1, y))
        #expect(r.place.address.streetNameAndNumber == "Pitkäkatu \(number)")
        #expect(r.matchType == .houseNumberRange)
        #expect(r.place.isInterpolated)
        let found = try #require(try store.search(PlaceSearchQuery(text: "Pitkäkatu \(number)")).results.first)
        #expect(found.address.houseNumber == number && found.isInterpolated)
        #expect(Geodesy.distanceMeters(found.position, TestMap.coordinate(x, y)) < 2)
    }

    @Test func postcodesComeFromTheBoundaryAroundAnAddress() throws {
        let r = try #require(try reverse(31, -17))
        #expect(r.place.address.postcode == "00100")  // tagged on the node
        let cafe = try #require(try store.search(PlaceSearchQuery(text: "Kahvila")).results.first)
        #expect(cafe.address.postcode == "00990")
        #expect(cafe.address.countrySubdivision == "Maakunta")
    }

    @Test func zoomLevelsChooseStreetsAndAreas() throws {
        let street = try #require(try reverse(35, 12) { $0.maxRank = ReverseGeocodeQuery.maxRank(zoom: 17) })
        #expect(street.matchType == .street && street.place.name == "Kulmakatu")
        let major = try #require(try reverse(35, 12) { $0.maxRank = ReverseGeocodeQuery.maxRank(zoom: 16) })
        #expect(major.matchType == .street && major.place.name == "Kulmakatu")  // residential: one of Nominatim's major streets
        // Zoom 14 reaches rank 22, finer than the postcode boundary's 21, but Nominatim never answers with a postcode.
        let neighbourhood = try #require(try reverse(35, 12) { $0.maxRank = ReverseGeocodeQuery.maxRank(zoom: 14) })
        #expect(neighbourhood.place.kind == .locality && neighbourhood.place.name == "Testilä")
        let city = try #require(try reverse(35, 12) { $0.maxRank = ReverseGeocodeQuery.maxRank(zoom: 10) })
        #expect(city.matchType == .area && city.place.name == "Testilä")
        #expect(city.place.address.countrySubdivision == "Maakunta")
        let state = try #require(try reverse(35, 12) { $0.maxRank = ReverseGeocodeQuery.maxRank(zoom: 5) })
        #expect(state.place.name == "Maakunta")
        let country = try #require(try reverse(35, 12) { $0.maxRank = ReverseGeocodeQuery.maxRank(zoom: 3) })
        #expect(country.place.address.countryCode == "FI")
    }

    @Test func tomTomEntityTypesAnswerWithTheirArea() throws {
        let postcode = try #require(try reverse(35, 12) { $0.areaTypes = [.postalCodeArea] })
        #expect(postcode.place.kind == .postcode && postcode.place.name == "00990")
        let municipality = try #require(try reverse(35, 12) { $0.areaTypes = [.municipality, .countrySubdivision] })
        #expect(municipality.place.name == "Testilä")
        #expect(try reverse(35, 12) { $0.areaTypes = [.neighbourhood] } == nil)
    }

    @Test func aRequestedNumberIsPlacedOnTheNearestStreet() throws {
        let r = try #require(try reverse(221, 200) { $0.houseNumber = "5" })
        #expect(r.place.address.houseNumber == "5")
        #expect(r.side == .right || r.side == .left)
        let offset = try #require(r.offsetPosition)
        #expect(Geodesy.distanceMeters(offset, TestMap.coordinate(220, 200)) < 3)
    }
}
