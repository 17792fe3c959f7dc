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
enum BenchReach {
    static func run(extract: String, queries: Int, seed: UInt64, minutes: [Double], matrixSizes: [Int], write: String?) throws -> [String: Any] {
        let folder = NSTemporaryDirectory() + "wayfinder-bench-reach-\(getpid())"
        var options = DatasetImporter.Options(extractPath: extract, outputPath: folder)
        options.profiles = [.car]
        options.skipPlaces = true
        options.skipBaseMap = true
        let imported = try DatasetImporter(options: options).run()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = try Commands.openService(folder)
        let graph = try service.dataset.graph(.car)
        var rng = SplitMix64(seed: seed)
        func point() -> Coordinate {
            var a = Int(rng.next() % UInt64(graph.arcCount))
            while !graph.arcFlags[a].contains(.largestComponent) { a = (a + 1) % graph.arcCount }
            return graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
        }
        let centres = (0..<queries).map { _ in point() }
        // A Monday 08:00 in the future: six days and two hours after 06:00 on the coming Tuesday.
        let monday8 = BenchDirections.weekdayMorning(service.timeZone).addingTimeInterval((6 * 24 + 2) * 3600)
        var report: [String: Any] = ["extract": (extract as NSString).lastPathComponent, "turnGraphNodes": graph.arcCount,
                                     "importSeconds": BenchCommand.round3(imported.seconds), "centres": queries, "seed": seed]
        // Warm-up: the first reach customizes the measure.
        _ = try? service.reach(ReachQuery(origin: centres[0], levels: [600]))
        var isochrones: [String: Any] = [:]
        var written: [[String: Any]] = []
        for m in minutes {
            for (name, timing) in [("static", 0), ("departAt", 1), ("arriveAt", 2)] {
                var total: [Double] = [], cpu: [Double] = [], search: [Double] = [], contour: [Double] = [], arcs: [Double] = []
                for (i, c) in centres.enumerated() {
                    var q = ReachQuery(origin: c, levels: [m * 60])
                    if timing == 1 { q.departAt = monday8 }
                    if timing == 2 { q.arriveAt = monday8.addingTimeInterval(3600) }
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
            for (name, departAt) in [("static", nil), ("departAt", monday8)] as [(String, Date?)] {
                if departAt != nil && n > 200 { continue }  // one time-dependent search per row: large ones take minutes
                var q = MatrixQuery(origins: points, destinations: points)
                q.departAt = departAt
                q.traffic = true
                var ms: [Double] = [], cpu: [Double] = []
                var routes = 0
                for _ in 0..<(n >= 1000 || departAt != nil ? 2 : 5) {
                    let start = DispatchTime.now().uptimeNanoseconds, cpuStart = Self.cpuMs()
                    guard let matrix = try? service.computeMatrix(q, maxCells: n * n) else { break }
                    ms.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    cpu.append(Self.cpuMs() - cpuStart)
                    routes = matrix.cells.joined().filter { if case .route = $0 { true } else { false } }.count
                }
                matrices["\(n)x\(n).\(name)"] = ["ms": BenchCommand.percentiles(ms), "cpuMsAllThreads": BenchCommand.percentiles(cpu), "cellsWithRoute": routes, "cells": n * n]
            }
        }
        report["matrices"] = matrices
        if let write {
            try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
            let files: [(String, Any)] = [("isochrones.json", written), ("matrix-points.json", matrixPoints),
                                          ("centres.json", centres.map { [$0.longitude, $0.latitude] })]
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
