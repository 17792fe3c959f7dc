import Foundation
import Dataset
import DatasetImport
import MapsService
import MapsAPI
import RoadNetwork
import RoutePlanning
import GeoCore

/// `wayfinder bench reach`: isochrones (static, depart-at, arrive-by) and matrices (static and
/// depart-at) in process, timed per phase, on random centres and points of the car network.
/// With `--write DIR` the centres, the polygons and the matrix points are written there, for the
/// comparison with Valhalla and OSRM (`bench/reach.py`). Each figure comes as wall time and as the
/// process's CPU time, which a loaded machine inflates far less.
///
/// Unless `profiles` is false, the dataset gets a weekly profile on every segment and a live
/// overlay first, as `bench directions` does (SYNTHETIC BENCHMARK INPUTS, labelled so in the
/// report): the time-dependent searches' worst case, where no arc takes a constant time. Their
/// departures (arrivals one hour later) are spread over 06:00-22:00 of a Tuesday, with the clock at
/// 06:00 so that the live overlay is in force for the first of them.
enum BenchReach {
    static func run(extract: String, queries: Int, seed: UInt64, minutes: [Double], matrixSizes: [Int], write: String?,
                    profiles: Bool = true) throws -> [String: Any] {
        let folder = NSTemporaryDirectory() + "wayfinder-bench-reach-\(getpid())"
        var options = DatasetImporter.Options(extractPath: extract, outputPath: folder)
        options.profiles = [.car]
        options.skipPlaces = true
        options.skipBaseMap = true
        let imported = try DatasetImporter(options: options).run()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var inputs: [String: Any] = [:]
        if profiles { inputs["historical"] = try BenchDirections.importSyntheticProfiles(try Dataset(path: folder), seed: seed) }
        let tuesday = BenchDirections.weekdayMorning(try Dataset(path: folder).timeZone)
        let service = try Commands.openService(folder, clock: { tuesday })
        let graph = try service.dataset.graph(.car)
        if profiles { inputs["live"] = try BenchDirections.applyLiveOverlay(service, graph: graph, seed: seed) }
        inputs["clock"] = RFC3339.format(tuesday, in: service.timeZone)
        inputs["departures"] = "uniform over 06:00-22:00 of that Tuesday, one per centre or matrix (arrivals for arrive-at one hour later)"
        var rng = SplitMix64(seed: seed)
        func point() -> Coordinate {
            var a = Int(rng.next() % UInt64(graph.arcCount))
            while !graph.arcFlags[a].contains(.largestComponent) { a = (a + 1) % graph.arcCount }
            return graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
        }
        func departure() -> Date { tuesday.addingTimeInterval(Double(rng.next() % (16 * 3600))) }
        let centres = (0..<queries).map { _ in (point(), departure()) }
        var report: [String: Any] = ["extract": (extract as NSString).lastPathComponent, "turnGraphNodes": graph.arcCount,
                                     "importSeconds": BenchCommand.round3(imported.seconds), "centres": queries, "seed": seed,
                                     "inputs": inputs]
        // Warm-up: the first reach customizes the measure.
        _ = try? service.reach(ReachQuery(origin: centres[0].0, levels: [600]))
        var isochrones: [String: Any] = [:]
        var written: [[String: Any]] = []
        for m in minutes {
            for (name, timing) in [("static", 0), ("departAt", 1), ("arriveAt", 2)] {
                var total: [Double] = [], cpu: [Double] = [], search: [Double] = [], contour: [Double] = [], arcs: [Double] = []
                for (i, (c, leaving)) in centres.enumerated() {
                    var q = ReachQuery(origin: c, levels: [m * 60])
                    if timing == 1 { q.departAt = leaving }
                    if timing == 2 { q.arriveAt = leaving.addingTimeInterval(3600) }
                    let start = DispatchTime.now().uptimeNanoseconds, cpuStart = Self.cpuMs()
                    guard let reach = try? service.reach(q) else { continue }
                    total.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    cpu.append(Self.cpuMs() - cpuStart)
                    search.append(reach.searchSeconds * 1000)
                    contour.append(reach.contourSeconds * 1000)
                    arcs.append(Double(reach.reachedArcs))
                    if write != nil && timing == 0 {
                        let rings = reach.contours[0].polygons.map { p in ([p.outer] + p.holes).map { ring in ring.map { [$0.longitude, $0.latitude] } } }
                        written.append(["centre": [c.longitude, c.latitude], "index": i, "minutes": m, "polygons": rings])
                    }
                }
                isochrones["\(Int(m))min.\(name)"] = ["totalMs": BenchCommand.percentiles(total), "cpuMs": BenchCommand.percentiles(cpu), "searchCpuMs": BenchCommand.percentiles(search),
                                                      "contourCpuMs": BenchCommand.percentiles(contour), "reachedArcs": BenchCommand.percentiles(arcs)]
            }
        }
        report["isochrones"] = isochrones
        var matrices: [String: Any] = [:]
        var matrixPoints: [String: Any] = [:]
        for n in matrixSizes {
            let points = (0..<n).map { _ in point() }
            matrixPoints["\(n)"] = points.map { [$0.longitude, $0.latitude] }
            let moments = (0..<3).map { _ in departure() }
            for (name, timing) in [("static", 0), ("departAt", 1), ("arriveAt", 2)] {
                if timing != 0 && n > 200 { continue }  // one time-dependent search per row: large ones take minutes
                var ms: [Double] = [], cpu: [Double] = [], search: [Double] = []
                var routes = 0
                for run in 0..<(n >= 1000 || timing != 0 ? moments.count : 5) {
                    var q = MatrixQuery(origins: points, destinations: points)
                    if timing == 1 { q.departAt = moments[run] }
                    if timing == 2 { q.arriveAt = moments[run].addingTimeInterval(3600) }
                    q.traffic = true
                    let start = DispatchTime.now().uptimeNanoseconds, cpuStart = Self.cpuMs()
                    guard let matrix = try? service.computeMatrix(q, maxCells: n * n) else { break }
                    ms.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    cpu.append(Self.cpuMs() - cpuStart)
                    search.append(matrix.searchSeconds * 1000)
                    routes = matrix.cells.joined().filter { if case .route = $0 { true } else { false } }.count
                }
                matrices["\(n)x\(n).\(name)"] = ["ms": BenchCommand.percentiles(ms), "cpuMsAllThreads": BenchCommand.percentiles(cpu),
                                                  "searchMs": BenchCommand.percentiles(search), "cellsWithRoute": routes, "cells": n * n]
            }
        }
        report["matrices"] = matrices
        if let write {
            try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
            let files: [(String, Any)] = [("isochrones.json", written), ("matrix-points.json", matrixPoints),
                                          ("centres.json", centres.map { [$0.0.longitude, $0.0.latitude] })]
            for (name, value) in files {
                try JSONSerialization.data(withJSONObject: value).write(to: URL(fileURLWithPath: write + "/" + name), options: .atomic)
            }
            report["written"] = write
        }
        report["machineLoadAverage"] = Self.loadAverage()
        return report
    }

    /// CPU time of the whole process (every thread), milliseconds: unlike wall time it does not
    /// grow when other processes share the cores.
    static func cpuMs() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}
