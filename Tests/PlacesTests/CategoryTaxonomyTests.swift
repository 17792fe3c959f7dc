import Testing
import OSMPBF
@testable import Places

@Suite("Category taxonomy") struct CategoryTaxonomyTests {
    let taxonomy = CategoryTaxonomy.standard

    @Test("OSM tags map to categories", arguments: [
        (["amenity": "fuel"], ["fuel"]),
        (["amenity": "charging_station"], ["charging_station"]),
        (["amenity": "restaurant", "cuisine": "pizza"], ["restaurant"]),
        (["amenity": "cafe"], ["cafe"]),
        (["amenity": "fast_food"], ["fast_food"]),
        (["amenity": "pub"], ["pub"]),
        (["amenity": "bar"], ["bar"]),
        (["amenity": "atm"], ["atm"]),
        (["amenity": "bank", "atm": "yes"], ["bank", "atm"]),
        (["amenity": "bank", "atm": "no"], ["bank"]),
        (["amenity": "bank"], ["bank"]),
        (["amenity": "pharmacy"], ["pharmacy"]),
        (["amenity": "hospital"], ["hospital"]),
        (["amenity": "parking"], ["parking"]),
        (["tourism": "hotel"], ["hotel"]),
        (["shop": "supermarket"], ["supermarket"]),
        (["shop": "convenience"], ["convenience"]),
        (["amenity": "post_office"], ["post_office"]),
        (["amenity": "toilets"], ["toilets"]),
        (["shop": "bicycle"], ["shop"]),
        (["amenity": "cafe;restaurant"], ["restaurant", "cafe"]),
        (["highway": "residential"], []),
    ] as [([String: String], [String])])
    func mapping(tags: [String: String], expected: [String]) {
        #expect(Set(taxonomy.categories(for: Tags(tags))) == Set(expected))
        if let first = expected.first, expected.count == 2, tags["atm"] != nil { #expect(taxonomy.categories(for: Tags(tags)).first == first) }
    }

    @Test("filters accept string ids, TomTom ids and names", arguments: [
        ("fuel", ["fuel"]), ("7311", ["fuel"]), ("petrol station", ["fuel"]), ("Gas Station", ["fuel"]), ("gas", ["fuel"]),
        ("7397", ["atm"]), ("cash machine", ["atm"]), ("9376002", ["cafe"]), ("café", ["cafe"]), ("cafe", ["cafe"]),
        ("7326", ["pharmacy"]), ("7321", ["hospital"]), ("7313", ["parking"]), ("7369", ["parking"]),
        ("7309", ["charging_station"]), ("EV charging", ["charging_station"]), ("7332005", ["supermarket"]), ("7328", ["bank"]),
        ("7314", ["hotel", "hostel", "motel", "guest_house"]), ("7315", ["restaurant", "fast_food", "ice_cream"]),
        ("nonsense", []), ("123", []),
    ] as [(String, [String])])
    func resolve(filter: String, expected: [String]) {
        #expect(Set(taxonomy.resolve(filter).map(\.id)) == Set(expected))
    }

    @Test func everyRequiredCategoryIsListedWithNamesAndTomTomIDs() {
        for id in ["fuel", "charging_station", "restaurant", "cafe", "fast_food", "bar", "pub", "atm", "bank", "pharmacy", "hospital",
                   "parking", "hotel", "supermarket", "convenience", "post_office", "toilets"] {
            let c = taxonomy.category(id: id)
            #expect(c != nil, "missing \(id)")
            #expect(c?.tomTomID != nil)
            #expect(!(c?.name.isEmpty ?? true))
        }
        let listing = taxonomy.tomTomCategories()
        #expect(listing.poiCategories.contains { $0.id == 7311 && $0.synonyms.contains("gas station") })
        #expect(listing.poiCategories.first { $0.id == 7315 }?.childCategoryIds.contains(7315015) == true)
    }

    @Test func typeaheadPhrases() {
        #expect(taxonomy.phrases(startingWith: "petr").map { taxonomy.categories[$0].id } == ["fuel"])
        #expect(taxonomy.phrases(startingWith: "re").isEmpty)
    }
}
