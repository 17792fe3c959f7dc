import Testing
import GeoCore
import OSMPBF
@testable import Places

/// A small drawn city: Mannerheimintie (two ways, one street) with house numbers, Töölönkatu, a suburb,
/// restaurants, a café, a bank with an ATM, a fuel station; a second Mannerheimintie and a Pizzeria 20 km away.
@Suite("Forward search") struct SearchTests {
    let store: SQLitePlaceStore
    let near = TestMap.coordinate(100, 0)
    let far = TestMap.coordinate(20_000, 0)

    init() throws {
        var m = TestMap()
        let a = m.node(0, 0), b = m.node(300, 0), c = m.node(600, 0)
        m.way([a, b], ["highway": "primary", "name": "Mannerheimintie", "name:sv": "Mannerheimvägen"])
        m.way([b, c], ["highway": "primary", "name": "Mannerheimintie", "name:sv": "Mannerheimvägen"])
        for (i, x) in [50.0, 150, 250, 350, 450].enumerated() {
            m.address("Mannerheimintie", String(2 * i + 1), x, 15)
            m.address("Mannerheimintie", String(2 * i + 2), x, -15)
        }
        m.street("Töölönkatu", [(0, 200), (400, 200)])
        m.node(100, 210, ["amenity": "restaurant", "name": "Ravintola Töölö", "phone": "+358 9 123 456", "cuisine": "finnish"])
        m.node(300, 25, ["amenity": "cafe", "name": "Café Mannerheim", "contact:phone": "+358 9 222", "contact:website": "https://cafe.example"])
        m.node(100, 300, ["place": "suburb", "name": "Töölö", "name:sv": "Tölö"])
        m.node(300, 100, ["place": "city", "name": "Helsinki", "name:sv": "Helsingfors"])
        m.node(400, 20, ["amenity": "bank", "atm": "yes", "name": "Nordea"])
        m.node(450, -25, ["amenity": "atm", "operator": "Otto"])
        m.node(500, 30, ["amenity": "fuel", "name": "Neste Mannerheimintie", "brand": "Neste", "opening_hours": "24/7"])
        m.node(120, -30, ["amenity": "restaurant", "name": "Pizzeria Roma", "name:en": "Roma Pizza", "cuisine": "pizza"])
        m.street("Mannerheimintie", [(20_000, 0), (20_300, 0)])
        m.node(20_100, 20, ["amenity": "restaurant", "name": "Pizzeria Roma", "cuisine": "pizza"])
        store = try m.store().0
    }

    @Test func exactNameComesFirst() throws {
        let r = try store.search(PlaceSearchQuery(text: "Töölö"))
        #expect(r.results.first?.kind == .locality)
        #expect(r.results.first?.name == "Töölö")
        #expect(r.names.contains("Ravintola Töölö"))
        #expect(r.fuzzyLevel == 1)
    }

    @Test func diacriticsFold() throws {
        let r = try store.search(PlaceSearchQuery(text: "Toolo"))
        #expect(r.results.first?.name == "Töölö")
        #expect(try store.search(PlaceSearchQuery(text: "toolonkatu")).results.first?.name == "Töölönkatu")
        #expect(try store.search(PlaceSearchQuery(text: "Cafe Mannerheim")).results.first?.name == "Café Mannerheim")
    }

    @Test("one or two typos are tolerated", arguments: [
        ("Mannerhiemintie", "Mannerheimintie"), ("Manerheimintie", "Mannerheimintie"), ("Manerheimintei", "Mannerheimintie"),
        ("Ravintla Toolo", "Ravintola Töölö"), ("Nordae", "Nordea"), ("Pizzeira", "Pizzeria Roma"),
    ])
    func typos(text: String, expected: String) throws {
        let r = try store.search(PlaceSearchQuery(text: text, bias: near))
        #expect(r.results.first?.name == expected, "\(text) → \(r.names)")
        #expect(r.fuzzyLevel == 2)
    }

    @Test func exactModeDoesNotCorrect() throws {
        #expect(try store.search(PlaceSearchQuery(text: "Mannerhiemintie", maxFuzzyLevel: 1)).results.isEmpty)
    }

