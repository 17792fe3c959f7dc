import Testing
import GeoCore
import OSMPBF
@testable import Places

/// An answer in another language names its areas in that language too, as Nominatim does: the suburb
/// (a `place=suburb` node), the city, the county and the state (boundaries) each by their own `name:xx`,
/// else their `name`. A second suburb of the same name 30 km away has another Swedish name, so the
/// nearest area of a name is the one that counts.
@Suite("Area names in the requested language") struct AreaNamesTests {
    let store: SQLitePlaceStore

    init() throws {
        var m = TestMap()
        m.boundary(id: 1, -2_000, -2_000, 2_000, 2_000,
                   ["boundary": "administrative", "admin_level": "8", "name": "Helsinki", "name:sv": "Helsingfors"])
        m.boundary(id: 2, -5_000, -5_000, 5_000, 5_000,
                   ["boundary": "administrative", "admin_level": "6", "name": "Helsingin seutukunta", "name:sv": "Helsingforsregionen"])
        m.boundary(id: 3, -9_000, -9_000, 9_000, 9_000,
                   ["boundary": "administrative", "admin_level": "4", "name": "Uusimaa", "name:sv": "Nyland", "name:en": "Uusimaa Region"])
        m.node(100, 100, ["place": "suburb", "name": "Kaartinkaupunki", "name:sv": "Gardesstaden"])
        m.node(30_000, 0, ["place": "suburb", "name": "Kaartinkaupunki", "name:sv": "Fel stadsdel"])
        m.street("Unioninkatu", [(0, 0), (300, 0)], extra: ["name:sv": "Unionsgatan"])
        m.address("Unioninkatu", "5", 50, 15)
        // An address whose addr:city is the Swedish name.
        m.street("Bulevardi", [(0, 300), (300, 300)], extra: ["name:sv": "Bulevarden"])
        m.address("Bulevardi", "2", 50, 315, city: "Helsingfors")
        // Near the other Kaartinkaupunki.
        m.street("Kaukotie", [(29_900, 0), (30_100, 0)])
        m.address("Kaukotie", "1", 30_000, 15, city: nil)
        store = try m.store().0
    }

    func top(_ text: String, _ language: String?) throws -> PlaceResult {
        try #require(try store.search(PlaceSearchQuery(text: text, language: language)).results.first, "\(text)")
    }

    @Test func searchNamesTheSuburbCityCountyAndStateInTheLanguageAsked() throws {
        let fi = try top("Unioninkatu 5", nil)
        #expect(fi.address.municipalitySubdivision == "Kaartinkaupunki" && fi.address.municipality == "Helsinki")
        let sv = try top("Unioninkatu 5", "sv")
        #expect(sv.address.streetName == "Unionsgatan")
        #expect(sv.address.municipalitySubdivision == "Gardesstaden")
        #expect(sv.address.municipality == "Helsingfors")
        #expect(sv.address.countrySecondarySubdivision == "Helsingforsregionen")
        #expect(sv.address.countrySubdivision == "Nyland")
    }

    @Test func aPartIsTheNearestAreaOfItsName() throws {
        let far = try top("Kaukotie 1", "sv")
        #expect(far.address.municipalitySubdivision == "Fel stadsdel")
        #expect(try top("Unioninkatu 5", "sv").address.municipalitySubdivision == "Gardesstaden")
    }

    @Test func eachAreaFallsBackOnItsOwnName() throws {
        // Only the state has an English name; the others fall back to `name`, as Nominatim's do.
        let en = try top("Unioninkatu 5", "en")
        #expect(en.address.municipalitySubdivision == "Kaartinkaupunki" && en.address.municipality == "Helsinki")
        #expect(en.address.countrySubdivision == "Uusimaa Region")
        // A list: German first (none), then Swedish.
        let list = try top("Unioninkatu 5", "de,sv;q=0.5")
        #expect(list.address.municipality == "Helsingfors" && list.address.countrySubdivision == "Nyland")
    }

    @Test func aPartWrittenInAnotherLanguageIsTheSameArea() throws {
        let fi = try top("Bulevardi 2", "fi")
        #expect(fi.address.municipality == "Helsinki")
        #expect(try top("Bulevardi 2", "sv").address.municipality == "Helsingfors")
    }

    @Test func reverseGeocodingNamesTheAreasInTheLanguageAsked() throws {
        let at = TestMap.coordinate(50, 12)
        let found = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: at, language: "sv")))
        #expect(found.place.address.streetName == "Unionsgatan")
        #expect(found.place.address.municipalitySubdivision == "Gardesstaden" && found.place.address.municipality == "Helsingfors")
        // The area itself at zoom 14 (rank 22): the suburb node, its city above it.
        let area = try #require(try store.reverseGeocode(ReverseGeocodeQuery(position: at, language: "sv", maxRank: 22)))
        #expect(area.place.name == "Gardesstaden" && area.place.address.municipality == "Helsingfors")
    }
}
