import Testing
import Foundation
import GeoCore
import MapsAPI
@testable import MapsAPIMapping
import Places

@Suite("TomTom and Nominatim shapes") struct MappingTests {
    let restaurant = PlaceResult(
        id: 42, kind: .poi, osmType: .node, osmID: 123, name: "Ravintola Töölö", categories: ["restaurant"],
        address: PlaceAddress(houseNumber: "5", streetName: "Mannerheimintie", postcode: "00100", municipality: "Helsinki",
                              municipalitySubdivision: "Kluuvi", countryCode: "FI"),
        position: Coordinate(latitude: 60.1699, longitude: 24.9384), phone: "+358 9 123", website: "https://example.fi",
        brand: "Ravintolat Oy", osmKey: "amenity", osmValue: "restaurant", importance: 0.32, distanceMeters: 12.5, score: 1.7)

    func json(_ value: some Encodable) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JSONSerialization.jsonObject(with: encoder.encode(value)) as! [String: Any]
    }

    @Test func searchEnvelope() throws {
        let response = PlaceSearchResponse(results: [restaurant], totalResults: 1, fuzzyLevel: 1, normalizedQuery: "ravintola")
            .tomTomResponse(query: "Ravintola", queryTimeMilliseconds: 3, offset: 0, bias: Coordinate(latitude: 60.17, longitude: 24.94))
        let body = try json(response)
        let summary = try #require(body["summary"] as? [String: Any])
        #expect(summary["queryType"] as? String == "NEARBY")
        #expect(summary["numResults"] as? Int == 1)
        #expect((summary["geoBias"] as? [String: Any])?["lat"] as? Double == 60.17)
        let result = try #require((body["results"] as? [[String: Any]])?.first)
        #expect(result["type"] as? String == "POI")
        #expect(result["id"] as? String == "N123:poi")
        #expect(result["dist"] as? Double == 12.5)
        let poi = try #require(result["poi"] as? [String: Any])
        #expect(poi["name"] as? String == "Ravintola Töölö")
        #expect(poi["phone"] as? String == "+358 9 123")
        #expect(poi["url"] as? String == "https://example.fi")
        #expect((poi["categorySet"] as? [[String: Int]])?.first?["id"] == 7315)
        #expect(poi["categories"] as? [String] == ["restaurant"])
        #expect(((poi["classifications"] as? [[String: Any]])?.first?["code"]) as? String == "RESTAURANT")
        #expect((poi["brands"] as? [[String: String]])?.first?["name"] == "Ravintolat Oy")
        let address = try #require(result["address"] as? [String: Any])
        #expect(address["freeformAddress"] as? String == "Mannerheimintie 5, 00100 Helsinki")
        #expect(address["streetNumber"] as? String == "5")
        #expect(address["municipality"] as? String == "Helsinki")
        #expect(address["countryCodeISO3"] as? String == "FIN")
        let position = try #require(result["position"] as? [String: Double])
        #expect(position["lat"] == 60.1699 && position["lon"] == 24.9384)
        #expect(result["viewport"] is [String: Any])
        #expect(result["detourTime"] == nil)
    }

    @Test func emptySearchStillHasResultsArray() throws {
        let body = try json(PlaceSearchResponse.empty.tomTomResponse(query: "x", queryTimeMilliseconds: 0, offset: 0))
        #expect((body["results"] as? [Any])?.isEmpty == true)
        #expect((body["summary"] as? [String: Any])?["queryType"] as? String == "NON_NEAR")
    }

    @Test func reverseEnvelopeUsesAStringPosition() throws {
        var address = restaurant
        address.kind = .address
        address.name = "Mannerheimintie 5"
        let result = ReverseGeocodeResult(matchType: .addressPoint, place: address, distanceMeters: 3)
        let body = try json(ReverseGeocodeResponse.tomTom(result, queryTimeMilliseconds: 2, extras: ReverseGeocodeExtras(matchType: true)))
        let first = try #require((body["addresses"] as? [[String: Any]])?.first)
        #expect(first["position"] as? String == "60.169900,24.938400")
        #expect(first["matchType"] as? String == "AddressPoint")
        let a = try #require(first["address"] as? [String: Any])
        #expect(a["streetNameAndNumber"] as? String == "Mannerheimintie 5")
        #expect(a["freeformAddress"] as? String == "Mannerheimintie 5, 00100 Helsinki")
        #expect(((a["boundingBox"] as? [String: String])?["northEast"])?.contains(",") == true)
        let empty = try json(ReverseGeocodeResponse.tomTom(nil, queryTimeMilliseconds: 1))
        #expect((empty["addresses"] as? [Any])?.isEmpty == true)
        #expect((empty["summary"] as? [String: Int])?["numResults"] == 0)
    }

    @Test func nominatimJSONAndJSONV2() throws {
        let v2 = try json(restaurant.nominatimPlace(format: .jsonv2, details: NominatimDetails(address: true)))
        #expect(v2["category"] as? String == "amenity")
        #expect(v2["class"] == nil)
        #expect(v2["lat"] as? String == "60.1699000")
        #expect(v2["lon"] as? String == "24.9384000")
        #expect(v2["osm_type"] as? String == "node")
        #expect(v2["place_rank"] as? Int == 30)
        #expect((v2["boundingbox"] as? [String])?.count == 4)
        #expect(v2["display_name"] as? String == "Ravintola Töölö, 5, Mannerheimintie, Kluuvi, Helsinki, 00100, Finland")
        let address = try #require(v2["address"] as? [String: String])
        #expect(address["road"] == "Mannerheimintie" && address["house_number"] == "5" && address["country_code"] == "fi")
        let v1 = try json(restaurant.nominatimPlace(format: .json))
        #expect(v1["class"] as? String == "amenity")
        #expect(v1["category"] == nil)
        #expect(v1["address"] == nil)
        let decoded = try JSONDecoder().decode(NominatimPlace.self, from: JSONEncoder().encode(restaurant.nominatimPlace(format: .json)))
        #expect(decoded.osmClass == "amenity" && decoded.format == .json)
    }

    @Test func nominatimGeoJSON() throws {
        let body = try json(NominatimFeatureCollection.nominatim([restaurant]))
        #expect(body["type"] as? String == "FeatureCollection")
        let feature = try #require((body["features"] as? [[String: Any]])?.first)
        #expect((feature["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect(((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])?.first == 24.9384)
        #expect((feature["bbox"] as? [Double])?.count == 4)
        #expect((feature["properties"] as? [String: Any])?["category"] as? String == "amenity")
        #expect(try json(NominatimNotFound())["error"] as? String == "Unable to geocode")
    }

    @Test func categoriesListing() throws {
        let body = try json(CategoryTaxonomy.standard.tomTomCategories())
        let list = try #require(body["poiCategories"] as? [[String: Any]])
        let petrol = try #require(list.first { $0["id"] as? Int == 7311 })
        #expect(petrol["name"] as? String == "Petrol Station")
        #expect((petrol["synonyms"] as? [String])?.contains("gas station") == true)
        #expect(petrol["childCategoryIds"] is [Int])
    }

    @Test func searchErrorHasBothVariants() throws {
        let body = try json(SearchErrorResponse(message: "Invalid position", target: "position"))
        #expect(body["errorText"] as? String == "Invalid position" && body["error"] as? String == "Invalid position")
        #expect(body["httpStatusCode"] as? Int == 400)
        #expect((body["detailedError"] as? [String: String])?["code"] == "BadRequest")
    }
}