    @Test func typeaheadTreatsTheLastWordAsAPrefix() throws {
        let r = try store.search(PlaceSearchQuery(text: "Manne", typeahead: true, bias: near))
        #expect(r.results.first?.kind == .street)
        #expect(r.results.first?.name == "Mannerheimintie")
        #expect(try store.search(PlaceSearchQuery(text: "Ravintola To", typeahead: true)).results.first?.name == "Ravintola Töölö")
        #expect(try store.search(PlaceSearchQuery(text: "Manne", typeahead: false, maxFuzzyLevel: 1)).results.isEmpty)
        // A typo in the prefix itself.
        #expect(try store.search(PlaceSearchQuery(text: "Manerhei", typeahead: true, bias: near)).results.first?.name == "Mannerheimintie")
    }

    @Test func streetAndNumberFindsTheAddress() throws {
        let r = try store.search(PlaceSearchQuery(text: "Mannerheimintie 5"))
        let first = try #require(r.results.first)
        #expect(first.kind == .address)
        #expect(first.address.streetName == "Mannerheimintie")
        #expect(first.address.houseNumber == "5")
        #expect(first.address.freeform == "Mannerheimintie 5, 00100 Helsinki")
        #expect(first.name == "Mannerheimintie 5")
        let typed = try store.search(PlaceSearchQuery(text: "Mannerheimintie 1", typeahead: true, bias: near))
        #expect(typed.results.first?.address.houseNumber == "1")
    }

    @Test func anUnknownHouseNumberFallsBackToTheStreet() throws {
        let r = try store.search(PlaceSearchQuery(text: "Mannerheimintie 99", bias: near))
        #expect(r.results.first?.kind == .street)
        #expect(r.results.first?.name == "Mannerheimintie")
    }

    @Test func sameNamedWaysAreOneStreetPerArea() throws {
        let r = try store.search(PlaceSearchQuery(text: "Mannerheimintie", kinds: [.street]))
        #expect(r.results.count == 2)
        let street = try #require(r.results.first { $0.position.longitudeE7 < far.longitudeE7 - 10_000 })
        #expect(street.extent != nil)
        #expect(street.address.municipality == "Helsinki")
        #expect(street.address.postcode == "00100")
    }

    @Test func otherLanguagesAreSearchable() throws {
        #expect(try store.search(PlaceSearchQuery(text: "Mannerheimvägen")).results.first?.name == "Mannerheimintie")
        let r = try store.search(PlaceSearchQuery(text: "Roma Pizza", bias: near, language: "en"))
        #expect(r.results.first?.name == "Roma Pizza")
        #expect(r.results.first?.otherNames["name:en"] == "Roma Pizza")
        #expect(try store.search(PlaceSearchQuery(text: "Helsingfors")).results.first?.name == "Helsinki")
    }

    @Test func biasPrefersTheNearOne() throws {
        let fromNear = try store.search(PlaceSearchQuery(text: "Pizzeria Roma", bias: near))
        let fromFar = try store.search(PlaceSearchQuery(text: "Pizzeria Roma", bias: far))
        #expect((fromNear.results.first?.distanceMeters ?? .infinity) < 200)
        #expect((fromFar.results.first?.distanceMeters ?? .infinity) < 200)
        #expect(fromNear.results.first?.id != fromFar.results.first?.id)
        #expect(try store.search(PlaceSearchQuery(text: "Pizzeria Roma")).results.allSatisfy { $0.distanceMeters == nil })
    }

    @Test func typingAStreetsStartFindsTheNearestStreetOfThatName() throws {
        // The far Mannerheimintie is a residential street with no numbers; the near one a primary road with ten.
        let typed = try store.search(PlaceSearchQuery(text: "Mannerh", typeahead: true, bias: far, kinds: [.street]))
        #expect((typed.results.first?.distanceMeters ?? .infinity) < 500, "\(typed.results.map { $0.distanceMeters ?? -1 })")
        // Photon's location_bias_scale = 1: prominence alone, so the primary road comes first wherever the user is.
        var prominent = PlaceSearchQuery(text: "Mannerh", typeahead: true, bias: far, kinds: [.street])
        prominent.biasWeighting = LocationBias(prominence: 1)
        #expect((try store.search(prominent).results.first?.distanceMeters ?? 0) > 15_000)
    }

