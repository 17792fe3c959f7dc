import Foundation
import Dataset
import DatasetImport
import MapsService
import MapsAPI
import RoadExtract
import RoadNetwork
import Routing
import Traffic
import GeoCore
import BinaryIO

/// `wayfinder bench directions`: time-dependent queries, alternatives and live-update costs, in
/// process, measured the way an operator with full historical data would run them: a weekly
/// profile on every segment (a synthetic benchmark input, labelled as such in the report) plus a
/// live overlay, and departures spread over a weekday.
enum BenchDirections {
    struct Settings {
        var queries: Int
        var seed: UInt64
        /// False: free flow plus the defaults, no profile file and no live overlay.
        var profiles = true
        /// The measurements to make (nil: all of them).
        var only: Set<String>? = nil
        /// Keep the dataset here (and reuse it when it is already there) instead of a temporary folder.
        var datasetFolder: String? = nil
    }

    static let kinds = ["leaveNow", "departAt", "arriveAt", "departAtVia", "withInstructions", "alternatives3",
                        "alternatives3DepartAt", "alternatives3Via", "liveUpdate"]

    static func run(extract: String, settings: Settings) throws -> [String: Any] {
        let folder = settings.datasetFolder ?? NSTemporaryDirectory() + "wayfinder-bench-dir-\(getpid())"
        let reuse = settings.datasetFolder != nil && FileManager.default.fileExists(atPath: folder + "/manifest.json")
        var report: [String: Any] = ["extract": (extract as NSString).lastPathComponent, "queries": settings.queries, "seed": settings.seed]
        if !reuse {
            var options = DatasetImporter.Options(extractPath: extract, outputPath: folder)
            options.profiles = [.car]
            options.skipPlaces = true
            options.skipBaseMap = true
            let imported = Date()
            _ = try DatasetImporter(options: options).run()
            report["importSeconds"] = BenchCommand.round3(Date().timeIntervalSince(imported))
        }
        defer { if settings.datasetFolder == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let dataset = try Dataset(path: folder)
        var inputs: [String: Any] = [:]
        let store = TrafficStore(stateFolder: dataset.stateFolder)
        store.clearLive()
        // Speeds learned from an earlier run's live updates would become weekly profiles here.
        FileIO.remove(SpeedLearner.path(stateFolder: dataset.stateFolder))
        if settings.profiles && !(reuse && FileManager.default.fileExists(atPath: store.historicalPath)) {
            inputs["historical"] = try importSyntheticProfiles(dataset, seed: settings.seed)
        }
        // The clock stands at 06:00 on the coming Tuesday, so that the live overlay is in force for the
        // first departures and fades into the profiles over the first hour, as live data does.
        let tuesday = weekdayMorning(dataset.timeZone)
        let opened = Date()
        let service = try MapsService(dataset: dataset, clock: { tuesday })
        report["openSeconds"] = BenchCommand.round3(Date().timeIntervalSince(opened))
        let graph = try service.dataset.graph(.car)
        if settings.profiles {
            inputs["live"] = try applyLiveOverlay(service, graph: graph, seed: settings.seed)
        }
        inputs["clock"] = RFC3339.format(tuesday, in: dataset.timeZone)
        inputs["departures"] = "uniform over 06:00-22:00 of that Tuesday (arrivals for arrive-at likewise, one hour later)"
        report["inputs"] = inputs

        var rng = SplitMix64(seed: settings.seed)
        let trips = (0..<settings.queries).map { _ in
            Trip(from: randomPoint(graph, &rng), to: randomPoint(graph, &rng), via: randomPoint(graph, &rng),
                 departure: tuesday.addingTimeInterval(Double(rng.next() % (16 * 3600))))
        }
        func measure(_ configure: (inout RouteQuery, Trip) -> Void) -> Measurement {
            var m = Measurement()
            for trip in trips {
                var q = RouteQuery(waypoints: [trip.from, trip.to], mode: .car)
                q.representation = .none
                configure(&q, trip)
                m.wantsAlternatives = q.maxAlternatives > 0
                let before = service.planning.timeDependentStatistics(.car) ?? .init()
                let start = DispatchTime.now().uptimeNanoseconds, cpu = BenchDirections.threadCPUNanoseconds()
                let response = try? service.calculateRoute(q)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                m.add(ms, cpu: Double(BenchDirections.threadCPUNanoseconds() - cpu) / 1e6, response)
                let after = service.planning.timeDependentStatistics(.car) ?? .init()
                if after.searches > before.searches {
                    m.search.add(ms: ms, departureOffsetSeconds: trip.departure.timeIntervalSince(tuesday), response: response,
                                 stats: after - before)
                }
            }
            return m
        }
        let configurations: [String: (inout RouteQuery, Trip) -> Void] = [
            "leaveNow": { _, _ in },
            "departAt": { q, t in q.departAt = t.departure },
            "arriveAt": { q, t in q.arriveAt = t.departure.addingTimeInterval(3600) },
            "departAtVia": { q, t in q.waypoints = [t.from, t.via, t.to]; q.departAt = t.departure },
            "withInstructions": { q, _ in q.instructions = .text; q.representation = .polyline },
            "alternatives3": { q, _ in q.maxAlternatives = 3; q.representation = .polyline },
            "alternatives3DepartAt": { q, t in q.maxAlternatives = 3; q.departAt = t.departure; q.representation = .polyline },
            "alternatives3Via": { q, t in q.waypoints = [t.from, t.via, t.to]; q.maxAlternatives = 3; q.representation = .polyline },
        ]
        for kind in kinds where settings.only?.contains(kind) ?? true {
            if let configure = configurations[kind] {
                report[kind] = measure(configure).json
            }
        }
        if settings.only?.contains("liveUpdate") ?? true {
            report["liveUpdate"] = try liveUpdates(service, graph: graph, seed: settings.seed)
        }
        return report
    }

    struct Trip {
        var from: Coordinate, to: Coordinate, via: Coordinate
        var departure: Date
    }

    /// Latency percentiles and, for routes with alternatives, how many were found and how they
    /// compare with the main route (travel-time stretch, share of length on the main route).
    struct Measurement {
        var ms: [Double] = []
        /// The thread's CPU time per query: what the query costs without the time other processes
        /// took the core (the machine is shared; on a quiet one the two agree).
        var cpuMs: [Double] = []
        var ok = 0
        var wantsAlternatives = false
        var alternativeCounts: [Int] = []
        var stretch: [Double] = []
        var sharing: [Double] = []
        /// What the time-dependent searches of each query did.
        var search = BenchSearchStatistics()

        mutating func add(_ milliseconds: Double, cpu: Double, _ response: CalculateRouteResponse?) {
            ms.append(milliseconds)
            cpuMs.append(cpu)
            guard let routes = response?.routes, let main = routes.first else { return }
            ok += 1
            guard wantsAlternatives else { return }
            alternativeCounts.append(routes.count - 1)
            let mainSegments = segments(main)
            for alternative in routes.dropFirst() {
                stretch.append(Double(alternative.summary.travelTimeInSeconds) / Double(max(1, main.summary.travelTimeInSeconds)) - 1)
                sharing.append(sharedShare(alternative, with: mainSegments))
            }
        }

        var json: [String: Any] {
            var out: [String: Any] = ["ok": ok, "latencyMs": BenchCommand.percentiles(ms), "cpuMs": BenchCommand.percentiles(cpuMs)]
            if !search.rows.isEmpty { out["search"] = search.json }
            if !alternativeCounts.isEmpty {
                let found = alternativeCounts.reduce(0, +)
                out["alternatives"] = [
                    "found": found, "perQueryMean": BenchCommand.round3(Double(found) / Double(alternativeCounts.count)),
                    "queriesWithNone": alternativeCounts.filter { $0 == 0 }.count,
                    "stretch": BenchCommand.percentiles(stretch), "sharing": BenchCommand.percentiles(sharing),
                ]
            }
            return out
        }
    }

    /// A route's point pairs (rounded to about a centimetre), for measuring overlap.
    static func segments(_ route: RouteBody) -> Set<[Int32]> {
        var set = Set<[Int32]>()
        for leg in route.legs {
            let points = (leg.points ?? []).map { [Int32(($0.latitude * 1e7).rounded()), Int32(($0.longitude * 1e7).rounded())] }
            for (a, b) in zip(points, points.dropFirst()) { set.insert(a + b); set.insert(b + a) }
        }
        return set
    }

    /// The share of a route's length that runs on the given segments.
    static func sharedShare(_ route: RouteBody, with segments: Set<[Int32]>) -> Double {
        var shared = 0.0, total = 0.0
        for leg in route.legs {
            let points = leg.points ?? []
            for (a, b) in zip(points, points.dropFirst()) {
                let d = Geodesy.distanceMeters(Coordinate(latitude: a.latitude, longitude: a.longitude),
                                               Coordinate(latitude: b.latitude, longitude: b.longitude))
                total += d
                let key = [Int32((a.latitude * 1e7).rounded()), Int32((a.longitude * 1e7).rounded()),
                           Int32((b.latitude * 1e7).rounded()), Int32((b.longitude * 1e7).rounded())]
                if segments.contains(key) { shared += d }
            }
        }
        return total > 0 ? shared / total : 0
    }

    static func randomPoint(_ graph: RoadGraph, _ rng: inout SplitMix64) -> Coordinate {
        var a = Int(rng.next() % UInt64(graph.arcCount))
        while !graph.arcFlags[a].contains(.largestComponent) { a = (a + 1) % graph.arcCount }
        return graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
    }

    /// Writes the synthetic profile file for the dataset and imports it as an operator would.
    static func importSyntheticProfiles(_ dataset: Dataset, seed: UInt64) throws -> [String: Any] {
        let graph = try dataset.graph(.car)
        let path = dataset.stateFolder + "/synthetic-profiles.csv"
        let started = Date()
        let summary = try SyntheticSpeedProfiles.write(graph: graph, seed: seed, to: path)
        let written = Date()
        try TrafficStore(stateFolder: dataset.stateFolder).saveHistorical(try FileIO.readAll(path, limit: 1 << 34), source: "synthetic-profiles.csv")
        try? FileManager.default.removeItem(atPath: path)
        return ["what": "SYNTHETIC BENCHMARK INPUT (wayfinder generate --speed-profiles): 24 hourly speeds on every directed segment, 512 daily shapes",
                "lines": summary.lines, "fileMB": BenchCommand.round3(Double(summary.bytes) / 1_048_576),
                "maximumFactor": BenchCommand.round3(summary.maximumFactor),
                "generateSeconds": BenchCommand.round3(written.timeIntervalSince(started)),
                "validateAndSaveSeconds": BenchCommand.round3(Date().timeIntervalSince(written))]
    }

    /// 5 % of the segments at 25-110 % of their free-flow speed for two hours (a synthetic live feed).
    static func applyLiveOverlay(_ service: MapsService, graph: RoadGraph, seed: UInt64) throws -> [String: Any] {
        var rng = SplitMix64(seed: seed &+ 99)
        let keys = graph.segmentKeys
        var lines = ""
        for k in 0..<keys.count where rng.next() % 20 == 0 {
            let a = keys.arc[k].index
            let kmh = Double(graph.lengthCm(of: ArcID(a))) / 100 / (max(1, Double(graph.arcDurationMs[a])) / 1000) * 3.6
            let share = 0.25 + 0.85 * Double(rng.next() % 1000) / 1000
            lines += "\(keys.from(k)),\(keys.to(k)),\(max(1, Int((kmh * share).rounded())))\n"
        }
        let report = try service.applyTraffic(Array(lines.utf8), kind: .speeds, expiresInSeconds: 7200, source: "synthetic-live.csv")
        return ["what": "SYNTHETIC BENCHMARK INPUT: 5 % of segments at 25-110 % of free-flow speed, expiring in 2 h",
                "segments": report.entries, "applyMs": BenchCommand.round3(report.applyMilliseconds)]
    }

    /// Live updates of 1 %, 10 % and 100 % of the segments at 15 km/h (as ../shared/bench's
    /// speeds.csv), each on top of the overlay, three times each.
    static func liveUpdates(_ service: MapsService, graph: RoadGraph, seed: UInt64) throws -> [String: Any] {
        var updates: [String: Any] = [:]
        let keys = graph.segmentKeys
        for share in [0.01, 0.1, 1.0] {
            var lines = ""
            var r2 = SplitMix64(seed: seed &+ 7)
            for i in 0..<keys.count where share >= 1 || Double(r2.next() % 10_000) / 10_000 < share {
                lines += "\(keys.from(i)),\(keys.to(i)),15\n"
            }
            var timings: [Double] = [], cpu: [Double] = []
            var last: TrafficUpdateReport?
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds, startCPU = processCPUNanoseconds()
                last = try service.applyTraffic(Array(lines.utf8), kind: .speeds, expiresInSeconds: 3600, source: "bench.csv")
                timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                cpu.append(Double(processCPUNanoseconds() - startCPU) / 1e6)
                // Learning from the update runs in the background: it finishes before the next
                // timed update, so that each timing is the update's own work.
                service.planning.waitForLearning()
                if let id = last?.id { _ = service.trafficStore.remove(id: id) }
                service.refreshTraffic(force: true)
            }
            updates["\(Int(share * 100))%"] = ["segments": last?.entries ?? 0, "totalMs": BenchCommand.percentiles(timings),
                                              "processCpuMs": BenchCommand.percentiles(cpu),
                                              "parseMs": BenchCommand.round3(last?.parseMilliseconds ?? 0),
                                              "applyMs": BenchCommand.round3(last?.applyMilliseconds ?? 0)]
        }
        return updates
    }

    /// CPU time of the whole process (every thread).
    static func processCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// CPU time of the calling thread.
    static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// 06:00 local time on the coming Tuesday.
    static func weekdayMorning(_ zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var c = DateComponents()
        c.weekday = 3
        c.hour = 6
        return calendar.nextDate(after: Date(), matching: c, matchingPolicy: .nextTime) ?? Date()
    }
}
