import Foundation
public import RoutePlanning
import MapsAPI
import MapsAPIMapping
import GeoCore
import RoadNetwork

/// Measures what watches cost: one re-plan, re-planning a thousand, and whether a thousand busy
/// watches slow routing for everyone else (`wayfinder leave DIR --benchmark` prints it as JSON).
public enum WatchBenchmark {
    public struct Latency: Codable, Sendable {
        public var queries: Int
        public var meanMilliseconds: Double
        public var p50Milliseconds: Double
        public var p95Milliseconds: Double
        public var maxMilliseconds: Double
    }

    public struct Report: Codable, Sendable {
        public var dataset: String
        public var watches: Int
        public var watchesRefused: Int
        /// Creating one watch (geocoding skipped: coordinates), including its first plan and storing it.
        public var createMillisecondsMean: Double
        /// One re-plan (routing only), over every watch.
        public var replanMillisecondsMean: Double
        public var replanMillisecondsP95: Double
        /// Re-planning every watch once through `tick()` (routing, events, SQLite), one thread.
        public var replanAllSeconds: Double
        /// The share of one core that re-planning every watch each `replanIntervalSeconds` takes.
        public var steadyStateCoreShare: Double
        public var replanIntervalSeconds: Double
        /// Routes (leave now, car) with no watches, repeated for `measureSeconds`.
        public var routeLatencyWithoutWatches: Latency
        /// The same routes while the watch loop re-plans all watches back to back (its worst case).
        public var routeLatencyWithWatches: Latency
        public var replansDuringMeasurement: Int
        public var storeBytes: Int
        public var cores: Int
    }

    /// Runs the measurement on `planning` (car graph) with watches stored under `storeFolder`;
    /// `dataset` names it in the report.
    public static func run(planning: PlanningEngine, dataset: String, watchCount: Int = 1000, queries: Int = 300, seed: UInt64 = 7,
                           measureSeconds: Double = 3, storeFolder: String) throws -> Report {
        guard let graph = planning.graph(.car) else { throw WatchStoreError("the benchmark needs a car graph") }
        var rng = SplitMix64(seed: seed)
        func point() -> Coordinate {
            var a = Int(rng.next() % UInt64(graph.arcCount))
            var tries = 0
            while !graph.arcFlags[a].contains(.largestComponent) && tries < graph.arcCount { a = (a + 1) % graph.arcCount; tries += 1 }
            return graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
        }
        let routePairs = (0..<queries).map { _ in (point(), point()) }
        /// The route queries, over and over for at least `seconds` (and at least once each).
        func measureRoutes(seconds: Double) -> Latency {
            var ms: [Double] = []
            let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
            repeat {
                for (a, b) in routePairs {
                    let start = DispatchTime.now().uptimeNanoseconds
                    // A route as a client gets it: planned, and made into its document.
                    if let plan = planning.plan(PlanRequest(waypoints: [a, b], mode: .car)).plan {
                        _ = CalculateRouteResponse(plan, graph: graph, timeZone: planning.timeZone, options: RouteDocumentOptions())
                    }
                    ms.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
            } while DispatchTime.now().uptimeNanoseconds < end
            return latency(ms)
        }
        _ = measureRoutes(seconds: 0)  // warm caches
        let idle = measureRoutes(seconds: measureSeconds)

        // Watches that are always due, re-planned by the loop as fast as its bounds allow.
        var stress = WatchConfiguration()
        stress.replanIntervalSeconds = 0
        stress.tickIntervalSeconds = 0.002
        try FileManager.default.createDirectory(atPath: storeFolder, withIntermediateDirectories: true)
        let storePath = storeFolder + "/timetoleave-benchmark.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
        let service = try WatchService(planning: planning, places: nil, configuration: stress, storePath: storePath)
        let now = planning.clock()
        var createMs: [Double] = []
        var refused = 0
        for _ in 0..<watchCount {
            let (a, b) = (point(), point())
            let arrive = now.addingTimeInterval(3600 + Double(rng.next() % 7200))
            let request = WatchRequest(origin: PlaceInput(lat: a.latitude, lon: a.longitude), destination: PlaceInput(lat: b.latitude, lon: b.longitude),
                                       arriveAt: RFC3339.format(arrive, in: planning.timeZone), preparationTime: 600)
            let start = DispatchTime.now().uptimeNanoseconds
            if (try? service.create(request)) == nil { refused += 1 }
            createMs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }

        // One re-plan, routing only.
        let planner = WatchPlanner(planning: planning, thresholdSeconds: stress.thresholdSeconds)
        let entries = service.registrySnapshot()
        var replanMs: [Double] = []
        for e in entries {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = planner.evaluate(e.record.spec, current: e.record.plan, now: planning.clock().timeIntervalSince1970)
            replanMs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }

        // Every watch once through ticks (bounded per tick, as in service).
        let before = service.totalPlans()
        let allStart = DispatchTime.now().uptimeNanoseconds
        while service.totalPlans() - before < entries.count { service.tick() }
        let allSeconds = Double(DispatchTime.now().uptimeNanoseconds - allStart) / 1e9

        // Routing while the loop re-plans back to back.
        service.start()
        Thread.sleep(forTimeInterval: 0.2)
        let plansBefore = service.totalPlans()
        let busy = measureRoutes(seconds: measureSeconds)
        let plansDuring = service.totalPlans() - plansBefore
        service.stop()

        let mean = replanMs.reduce(0, +) / Double(max(1, replanMs.count))
        return Report(dataset: dataset, watches: entries.count, watchesRefused: refused,
                      createMillisecondsMean: round3(createMs.reduce(0, +) / Double(max(1, createMs.count))),
                      replanMillisecondsMean: round3(mean), replanMillisecondsP95: round3(percentile(replanMs, 0.95)),
                      replanAllSeconds: round3(allSeconds),
                      steadyStateCoreShare: round3(allSeconds / WatchConfiguration().replanIntervalSeconds),
                      replanIntervalSeconds: WatchConfiguration().replanIntervalSeconds,
                      routeLatencyWithoutWatches: idle, routeLatencyWithWatches: busy, replansDuringMeasurement: plansDuring,
                      storeBytes: service.storeBytes, cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    static func latency(_ ms: [Double]) -> Latency {
        Latency(queries: ms.count, meanMilliseconds: round3(ms.reduce(0, +) / Double(max(1, ms.count))),
                p50Milliseconds: round3(percentile(ms, 0.5)), p95Milliseconds: round3(percentile(ms, 0.95)),
                maxMilliseconds: round3(ms.max() ?? 0))
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func round3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}

extension WatchService {
    /// Every entry as it stands (benchmarks and tests).
    func registrySnapshot() -> [WatchRegistry.Entry] { registryEntries() }

    /// Plans made so far over all watches.
    func totalPlans() -> Int { registryEntries().reduce(0) { $0 + $1.record.planCount } }

    var storeBytes: Int { storeFileBytes }
}