    @Test func boxRadiusAndCategoryFilters() throws {
        let box = BoundingBox(south: TestMap.coordinate(0, -1_000).latitude, west: TestMap.coordinate(-1_000, 0).longitude,
                              north: TestMap.coordinate(0, 1_000).latitude, east: TestMap.coordinate(1_000, 0).longitude)
        #expect(try store.search(PlaceSearchQuery(text: "Pizzeria", boundingBox: box)).results.count == 1)
        #expect(try store.search(PlaceSearchQuery(text: "Pizzeria", bias: far, radiusMeters: 1_000)).results.count == 1)
        #expect(try store.search(PlaceSearchQuery(text: "Pizzeria")).results.count == 2)
        #expect(try store.search(PlaceSearchQuery(text: "Nordea", categories: ["atm"])).results.first?.name == "Nordea")
        #expect(try store.search(PlaceSearchQuery(text: "Nordea", categories: ["7397"])).results.count == 1)
        #expect(try store.search(PlaceSearchQuery(text: "Nordea", categories: ["7311"])).results.isEmpty)
        #expect(try store.search(PlaceSearchQuery(text: "Mannerheimintie", categories: ["fuel"])).names == ["Neste Mannerheimintie"])
        #expect(try store.search(PlaceSearchQuery(text: "Mannerheimintie", kinds: [.address])).results.allSatisfy { $0.kind == .address })
        #expect(try store.search(PlaceSearchQuery(text: "Nordea", categories: ["no such category"])).results.isEmpty)
    }

    @Test func categoryWordsFindTheCategory() throws {
        let gas = try store.search(PlaceSearchQuery(text: "gas station", bias: near))
        #expect(gas.results.first?.name == "Neste Mannerheimintie")
        #expect(gas.matchedCategories == ["fuel"])
        let atms = try store.search(PlaceSearchQuery(text: "ATM", bias: near))
        #expect(Set(atms.results.prefix(2).map(\.name)) == ["Nordea", "Otto"])
        let typed = try store.search(PlaceSearchQuery(text: "restaur", typeahead: true, bias: near))
        #expect(typed.results.prefix(3).contains { $0.name == "Pizzeria Roma" })
        // A listing without words: the category around the bias, nearest first.
        let list = try store.search(PlaceSearchQuery(text: "", bias: near, categories: ["restaurant"]))
        #expect(list.names == ["Pizzeria Roma", "Ravintola Töölö", "Pizzeria Roma"])
    }

    @Test func pagingIsConsistent() throws {
        let all = try store.search(PlaceSearchQuery(text: "Mannerheimintie", limit: 20))
        let first = try store.search(PlaceSearchQuery(text: "Mannerheimintie", limit: 5))
        let second = try store.search(PlaceSearchQuery(text: "Mannerheimintie", limit: 5, offset: 5))
        #expect(first.results.map(\.id) + second.results.map(\.id) == Array(all.results.prefix(10).map(\.id)))
        #expect(all.totalResults >= 12)
    }

    @Test func resultsCarryPOIDetails() throws {
        let cafe = try #require(try store.search(PlaceSearchQuery(text: "Café Mannerheim")).results.first)
        #expect(cafe.phone == "+358 9 222")
        #expect(cafe.website == "https://cafe.example")
        #expect(cafe.categories == ["cafe"])
        #expect(cafe.address.streetName == "Mannerheimintie")  // from the nearest address
        #expect(cafe.osmType == .node)
        let fuel = try #require(try store.search(PlaceSearchQuery(text: "Neste")).results.first)
        #expect(fuel.brand == "Neste")
        #expect(fuel.openingHours == "24/7")
        let atm = try #require(try store.search(PlaceSearchQuery(text: "Otto")).results.first)
        #expect(atm.categories == ["atm"])
    }

    @Test func emptyAnswers() throws {
        #expect(try store.search(PlaceSearchQuery(text: "")).results.isEmpty)
        #expect(try store.search(PlaceSearchQuery(text: "   ,,, ")).results.isEmpty)
        #expect(try store.search(PlaceSearchQuery(text: "xyzzyqwv")).results.isEmpty)
        #expect(try store.search(PlaceSearchQuery(text: "\"OR*(")).results.isEmpty)
        #expect(try store.search(PlaceSearchQuery(text: "Nordea", kinds: [])).results.isEmpty)
        #expect(try store.search(PlaceSearchQuery(text: "Nordea", limit: -5)).results.count == 1)
    }
}
