import Testing
import Foundation
import MapsTestSupport
import MapsAPI
import MapsAPIMapping
import GeoCore
import Places

/// The Nominatim and TomTom answers JSONWriter writes against what JSONEncoder wrote for the same values, on
/// the Monaco sample's own places: the same JSON, and the same bytes where no address object changes order.
@Suite("Nominatim and TomTom JSON of real places", .enabled(if: Fixtures.monacoAvailable)) struct AnswerJSONTests {
    let places: [PlaceResult]

    init() throws {
        let store = try SampleIndexes.monaco.get().store
        var found: [PlaceResult] = []
        for text in ["Casino de Monte Carlo", "Hôtel de Paris", "Boulevard des Moulins", "Avenue", "Rue", "Monaco", "Monte-Carlo", "98000"] {
            found += try store.search(PlaceSearchQuery(text: text, limit: 40)).results
        }
        for (lat, lon) in [(43.7384, 7.4246), (43.7275, 7.4150), (43.7480, 7.4370)] {
            found += try store.nearby(NearbyQuery(center: Coordinate(latitude: lat, longitude: lon), radiusMeters: 1_500, limit: 100))
        }
        places = found
    }

    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func written(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter()
        write(&w)
        return w.bytes
    }

    static func same(_ a: [UInt8], _ b: [UInt8]) throws -> Bool {
        equal(try JSONSerialization.jsonObject(with: Data(a)), try JSONSerialization.jsonObject(with: Data(b)))
    }

    /// Decoded JSON values alike, whatever the order of object members.
    static func equal(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (x as [String: Any], y as [String: Any]): x.count == y.count && x.allSatisfy { k, v in y[k].map { equal(v, $0) } ?? false }
        case let (x as [Any], y as [Any]): x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case let (x as String, y as String): x == y
        case let (x as NSNumber, y as NSNumber): x == y
        case (is NSNull, is NSNull): true
        default: false
        }
    }

    static let detailSets = [NominatimDetails(), NominatimDetails(address: true), NominatimDetails(address: true, names: true, extraTags: true)]

    @Test func placesAsJSONAndJSONv2() throws {
        #expect(places.count > 300)
        #expect(places.contains { !$0.otherNames.isEmpty } && places.contains { !$0.extraTags.isEmpty })
        for format in [NominatimFormat.json, .jsonv2] {
            for details in Self.detailSets {
                let shapes = places.map { $0.nominatimPlace(format: format, details: details) }
                let before = try Self.encoded(shapes)
                let after = Self.written { w in
                    w.beginArray()
                    for s in shapes { s.write(to: &w) }
                    w.endArray()
                }
                #expect(try Self.same(before, after), "\(format) \(details)")
                if !details.address { #expect(before == after, "\(format) \(details)") }
                let one = try #require(shapes.first)
                #expect(try Self.same(try Self.encoded(one), Self.written { one.write(to: &$0) }))
            }
        }
    }

    @Test func placesAsGeoJSON() throws {
        for details in Self.detailSets {
            let collection = NominatimFeatureCollection.nominatim(places, details: details)
            let before = try Self.encoded(collection)
            let after = Self.written { collection.write(to: &$0) }
            #expect(try Self.same(before, after), "\(details)")
            if !details.address { #expect(before == after, "\(details)") }
        }
    }

    @Test func addressPartsMostSpecificFirst() throws {
        let place = try #require(places.first { $0.address.houseNumber != nil && $0.address.streetName != nil })
        let text = String(decoding: Self.written { place.nominatimAddress().write(to: &$0) }, as: UTF8.self)
        let number = try #require(text.range(of: "\"house_number\"")), road = try #require(text.range(of: "\"road\""))
        let code = try #require(text.range(of: "\"country_code\""))
        #expect(number.lowerBound < road.lowerBound && road.lowerBound < code.lowerBound)
    }

    @Test func tomTomSearchEnvelope() throws {
        let start = Date(timeIntervalSince1970: 1_796_342_400)
        var response = PlaceSearchResponse(results: places, totalResults: places.count + 7, fuzzyLevel: 2, normalizedQuery: "rue")
            .tomTomResponse(query: "Rue", queryTimeMilliseconds: 3, offset: 0, bias: Coordinate(latitude: 43.7384, longitude: 7.4246),
                            language: "fr", openingHoursFrom: (start, TimeZone(identifier: "Europe/Monaco")!))
        #expect(response.results.contains { $0.poi?.openingHours != nil } && response.results.contains { $0.poi == nil })
        // The fields only some endpoints fill (entry points, address ranges, detours, reverse geocoding's address parts).
        let p = SearchPosition(lat: 43.7, lon: 7.4)
        response.results[0].entryPoints = [SearchEntryPoint(type: "main", functions: ["FrontDoor"], position: p), SearchEntryPoint(type: "minor", position: p)]
        response.results[0].addressRanges = SearchAddressRanges(rangeLeft: "1 - 9", rangeRight: nil, from: p, to: p)
        response.results[0].detourTime = -4
        response.results[0].detourDistance = 120
        response.results[0].detourOffset = 3_000
        response.results[0].address.boundingBox = ReverseGeocodeBoundingBox(northEast: "43.7,7.4", southWest: "43.6,7.3")
        response.results[0].address.routeNumbers = ["D6007"]
        response.results[0].address.speedLimit = "50.00KPH"
        response.results[0].address.street = "Rue \"Grimaldi\""
        response.results[0].address.streetNameAndNumber = "Rue Grimaldi 5"
        response.results[0].address.localName = "Monaco"
        #expect(try Self.encoded(response) == response.json)
        let empty = SearchResponse(summary: response.summary, results: [])
        #expect(try Self.encoded(empty) == empty.json)
    }

    @Test func notFound() throws {
        #expect(try Self.encoded(NominatimNotFound()) == Self.written { NominatimNotFound().write(to: &$0) })
    }
}
