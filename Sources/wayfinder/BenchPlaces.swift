import Foundation
import Dataset
import DatasetImport
import GeoCore
import MapsAPI
import MapsService
import Places
import RoadNetwork
import OSMPBF

/// `wayfinder bench places`: the places index of one extract — build time and size, typeahead
/// and reverse-geocoding latency, and search along routes of increasing length.
///
/// Everything is drawn from the extract itself (seeded), so it runs on any map: typeahead types
/// every prefix (3+ characters) of addresses and names found by reverse geocoding random points;
/// along-route searches restaurants, cafés and fuel within a 10-minute detour on car routes
/// bucketed by length.
enum BenchPlaces {
    static func run(extract: String, queries: Int, seed: UInt64) throws -> [String: Any] {
        let output = NSTemporaryDirectory() + "wayfinder-bench-places-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var options = DatasetImporter.Options(extractPath: extract, outputPath: output)
        options.profiles = [.car]
        let summary = try DatasetImporter(options: options).run()
        let service = try Commands.openService(output)
        let placesFile = service.dataset.dataFile(DatasetLayout.placesFileName)
        let indexBytes = (try? FileManager.default.attributesOfItem(atPath: placesFile)[.size] as? Int) ?? 0
        let box = service.dataset.manifest.boundingBox
        var rng = SplitMix64(seed: seed)
        func randomPoint() -> Coordinate {
            let u = Double(rng.next() % 1_000_000) / 1_000_000, v = Double(rng.next() % 1_000_000) / 1_000_000
            return Coordinate(latitude: box[1] + (box[3] - box[1]) * u, longitude: box[0] + (box[2] - box[0]) * v)
        }

        // Reverse geocoding at random points of the extract's box (many fall in the sea or fields).
        var reverse: [Double] = []
        var phrases: [String] = []
        var found = 0
        for _ in 0..<queries {
            let point = randomPoint()
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try? service.reverseGeocodeResult(ReverseGeocodeQuery(position: point))
            reverse.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            guard let result = result ?? nil else { continue }
            found += 1
            if phrases.count < 60, let text = result.place.address.streetNameAndNumber { phrases.append(text) }
        }
        // Named places too: what a user types most.
        for category in ["restaurant", "cafe", "supermarket", "pharmacy"] where phrases.count < 100 {
            let places = (try? service.searchPlaces(PlaceSearchQuery(text: "", categories: [category], limit: 10))) ?? []
            phrases += places.map(\.name).filter { $0.count >= 3 }
        }
        var prefixes: [String] = []
        for phrase in phrases where phrase.count >= 3 {
            for n in 3...min(phrase.count, 24) { prefixes.append(String(phrase.prefix(n))) }
        }
        let center = Coordinate(latitude: (box[1] + box[3]) / 2, longitude: (box[0] + box[2]) / 2)
        var typeahead: [Double] = []
        for prefix in prefixes {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try? service.searchPlaces(PlaceSearchQuery(text: prefix, typeahead: true, bias: center, limit: 10))
            typeahead.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }

        // Along-route: random car routes, bucketed by length; each bucket gets up to 20 routes.
        let buckets: [(name: String, range: ClosedRange<Double>)] = [("2km", 1_500...2_500), ("5km", 4_000...6_000),
                                                                     ("10km", 8_500...11_500), ("20km", 17_000...23_000)]
        var alongRoute: [String: [Double]] = [:]
        var resultCounts: [String: Int] = [:]
        let graph = try service.dataset.graph(.car)
        var attempts = 0
        while attempts < 4_000 && buckets.contains(where: { (alongRoute[$0.name]?.count ?? 0) < 20 }) {
            attempts += 1
            let a = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
            let b = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
            let crow = Geodesy.distanceMeters(a, b)
            guard crow > 1_000, crow < 25_000 else { continue }
            var routeQuery = RouteQuery(waypoints: [a, b], mode: .car)
            routeQuery.representation = .polyline
            guard let route = try? service.calculateRoute(routeQuery), let first = route.routes.first else { continue }
            let length = Double(first.summary.lengthInMeters)
            guard let bucket = buckets.first(where: { $0.range.contains(length) }), (alongRoute[bucket.name]?.count ?? 0) < 20 else { continue }
            let points = first.legs.flatMap { $0.points ?? [] }.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            var q = MapsService.AlongRouteQuery(points: points, maxDetourSeconds: 600)
            q.categories = ["restaurant", "cafe", "fuel"]
            q.limit = 20
            let start = DispatchTime.now().uptimeNanoseconds
            let response = try? service.searchAlongRoute(q)
            alongRoute[bucket.name, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            resultCounts[bucket.name, default: 0] += response?.results.count ?? 0
        }
        var along: [String: Any] = [:]
        for bucket in buckets {
            guard let samples = alongRoute[bucket.name], !samples.isEmpty else { continue }
            along[bucket.name] = ["routes": samples.count, "latencyMs": BenchCommand.percentiles(samples),
                                  "meanResults": BenchCommand.round3(Double(resultCounts[bucket.name] ?? 0) / Double(samples.count))]
        }
        let placeStage = summary.stages.first { $0.name == "places" }?.seconds ?? 0
        return [
            "extract": (extract as NSString).lastPathComponent,
            "index": ["buildSeconds": BenchCommand.round3(placeStage), "megabytes": BenchCommand.round3(Double(indexBytes) / 1_048_576)],
            "reverse": ["queries": reverse.count, "foundFraction": BenchCommand.round3(Double(found) / Double(max(1, reverse.count))),
                        "latencyMs": BenchCommand.percentiles(reverse)],
            "typeahead": ["queries": typeahead.count, "latencyMs": BenchCommand.percentiles(typeahead)],
            "alongRoute": ["categories": "restaurant,cafe,fuel", "maxDetourSeconds": 600, "byRouteLength": along],
        ]
    }
}

extension BenchPlaces {
    /// Builds only the places index of `extract` into a temporary file: what that import stage costs alone.
    static func buildIndex(extract: String) throws -> [String: Any] {
        let path = NSTemporaryDirectory() + "wayfinder-bench-places-index-\(getpid()).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try PBFReader(path: extract)
        let bar = ProgressBar(label: "places index")
        let builder = PlacesIndexBuilder(options: .init(sourceDescription: (extract as NSString).lastPathComponent))
        builder.progress = { step, fraction in bar.update(stage: "places", step: step, fraction: fraction) }
        let stats = try builder.build(from: reader, to: path)
        bar.finish()
        return [
            "extract": (extract as NSString).lastPathComponent,
            "seconds": BenchCommand.round3(stats.seconds),
            "megabytes": BenchCommand.round3(Double(stats.fileSizeBytes) / 1_048_576),
            "peakMemoryMB": DatasetImporter.peakMemoryBytes() >> 20,
            "counts": ["addresses": stats.addresses, "interpolated": stats.interpolatedAddresses, "streets": stats.streets,
                       "streetPieces": stats.streetPieces, "pois": stats.pois, "localities": stats.localities, "postcodes": stats.postcodes,
                       "boundaries": stats.boundaries, "outlines": stats.outlines,
                       "vocabularyTerms": stats.vocabularyTerms],
        ]
    }
}
