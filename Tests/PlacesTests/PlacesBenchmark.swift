import Testing
import Foundation
import MapsTestSupport
import OSMPBF
import GeoCore
@testable import Places

/// Prints JSON with the index build time and size and the typeahead and reverse-geocoding latencies
/// (p50/p99) on the samples. A measurement, not an assertion; run alone for quiet numbers:
/// `swift test --build-path .build-places --filter PlacesBenchmark` (add `-c release` for release timings).
@Suite("Places benchmark", .serialized) struct PlacesBenchmark {
    static let helsinkiPhrases = ["Mannerheimintie 5", "Aleksanterinkatu 52", "Kaivokatu 1", "Kiasma", "Ateneum", "Stockmann",
                                  "Esplanadi", "Hotel Kämp", "Ravintola Pääposti", "Helsingin tuomiokirkko", "Unioninkatu 29",
                                  "Mikonkatu 18", "Rautatientori", "Lasipalatsi", "Kamppi", "Eteläranta 16", "Yrjönkatu 26",
                                  "Manerheimintie", "Stokmann", "restaurant"]
    static let monacoPhrases = ["Boulevard des Moulins", "Avenue Princesse Grace", "Casino de Monte Carlo", "Hôtel de Paris",
                                "Rue Grimaldi", "Port Hercule", "Fontvieille", "Boulevard du Larvotto", "Place du Casino",
                                "Avenue de la Costa 7", "Rue Princesse Caroline", "Musée Océanographique", "Jardin Exotique",
                                "Stade Louis II", "Esso", "Boulvard des Moulins", "Casino de Monte Carllo", "gas station",
                                "Quai Antoine 1er", "Monte-Carlo"]

    struct Report: Encodable {
        var dataset: String
        var configuration: String
        var buildSeconds: Double
        var indexBytes: Int
        var addresses: Int, streets: Int, pois: Int, localities: Int
        var typeahead: Latency
        var reverse: Latency
        var reverseFoundFraction: Double
    }

    struct Latency: Encodable {
        var queries: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
    }

    static func latency(_ samples: [Double]) -> Latency {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return ((sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) * 1_000).rounded() / 1_000
        }
        return Latency(queries: sorted.count, p50Milliseconds: percentile(0.5), p99Milliseconds: percentile(0.99),
                       maxMilliseconds: ((sorted.last ?? 0) * 1_000).rounded() / 1_000)
    }

    func run(name: String, pbf: String, phrases: [String], center: Coordinate) throws -> Report {
        let path = Fixtures.temporaryDirectory("places-bench").appendingPathComponent("places.sqlite").path
        let started = ContinuousClock.now
        let stats = try PlacesIndexBuilder().build(from: try PBFReader(path: pbf), to: path)
        let buildSeconds = (ContinuousClock.now - started).seconds
        let store = try SQLitePlaceStore(path: path)

        // Typeahead as the seed app sends it: every prefix of 3+ characters, biased to the user's position.
        var prefixes: [String] = []
        for phrase in phrases {
            for n in 3...phrase.count { prefixes.append(String(phrase.prefix(n))) }
        }
        for p in prefixes.prefix(20) { _ = try store.search(PlaceSearchQuery(text: p, typeahead: true, bias: center)) }
        var typeahead: [Double] = []
        for _ in 0..<3 {
            for p in prefixes {
                let t = ContinuousClock.now
                _ = try store.search(PlaceSearchQuery(text: p, typeahead: true, bias: center, limit: 10))
                typeahead.append((ContinuousClock.now - t).milliseconds)
            }
        }

        // Reverse geocoding at seeded random points inside the data.
        let box = try SampleIndexes.extent(path)
        var random = SplitMix64(seed: 20_261_129)
        var reverse: [Double] = []
        var found = 0
        for _ in 0..<2_000 {
            let lat = Int32.random(in: box.minLatitudeE7...box.maxLatitudeE7, using: &random)
            let lon = Int32.random(in: box.minLongitudeE7...box.maxLongitudeE7, using: &random)
            let t = ContinuousClock.now
            let r = try store.reverseGeocode(ReverseGeocodeQuery(position: Coordinate(latitudeE7: lat, longitudeE7: lon)))
            reverse.append((ContinuousClock.now - t).milliseconds)
            if r != nil { found += 1 }
        }
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        return Report(dataset: name, configuration: configuration, buildSeconds: (buildSeconds * 1_000).rounded() / 1_000,
                      indexBytes: stats.fileSizeBytes, addresses: stats.addresses, streets: stats.streets, pois: stats.pois,
                      localities: stats.localities, typeahead: Self.latency(typeahead), reverse: Self.latency(reverse),
                      reverseFoundFraction: Double(found) / Double(reverse.count))
    }

    @Test(.enabled(if: Fixtures.helsinkiAvailable && Fixtures.monacoAvailable)) func printLatencies() throws {
        let reports = [
            try run(name: "helsinki", pbf: Fixtures.helsinki, phrases: Self.helsinkiPhrases, center: Coordinate(latitude: 60.1699, longitude: 24.9384)),
            try run(name: "monaco", pbf: Fixtures.monaco, phrases: Self.monacoPhrases, center: Coordinate(latitude: 43.7384, longitude: 7.4246)),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for report in reports { print("PLACES_BENCHMARK " + String(decoding: try encoder.encode(report), as: UTF8.self)) }
    }
}
