import Testing
import GeoCore
import OSMPBF
@testable import Places

/// Addresses put together as Nominatim puts them: a POI with no address of its own takes the address
/// of the building it stands in, or else only its street (never a neighbour's house number); the
/// municipality boundary names the city whatever `addr:city` says (Monte-Carlo is a quarter of the city
/// of Monaco); `place=city_block` is a place (Nominatim ranks it 25).
@Suite("Addresses as Nominatim gives them") struct AddressAsNominatimTests {
    let store: SQLitePlaceStore

    init() throws {
        var m = TestMap()
        m.boundary(id: 1, -2_000, -2_000, 2_000, 2_000, ["boundary": "administrative", "admin_level": "8", "name": "Monaco"])
        m.boundary(id: 2, -2_000, -2_000, 2_000, 0, ["boundary": "administrative", "admin_level": "10", "name": "La Rousse"])
        m.street("Rue des Roses", [(0, -100), (300, -100)])
        m.address("Rue des Roses", "6", 100, -85, postcode: "98000", city: "Monte-Carlo")
        m.street("Mikonkatu", [(0, 0), (300, 0)])
        m.street("Vilhonkatu", [(0, 100), (300, 100)])
        // A building carrying Mikonkatu 18, reaching up to 5 m from Vilhonkatu 9.
        m.building("Mikonkatu", "18", [(100, 10), (160, 10), (160, 85), (100, 85)])
        m.address("Vilhonkatu", "9", 130, 90)
        // A café inside the building, 8 m from Vilhonkatu 9; a kiosk in the open, 5 m from it.
        m.node(130, 82, ["amenity": "cafe", "name": "Kahvila Sisällä"])
        m.node(200, 92, ["amenity": "kiosk", "name": "Kioski Ulkona"])
        m.address("Vilhonkatu", "11", 200, 95)
        // A named building with no address (a POI way): only the street.
        m.area([(220, 20), (260, 20), (260, 40), (220, 40)], ["building": "yes", "amenity": "library", "name": "Kirjasto"])
        m.address("Mikonkatu", "22", 240, 15)
        // Outside the quarters: addr:city names the village (as Arinsal in the parish of La Massana, Andorra).
        m.street("Carrer de la Vila", [(0, 300), (300, 300)])
        m.address("Carrer de la Vila", "8", 100, 315, postcode: nil, city: "Arinsal")
        // Beyond the municipality boundary, near the city node: addr:city names a quarter, not the city.
        m.node(2_500, 0, ["place": "city", "name": "Monaco"])
        m.street("Avenue de France", [(2_900, 0), (3_100, 0)])
        m.address("Avenue de France", "7", 3_000, 15, postcode: nil, city: "La Rousse")
        m.area([(400, 400), (500, 400), (500, 500), (400, 500)], ["place": "city_block", "name": "Hevonen", "name:sv": "Hästen"])
        store = try m.store(countryCode: "MC").0
    }

    func top(_ text: String, _ language: String? = nil) throws -> PlaceResult {
        try #require(try store.search(PlaceSearchQuery(text: text, language: language)).results.first, "\(text)")
    }

    @Test func aPOIInsideABuildingTakesTheBuildingsAddress() throws {
        let cafe = try top("Kahvila Sisällä")
        #expect(cafe.address.streetName == "Mikonkatu" && cafe.address.houseNumber == "18")
    }

    @Test func aPOIWithoutAnAddressGetsOnlyItsStreet() throws {
        let kiosk = try top("Kioski Ulkona")
        #expect(kiosk.address.streetName == "Vilhonkatu")
        #expect(kiosk.address.houseNumber == nil)
        let library = try top("Kirjasto")
        #expect(library.address.streetName == "Mikonkatu" && library.address.houseNumber == nil)
    }

    @Test func theMunicipalityBoundaryNamesTheCity() throws {
        let house = try top("Rue des Roses 6")
        #expect(house.address.municipality == "Monaco")
        #expect(house.address.municipalitySubdivision == "La Rousse")
    }

    @Test func anotherAddrCityIsTheDistrictWhereNoBoundaryNamesOne() throws {
        let house = try top("Carrer de la Vila 8, Arinsal")
        #expect(house.address.houseNumber == "8")
        #expect(house.address.municipality == "Monaco" && house.address.municipalitySubdivision == "Arinsal")
        // Inside a quarter's boundary the quarter is the district, as in Nominatim.
        #expect(try top("Rue des Roses 6").address.municipalitySubdivision == "La Rousse")
    }

    @Test func anAddrCityNamingAQuarterDoesNotNameTheCity() throws {
        let house = try top("Avenue de France 7")
        #expect(house.address.municipality == "Monaco")
    }

    @Test func aCityBlockIsAPlace() throws {
        let block = try top("Hevonen")
        #expect(block.kind == .locality && block.osmValue == "city_block" && block.addressRank == 25)
        #expect(block.address.municipality == "Monaco")
        #expect(try top("Hästen", "sv").name == "Hästen")
    }
}
