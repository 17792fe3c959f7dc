import Foundation
import Testing
import MapsTestSupport
import HTTPServer
import MapsService

/// Nominatim's and Photon's parameters on the Helsinki sample, through the production router: each
/// one acts, or is refused with a 400 that names it.
@Suite(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
struct GeocodingEndpointTests {
    func places(_ target: String) throws -> [[String: Any]] {
        let r = try HelsinkiServer.get(target)
        #expect(r.status == .ok, "\(target)")
        return try ServerFixture.jsonArray(r).compactMap { $0 as? [String: Any] }
    }

    func refusal(_ target: String) throws -> String {
        let r = try HelsinkiServer.get(target)
        #expect(r.status == .badRequest, "\(target)")
        return ((try ServerFixture.json(r))["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    @Test func structuredSearchMatchesFieldByField() throws {
        let found = try places("/search?street=Mannerheimintie%205&city=Helsinki&format=jsonv2&addressdetails=1")
        let address = try #require(found.first?["address"] as? [String: String])
        #expect(address["road"] == "Mannerheimintie" && address["house_number"] == "5")
        // A city the street is not in matches nothing.
        #expect(try places("/search?street=Mannerheimintie%205&city=Turku&format=jsonv2").isEmpty)
        #expect(try refusal("/search?q=x&street=Mannerheimintie").contains("cannot be used together with 'q'"))
    }

    @Test func autocompleteReadsTheLastWordAsAPrefix() throws {
        let typed = try places("/search?q=Mannerheimint&autocomplete=1&format=jsonv2&addressdetails=1")
        #expect((typed.first?["address"] as? [String: String])?["road"] == "Mannerheimintie")
        #expect(try refusal("/search?q=Mannerheimint&autocomplete=yes").contains("autocomplete"))
    }

    @Test func detailsAndFilters() throws {
        let cafe = try #require(try places("/search?q=stockmann&format=jsonv2&extratags=1&namedetails=1").first)
        #expect(cafe["extratags"] is [String: String])
        #expect((cafe["namedetails"] as? [String: String])?["name"] != nil)
        #expect(try places("/search?q=stockmann&countrycodes=se&format=json").isEmpty)
        #expect(!(try places("/search?q=stockmann&countrycodes=se,fi&format=json")).isEmpty)
        #expect(try refusal("/search?q=stockmann&countrycodes=fin").contains("countrycodes"))
        let pois = try places("/search?q=mannerheimintie&layer=poi&format=jsonv2")
        #expect(!pois.isEmpty && pois.allSatisfy { ($0["category"] as? String) != "place" && ($0["category"] as? String) != "highway" })
        #expect(try refusal("/search?q=stockmann&layer=shops").contains("layer"))
        let first = try #require(try places("/search?q=stockmann&format=json").first?["place_id"] as? Int)
        let rest = try places("/search?q=stockmann&format=json&exclude_place_ids=\(first)")
        #expect(!rest.contains { $0["place_id"] as? Int == first })
        #expect(try refusal("/search?q=helsinki&featureType=town").contains("featureType"))
        #expect(try places("/search?q=kluuvi&featureType=city&format=jsonv2").allSatisfy { $0["category"] as? String == "place" })
    }

    @Test("outputs Wayfinder does not make are refused by name", arguments: ["polygon_geojson=1", "polygon_kml=1", "json_callback=f", "debug=1"])
    func refused(parameter: String) throws {
        let name = String(parameter.split(separator: "=")[0])
        #expect(try refusal("/search?q=stockmann&format=json&\(parameter)").contains(name))
        #expect(try refusal("/reverse?lat=60.1681&lon=24.9440&format=json&\(parameter)").contains(name))
        #expect(try HelsinkiServer.get("/search?q=stockmann&format=json&polygon_geojson=0").status == .ok)
    }

    @Test func reverseZoomLayerAndObjects() throws {
        let house = try ServerFixture.json(try HelsinkiServer.get("/reverse?lat=60.1681&lon=24.9440&format=jsonv2"))
        #expect(house["place_rank"] as? Int == 30)
        let street = try ServerFixture.json(try HelsinkiServer.get("/reverse?lat=60.1681&lon=24.9440&format=jsonv2&zoom=17"))
        #expect(street["category"] as? String == "highway")
        let poi = try ServerFixture.json(try HelsinkiServer.get("/reverse?lat=60.1681&lon=24.9440&format=jsonv2&layer=poi"))
        #expect(poi["category"] as? String != "place" && poi["category"] as? String != "highway")
        #expect(try refusal("/reverse?lat=60.1681&lon=24.9440&format=json&zoom=19").contains("zoom"))
        let type = try #require(house["osm_type"] as? String), id = try #require(house["osm_id"] as? Int)
        let same = try ServerFixture.json(try HelsinkiServer.get("/reverse?osm_type=\(type.prefix(1).uppercased())&osm_id=\(id)&format=jsonv2"))
        #expect(same["osm_id"] as? Int == id)
    }

    @Test func reverseAtAPOIWithItsOwnAddressAnswersWithThePOI() throws {
        // Ravintola Kaisaniemi (node 59631978) carries Kaisaniementie 5: Nominatim answers with the restaurant.
        let r = try ServerFixture.json(try HelsinkiServer.get("/reverse?lat=60.1767036&lon=24.9415459&format=jsonv2"))
        #expect(r["osm_id"] as? Int == 59631978)
        #expect(r["category"] as? String == "amenity" && r["type"] as? String == "restaurant")
        #expect(r["name"] as? String == "Ravintola Kaisaniemi")
        #expect((r["address"] as? [String: Any])?["house_number"] as? String == "5")
        let address = try ServerFixture.json(try HelsinkiServer.get("/reverse?lat=60.1767036&lon=24.9415459&format=jsonv2&layer=address"))
        #expect(address["category"] as? String == "place")
    }

    @Test func acceptLanguageNamesTheAddressPartsAsWell() throws {
        // Aleksanterinkatu 25 lies in Kaartinkaupunki, Helsinki: in Swedish Gardesstaden, Helsingfors (as Nominatim says).
        let sv = try #require(try places("/search?q=Aleksanterinkatu%2025&format=jsonv2&addressdetails=1&accept-language=sv").first)
        let address = try #require(sv["address"] as? [String: String])
        #expect(address["road"] == "Alexandersgatan" && address["suburb"] == "Gardesstaden" && address["city"] == "Helsingfors")
        #expect((sv["display_name"] as? String)?.contains("Gardesstaden, Helsingfors") == true)
        let fi = try #require(try places("/search?q=Aleksanterinkatu%2025&format=jsonv2&addressdetails=1").first)
        #expect((fi["address"] as? [String: String])?["city"] == "Helsinki")
        let reverse = try ServerFixture.json(try HelsinkiServer.get("/reverse?lat=60.1678805&lon=24.9425998&format=jsonv2&accept-language=sv"))
        #expect((reverse["address"] as? [String: String])?["suburb"] == "Gardesstaden")
        #expect((reverse["address"] as? [String: String])?["city"] == "Helsingfors")
        // TomTom's `language` names the municipality and its subdivision the same way.
        let tomTom = try ServerFixture.json(try HelsinkiServer.get("/search/2/search/Aleksanterinkatu%2025.json?language=sv-SE"))
        let tomTomAddress = try #require(((tomTom["results"] as? [[String: Any]])?.first)?["address"] as? [String: Any])
        #expect(tomTomAddress["municipality"] as? String == "Helsingfors")
        #expect(tomTomAddress["municipalitySubdivision"] as? String == "Gardesstaden")
    }

    @Test func photonAnswersInItsOwnShape() throws {
        let body = try ServerFixture.json(try HelsinkiServer.get("/api?q=Stockm&lat=60.1681&lon=24.9440&location_bias_scale=0.1&zoom=16"))
        #expect(body["type"] as? String == "FeatureCollection")
        let feature = try #require((body["features"] as? [[String: Any]])?.first)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect((properties["name"] as? String)?.lowercased().hasPrefix("stockm") == true)
        #expect(properties["osm_key"] is String && properties["osm_type"] is String && properties["type"] is String)
        #expect(((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])?.count == 2)
        let houses = try ServerFixture.json(try HelsinkiServer.get("/api?q=Mannerheimintie%201&layer=house"))
        #expect((houses["features"] as? [[String: Any]])?.allSatisfy { ($0["properties"] as? [String: Any])?["type"] as? String == "house" } == true)
        let noShops = try ServerFixture.json(try HelsinkiServer.get("/api?q=Stockm&osm_tag=!shop"))
        #expect((noShops["features"] as? [[String: Any]])?.contains { ($0["properties"] as? [String: Any])?["osm_key"] as? String == "shop" } == false)
        let missing = try HelsinkiServer.get("/api")
        #expect(missing.status == .badRequest)
        #expect((try ServerFixture.json(missing))["message"] is String)
        #expect(try HelsinkiServer.get("/api?q=x&location_bias_scale=2").status == .badRequest)
    }

    @Test func tomTomReverseParameters() throws {
        let body = try ServerFixture.json(try HelsinkiServer.get(
            "/search/2/reverseGeocode/60.1681,24.9440.json?returnSpeedLimit=true&returnRoadUse=true&returnMatchType=true"))
        let first = try #require((body["addresses"] as? [[String: Any]])?.first)
        #expect(first["matchType"] is String)
        #expect((first["roadUse"] as? [String])?.isEmpty == false)
        let area = try ServerFixture.json(try HelsinkiServer.get("/search/2/reverseGeocode/60.1681,24.9440.json?entityType=Municipality"))
        let municipality = try #require((area["addresses"] as? [[String: Any]])?.first)
        #expect(municipality["entityType"] as? String == "Municipality")
        let numbered = try ServerFixture.json(try HelsinkiServer.get("/search/2/reverseGeocode/60.1681,24.9440.json?number=3"))
        let placed = try #require((numbered["addresses"] as? [[String: Any]])?.first)
        #expect((placed["address"] as? [String: Any])?["streetNumber"] as? String == "3")
        #expect(placed["sideOfStreet"] is String)
        #expect(try HelsinkiServer.get("/search/2/reverseGeocode/60.1681,24.9440.json?entityType=Planet").status == .badRequest)
        #expect(try HelsinkiServer.get("/search/2/reverseGeocode/60.1681,24.9440.json?roadUse=Highway").status == .badRequest)
    }

    @Test func photonTagFiltersReadAsPhotonDoes() {
        func keeps(_ filter: String, _ key: String, _ value: String) -> Bool {
            PhotonTagFilter(filter)?.accepts(key: key, value: value) ?? false
        }
        #expect(keeps("tourism", "tourism", "museum") && !keeps("tourism", "amenity", "cafe"))
        #expect(keeps("tourism:museum", "tourism", "museum") && !keeps("tourism:museum", "tourism", "hotel"))
        #expect(keeps(":museum", "tourism", "museum"))
        #expect(!keeps("!tourism", "tourism", "museum") && keeps("!tourism", "amenity", "cafe"))
        #expect(!keeps("!tourism:museum", "tourism", "museum") && keeps("!tourism:museum", "tourism", "hotel"))
        #expect(keeps("tourism:!museum", "tourism", "hotel") && !keeps("tourism:!museum", "tourism", "museum")
                && !keeps("tourism:!museum", "amenity", "cafe"))
        #expect(PhotonTagFilter("") == nil && PhotonTagFilter("!a:!b") == nil)
    }
}
