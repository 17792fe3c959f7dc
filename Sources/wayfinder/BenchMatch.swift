import Foundation
import DatasetImport
import MapsService
import MapMatching
import RoutePlanning
import RoadNetwork
import GeoCore

/// `wayfinder bench match`: map matching accuracy on graded traces and its latency, in process.
///
/// Drives are car routes between random points (seed S) at the times the model gives them; each
/// is sampled every 1, 5, 15 and 30 s with Gaussian noise of σ = 5, 10 and 20 m per axis, 2 % of
/// fixes thrown 60–150 m off, and every other trace missing 45 s in the middle. The matcher is
/// told each fix's σ (as a client sends its GPS accuracy). Graded by the share of the true
/// route's length whose directed OSM segments the match drives, and the share of fixes matched
/// onto their true edge. Latency: 80-fix pieces of the traces, the whole in-process match
/// (candidates, Viterbi, paths and timing the legs).
enum BenchMatch {
    static let intervals: [Double] = [1, 5, 15, 30]
    static let noises: [Double] = [5, 10, 20]

    static func run(extract: String, drives count: Int, seed: UInt64, write: String?) throws -> [String: Any] {
        let folder = NSTemporaryDirectory() + "wayfinder-bench-match-\(getpid())"
        var options = DatasetImporter.Options(extractPath: extract, outputPath: folder)
        options.profiles = [.car]
        options.skipPlaces = true
        options.skipBaseMap = true
        _ = try DatasetImporter(options: options).run()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = try Commands.openService(folder)
        let planning = service.planning
        let graph = try service.dataset.graph(.car)
        var rng = SplitMix64(seed: seed)
        let drives = planning.randomDrives(count: count, minMeters: 1000, using: &rng)
        var table: [[String: Any]] = []
        var written: [[String: Any]] = []
        var shapes: [String: [[Double]]] = [:]
        var latency: [String: Any] = [:]
        for interval in intervals {
            for noise in noises {
                var simulation = TraceSimulation(intervalSeconds: interval, noiseMeters: noise)
                var hitLength = 0.0, totalLength = 0.0, rightPoints = 0.0, totalPoints = 0.0
                var times: [Double] = [], cpuTimes: [Double] = []
                for (d, drive) in drives.enumerated() {
                    simulation.gap = d % 2 == 1
                    let trace = simulation.trace(graph, drive: drive, start: 1_800_000_000, using: &rng)
                    guard trace.points.count >= 2 else { continue }
                    var parameters = MatchParameters()
                    parameters.defaultAccuracyMeters = noise
                    guard let outcome = planning.match(trace.points, mode: .car, parameters: parameters) else { continue }
                    let grade = MatchGrade(trace, result: MatchResult(matchings: outcome.stretches.map(\.matching), points: outcome.points), graph: graph)
                    let length = trace.trueSegments.values.reduce(0, +)
                    hitLength += grade.lengthShare * length; totalLength += length
                    rightPoints += grade.pointShare * Double(trace.points.count); totalPoints += Double(trace.points.count)
                    if noise == 10 && interval == 1 {
                        for start in stride(from: 0, to: trace.points.count - 79, by: 80) {
                            let piece = Array(trace.points[start..<(start + 80)])
                            let t0 = DispatchTime.now().uptimeNanoseconds
                            let c0 = threadCPUNanoseconds()
                            _ = planning.match(piece, mode: .car, parameters: parameters)
                            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                            cpuTimes.append(Double(threadCPUNanoseconds() - c0) / 1e6)
                        }
                    }
                    if write != nil { written.append(record(trace, interval: interval, noise: noise, graph: graph, shapes: &shapes)) }
                }
                table.append(["intervalSeconds": interval, "noiseMeters": noise,
                              "lengthShare": BenchCommand.round3(totalLength > 0 ? hitLength / totalLength : 0),
                              "pointShare": BenchCommand.round3(totalPoints > 0 ? rightPoints / totalPoints : 0)])
                if noise == 10 && interval == 1 { latency = ["traces": times.count, "sampling": "1 s, 10 m noise", "ms": BenchCommand.percentiles(times), "cpuMs": BenchCommand.percentiles(cpuTimes)] }
            }
        }
        if let write {
            let document: [String: Any] = ["traces": written, "edgeShapes": shapes]
            let data = try JSONSerialization.data(withJSONObject: document)
            try data.write(to: URL(fileURLWithPath: write + ".tmp"))
            try FileManager.default.moveItem(atPath: write + ".tmp", toPath: write)
        }
        let meters = drives.map { $0.reduce(0) { $0 + Double(graph.lengthCm(of: $1.arc)) / 100 * ($1.to - $1.from) } }
        return ["extract": (extract as NSString).lastPathComponent, "seed": seed, "drives": drives.count,
                "driveKm": BenchCommand.round3(meters.reduce(0, +) / 1000), "accuracy": table, "latency80Points": latency]
    }

    /// A trace and its truth for the side-by-side run (bench/match.py).
    static func record(_ trace: SimulatedTrace, interval: Double, noise: Double, graph: RoadGraph, shapes: inout [String: [[Double]]]) -> [String: Any] {
        for edge in Set(trace.trueEdges) where shapes[String(edge.index)] == nil {
            let e = edge.index
            shapes[String(e)] = graph.shapeCoordinates[Int(graph.edgeShapeStart[e])..<Int(graph.edgeShapeStart[e + 1])].map { [$0.longitude, $0.latitude] }
        }
        return ["intervalSeconds": interval, "noiseMeters": noise,
                "points": trace.points.map { [$0.coordinate.longitude, $0.coordinate.latitude, $0.time ?? 0] },
                "edges": trace.trueEdges.map(\.index),
                "segments": trace.trueSegments.map { [$0.key.from, $0.key.to, BenchCommand.round3($0.value)] as [Any] }]
    }
}

/// CPU time of the calling thread (not counting time the machine gave to other processes).
func threadCPUNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}
