import Testing
import GeoCore
import OSMPBF
@testable import Places

/// Every name the map has: a bilingual street (Keskuskatu / Centralgatan) with numbers that only carry
/// the Finnish name, a café with an English name, an old name, Danish and German spellings with
/// letters the tokenizer keeps (ø, ß), abbreviations, and four-letter words for swapped-letter typos.
@Suite("Names in every language") struct NamesTests {
    let store: SQLitePlaceStore

    init() throws {
        var m = TestMap()
        m.street("Keskuskatu", [(0, 0), (300, 0)], extra: ["name:sv": "Centralgatan", "name:en": "Central Street"])
        m.address("Keskuskatu", "2", 50, 15)
        m.address("Keskuskatu", "4", 150, 15)
        m.node(250, 20, ["amenity": "cafe", "name": "Kahvila Aalto", "name:en": "Aalto Coffee", "old_name": "Kahvila Kulma",
                         "addr:street": "Keskuskatu", "addr:housenumber": "8"])
        m.street("Nørrebrogade", [(0, 500), (300, 500)])
        m.address("Nørrebrogade", "10", 100, 515)
        m.street("Hauptstraße", [(0, 1_000), (300, 1_000)])
        m.address("Hauptstraße", "5", 100, 1_015)
        m.street("Baker Street", [(0, 1_500), (300, 1_500)])
        m.address("Baker Street", "221", 100, 1_515)
        m.street("Luċija Road", [(0, 2_000), (300, 2_000)])
        m.node(100, 2_500, ["amenity": "restaurant", "name": "Kopi"])
        store = try m.store().0
    }

    @Test func aStreetsOtherNamesFindItsAddresses() throws {
        let r = try store.search(PlaceSearchQuery(text: "Centralgatan 2"))
        let top = try #require(r.results.first)
        #expect(top.kind == .address)
        #expect(top.address.houseNumber == "2")
        #expect(try store.search(PlaceSearchQuery(text: "Central Street 4")).results.first?.address.houseNumber == "4")
    }

    @Test func answersAreInTheRequestedLanguageWithNominatimsFallback() throws {
        let sv = try #require(try store.search(PlaceSearchQuery(text: "Centralgatan 2", language: "sv")).results.first)
        #expect(sv.name == "Centralgatan 2")
        #expect(sv.address.streetName == "Centralgatan")
        // No Swedish name for the café: `name:en` is not taken for Swedish; the fallback is `name`.
        let cafe = try #require(try store.search(PlaceSearchQuery(text: "Aalto Coffee", language: "sv")).results.first)
        #expect(cafe.name == "Kahvila Aalto")
        #expect(cafe.address.streetName == "Centralgatan")
        // A list is tried in order, weights first.
        let en = try #require(try store.search(PlaceSearchQuery(text: "Kahvila Aalto", language: "de,en;q=0.8")).results.first)
        #expect(en.name == "Aalto Coffee")
        #expect(try store.search(PlaceSearchQuery(text: "Keskuskatu 2")).results.first?.name == "Keskuskatu 2")
        #expect(LanguagePreference("sv-FI,en;q=0.5,fi;q=0.9").languages == ["sv-FI", "sv", "fi", "en"])
    }

    @Test func alternativeAndOldNamesAreSearchable() throws {
        #expect(try store.search(PlaceSearchQuery(text: "Kahvila Kulma")).results.first?.name == "Kahvila Aalto")
    }

    @Test("letters without a decomposition fold as keyboards spell them", arguments: [
        ("Norrebrogade 10", "10"), ("Hauptstrasse 5", "5"), ("Luc\u{0307}ija Road", nil), ("Lucija Road", nil),
    ])
    func folding(text: String, number: String?) throws {
        let top = try #require(try store.search(PlaceSearchQuery(text: text)).results.first, "\(text)")
        #expect(top.address.houseNumber == number)
        #expect(try store.search(PlaceSearchQuery(text: text)).fuzzyLevel == 1)
    }

    @Test("abbreviations stand for their words", arguments: [
        ("Hauptstr. 5", "Hauptstraße 5"), ("Hauptstr 5", "Hauptstraße 5"), ("Baker St 221", "Baker Street 221"),
        ("Baker St. 221", "Baker Street 221"), ("Keskusk. 2", "Keskuskatu 2"),
    ])
    func abbreviations(text: String, expected: String) throws {
        let r = try store.search(PlaceSearchQuery(text: text))
        #expect(r.results.first?.name == expected, "\(text) → \(r.names)")
        #expect(r.fuzzyLevel == 1)
    }

    @Test func aSwapInTheMiddleOfAFourLetterWordIsOneTypo() throws {
        // "kpoi" and "kopi" share no trigram (^kp kpo poi oi$ / ^ko kop opi pi$).
        let r = try store.search(PlaceSearchQuery(text: "Kpoi"))
        #expect(r.results.first?.name == "Kopi")
        #expect(r.fuzzyLevel == 2)
        #expect(try store.search(PlaceSearchQuery(text: "Kpoi", typeahead: true)).results.first?.name == "Kopi")
        // Exact mode still corrects nothing.
        #expect(try store.search(PlaceSearchQuery(text: "Kpoi", maxFuzzyLevel: 1)).results.isEmpty)
    }
}
