import Foundation
import Dataset
import DatasetImport
import MapsService
import MapsAPI
import RoadExtract
import RoadNetwork
import Routing
import GeoCore

/// `wayfinder bench directions`: time-dependent queries, alternatives, and live-update costs.
enum BenchDirections {
    static func run(extract: String, queries: Int, seed: UInt64, output: String?) throws -> [String: Any] {
        let folder = output ?? NSTemporaryDirectory() + "wayfinder-bench-dir-\(getpid())"
        var options = DatasetImporter.Options(extractPath: extract, outputPath: folder)
        options.profiles = [.car]
        options.skipPlaces = true
        _ = try DatasetImporter(options: options).run()
        defer { if output == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let service = try Commands.openService(folder)
        let graph = try service.dataset.graph(.car)
        var rng = SplitMix64(seed: seed)
        var pairs: [(Coordinate, Coordinate)] = []
        for _ in 0..<queries {
            func point() -> Coordinate {
                var a = Int(rng.next() % UInt64(graph.arcCount))
                while !graph.arcFlags[a].contains(.largestComponent) { a = (a + 1) % graph.arcCount }
                return graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
            }
            pairs.append((point(), point()))
        }
        let monday8 = nextMondayEight(service)
        func measure(_ configure: (inout RouteQuery) -> Void) -> [String: Any] {
            var ms: [Double] = []
            var ok = 0
            for (a, b) in pairs {
                var q = RouteQuery(waypoints: [a, b], mode: .car)
                q.representation = .none
                configure(&q)
                let start = DispatchTime.now().uptimeNanoseconds
                if (try? service.calculateRoute(q)) != nil { ok += 1 }
                ms.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            return ["ok": ok, "latencyMs": BenchCommand.percentiles(ms)]
        }
        var report: [String: Any] = ["extract": (extract as NSString).lastPathComponent, "queries": queries, "seed": seed]
        report["leaveNow"] = measure { _ in }
        report["departAt"] = measure { $0.departAt = monday8 }
        report["arriveAt"] = measure { $0.arriveAt = monday8.addingTimeInterval(3600) }
        report["alternatives3"] = measure { $0.maxAlternatives = 3 }
        report["alternatives3DepartAt"] = measure { $0.maxAlternatives = 3; $0.departAt = monday8 }
        report["withInstructions"] = measure { $0.instructions = .text; $0.representation = .polyline }
        // Live updates: a share of all segments at 15 km/h (as ../shared/bench's speeds.csv).
        var updates: [String: Any] = [:]
        let keys = graph.segmentKeys
        for share in [0.01, 0.1, 1.0] {
            var lines = ""
            var r2 = SplitMix64(seed: seed &+ 7)
            for i in 0..<keys.count where share >= 1 || Double(r2.next() % 10_000) / 10_000 < share {
                lines += "\(keys.from(i)),\(keys.to(i)),15\n"
            }
            var timings: [Double] = []
            var last: TrafficUpdateReport?
            for _ in 0..<3 {
                service.trafficStore.clearLive()
                service.refreshTraffic(force: true)
                let start = DispatchTime.now().uptimeNanoseconds
                last = try service.applyTraffic(Array(lines.utf8), kind: .speeds, expiresInSeconds: 3600, source: "bench.csv")
                timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            updates["\(Int(share * 100))%"] = ["segments": last?.entries ?? 0, "totalMs": BenchCommand.percentiles(timings),
                                              "parseMs": BenchCommand.round3(last?.parseMilliseconds ?? 0),
                                              "applyMs": BenchCommand.round3(last?.applyMilliseconds ?? 0)]
        }
        service.trafficStore.clearLive()
        report["liveUpdate"] = updates
        return report
    }

    static func nextMondayEight(_ service: MapsService) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = service.timeZone
        let now = service.clock()
        var c = DateComponents()
        c.weekday = 2
        c.hour = 8
        return calendar.nextDate(after: now, matching: c, matchingPolicy: .nextTime) ?? now
    }
}
