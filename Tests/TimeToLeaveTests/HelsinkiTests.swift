import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Dataset
import DatasetImport
@testable import TimeToLeave

/// On the Helsinki sample (with its places index): places given by name, and the benchmark.
@Suite(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"), .serialized, .timeLimit(.minutes(5)))
struct HelsinkiTests {
    /// Monday 2026-11-30 03:00 in Helsinki.
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))
    static let maps: MapsService? = {
        let dir = Fixtures.temporaryDirectory("wayfinder-ttl-helsinki")
        var options = DatasetImporter.Options(extractPath: Fixtures.helsinki, outputPath: dir.path)
        options.profiles = [.car, .pedestrian]
        guard (try? DatasetImporter(options: options).run()) != nil, let dataset = try? Dataset(path: dir.path) else { return nil }
        return try? MapsService(dataset: dataset, clock: { clock.now })
    }()

    @Test func placesByNameAreResolvedThroughTheGeocoder() throws {
        let maps = try #require(Self.maps)
        let watches = try WatchService(planning: maps.planning, places: maps.placeLookup, storePath: ":memory:")
        let arrive = RFC3339.format(Self.clock.now.addingTimeInterval(3600), in: maps.timeZone)
        let body = #"{"origin":{"query":"Kamppi"},"destination":"Senaatintori","arriveAt":"\#(arrive)","preparationTime":300}"#
        let request = try JSONDecoder().decode(WatchRequest.self, from: Data(body.utf8))
        let w = try watches.create(request)
        #expect(w.origin.query == "Kamppi")
        #expect(w.origin.name != nil)
        #expect(abs(w.origin.lat - 60.169) < 0.01 && abs(w.origin.lon - 24.93) < 0.02)
        #expect(w.destination.query == "Senaatintori")
        #expect((w.lengthInMeters ?? 0) > 500)
        do {
            _ = try watches.create(WatchRequest(origin: PlaceInput(query: "Xyzzyplugh"), destination: PlaceInput(text: "60.1695,24.9523"),
                                                arriveAt: arrive))
            Issue.record("a place that does not exist was accepted")
        } catch {
            #expect(error.code == .badInput)
            #expect(error.apiError.parameter == "origin")
        }
    }

    /// A small run of the benchmark (`wayfinder leave DIR --benchmark` runs 1,000 watches);
    /// WAYFINDER_TTL_BENCH=N runs N here and prints the JSON.
    @Test func benchmarkRuns() throws {
        let maps = try #require(Self.maps)
        let n = ProcessInfo.processInfo.environment["WAYFINDER_TTL_BENCH"].flatMap { Int($0) } ?? 40
        let folder = Fixtures.temporaryDirectory("wayfinder-ttl-bench").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try WatchBenchmark.run(planning: maps.planning, dataset: "helsinki", watchCount: n, queries: 40, measureSeconds: 0.2, storeFolder: folder)
        #expect(report.watches + report.watchesRefused == n)
        #expect(report.watches > n / 2)
        #expect(report.replanMillisecondsMean > 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
