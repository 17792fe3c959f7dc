import Foundation
import Dataset
import DatasetImport
import MapsService
import MapsAPI
import RoadExtract
import RoadNetwork
import Routing
import GeoCore

/// `wayfinder bench …`: release-mode measurements that print JSON (never timed tests).
enum BenchCommand {
    static let usage = """
    USAGE: wayfinder bench routing EXTRACT.osm.pbf [--osrm DIR] [--queries N] [--seed S] [--profiles LIST]
           wayfinder bench directions EXTRACT.osm.pbf [--queries N] [--seed S] [--no-profiles] [--only KIND,…] [--keep-dataset DIR]
           wayfinder bench places EXTRACT.osm.pbf [--queries N] [--seed S]
           wayfinder bench places-index EXTRACT.osm.pbf
           wayfinder bench tiles EXTRACT.osm.pbf [--side N]
           wayfinder bench reach EXTRACT.osm.pbf [--queries N] [--seed S] [--minutes 10,30] [--matrix 100,1000] [--write DIR] [--no-profiles]
           wayfinder bench match EXTRACT.osm.pbf [--queries N] [--seed S] [--output TRACES.json]
           wayfinder bench ferries EXTRACT.osm.pbf [--queries N] [--seed S]

    `directions`: leave-now, depart-at, arrive-at and alternatives (two points and with a via
    point, static and with a departure time) over N random pairs with departures spread over a
    weekday, alternatives' quality (how many, stretch, sharing), and the time to apply a live
    update of 1 %, 10 % and 100 % of segments. Unless --no-profiles, the dataset gets a weekly
    profile on every segment and a live overlay first (SYNTHETIC BENCHMARK INPUTS, labelled so in
    the report: `wayfinder generate --speed-profiles`); with --no-profiles, times are free flow
    plus the live overlay. --only picks measurements: leaveNow,
    departAt, arriveAt, departAtVia, withInstructions, alternatives3, alternatives3DepartAt,
    alternatives3Via, liveUpdate. --keep-dataset DIR keeps the imported dataset there and reuses it
    on the next run.

    `places`: places index build time and size, reverse geocoding at N random points, typeahead
    over every prefix of addresses and names drawn from the map, and search along car routes of
    about 2, 5, 10 and 20 km (restaurants, cafés and fuel within a 10-minute detour).

    `reach`: isochrones of each --minutes budget from N random centres (default 20), leaving now,
    at a departure time and arriving by one (search and contour time apart), then square matrices
    of each --matrix size over random points, leaving now, at a departure time and arriving by
    one (up to 200), three moments each. Times come with weekly profiles and a live overlay on
    the roads, as for `directions` (--no-profiles: free flow, no overlay).
    --write DIR keeps the centres, polygons and points for bench/reach.py (Valhalla and OSRM beside).

    `places-index`: only the places index (no road graph, no base map): build time, index size
    and the process's peak memory, for measuring that stage alone at any scale.

    `tiles`: base map build time and size, then the render time of an N×N square of tiles
    (default 5) around the extract's centre at every zoom from 10 to 18, uncached.

    `ferries`: car routes over N random pairs and N pairs straddling ferry edges (default 200
    each): the share of each route's time spent on ferries, and how many spend more than half of
    it there although a road route within 1.5× the time exists (the check that ferry times and
    lines are believable).

    `match`: map matching accuracy on traces generated from N car routes (default 40) sampled
    every 1, 5, 15 and 30 s with 5, 10 and 20 m of noise, outliers and gaps (the share of the
    true route's length and of the fixes matched right), and the latency of 80-fix traces.
    --output writes the traces with their truth, for bench/match.py to run OSRM on.

    Imports the extract into a temporary dataset (time, peak memory), then measures route query
    latency over N random origin/destination pairs (default 1000, seed 42), in process.
    With --osrm DIR (a folder of ../shared/bench, e.g. ../shared/bench/porto) it also routes
    OSRM's fixed pairs and reports how many agree with OSRM's answers: length within 5 %, travel
    time within 5 % and 15 %.

    Build with `swift build -c release` first: debug builds are 10–50× slower.
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["osrm", "queries", "seed", "profiles", "output", "side", "only", "keep-dataset",
                                                   "minutes", "matrix", "write"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 2, ["routing", "directions", "places", "places-index", "tiles", "reach", "match", "ferries"].contains(a.positional[0]) else {
            throw UsageError("usage: wayfinder bench routing|directions|places|places-index|tiles|reach|match|ferries EXTRACT")
        }
        let extract = a.positional[1]
        let queries = Int(a.value("queries") ?? "1000") ?? 1000
        let seed = UInt64(a.value("seed") ?? "42") ?? 42
        let osrmDir = a.value("osrm")
        let profiles = try (a.value("profiles") ?? "car").split(separator: ",").map { name in
            guard let p = Profile.named(String(name)) else { throw UsageError("unknown profile \(name)") }
            return p
        }
        let output = a.value("output") ?? NSTemporaryDirectory() + "wayfinder-bench-\(getpid())"
        let side = Int(a.value("side") ?? "5") ?? 5
        func numbers(_ name: String, _ fallback: String) throws -> [Double] {
            try (a.value(name) ?? fallback).split(separator: ",").map { text in
                guard let v = Double(text), v > 0, v <= 1000 else { throw UsageError("--\(name) takes positive numbers up to 1000, comma-separated") }
                return v
            }
        }
        let minutes = try numbers("minutes", "10,30"), matrixSizes = try numbers("matrix", "100,1000").map { Int($0) }
        let write = a.value("write")
        let noProfiles = a.flag("no-profiles")
        let only = a.value("only").map { Set($0.split(separator: ",").map(String.init)) }
        let keepDataset = a.value("keep-dataset")
        try a.checkAllUsed()
        if a.positional[0] == "reach" {
            let report = try BenchReach.run(extract: extract, queries: a.value("queries") == nil ? 20 : queries, seed: seed,
                                            minutes: minutes, matrixSizes: matrixSizes, write: write, profiles: !noProfiles)
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        if a.positional[0] == "tiles" {
            let report = try BenchTiles.run(extract: extract, tilesPerSide: max(1, min(15, side)))
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        if a.positional[0] == "ferries" {
            let report = try BenchFerries.run(extract: extract, queries: a.value("queries") == nil ? 200 : queries, seed: seed)
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        if a.positional[0] == "match" {
            let report = try BenchMatch.run(extract: extract, drives: Int(a.value("queries") ?? "40") ?? 40, seed: seed, write: a.value("output"))
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        if a.positional[0] == "places-index" {
            let report = try BenchPlaces.buildIndex(extract: extract)
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        if a.positional[0] == "places" {
            let report = try BenchPlaces.run(extract: extract, queries: queries, seed: seed)
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        if a.positional[0] == "directions" {
            let report = try BenchDirections.run(extract: extract, settings: .init(queries: queries, seed: seed, profiles: !noProfiles, only: only,
                                                                               datasetFolder: keepDataset))
            print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }

        var options = DatasetImporter.Options(extractPath: extract, outputPath: output)
        options.profiles = profiles
        options.skipPlaces = true
        let summary = try DatasetImporter(options: options).run()
        let service = try Commands.openService(output)
        defer { if a.value("output") == nil { try? FileManager.default.removeItem(atPath: output) } }

        var report: [String: Any] = [
            "extract": (extract as NSString).lastPathComponent,
            "import": [
                "seconds": round3(summary.seconds),
                "peakMemoryMB": summary.peakMemoryBytes >> 20,
                "stages": Dictionary(uniqueKeysWithValues: summary.stages.map { ($0.name, round3($0.seconds)) }),
                "graphMB": round3(Double(summary.manifest.graphBytes) / 1_048_576),
                "profiles": summary.manifest.profiles,
            ],
        ]
        let graph = try service.dataset.graph(.car)
        report["randomQueries"] = randomQueries(service, graph: graph, count: queries, seed: seed)
        if let structure = service.dataset.hierarchies[.car] {
            report["hierarchy"] = hierarchy(graph: graph, structure: structure, count: queries, seed: seed)
        }
        if let osrmDir { report["osrmAgreement"] = try osrmAgreement(service, dir: osrmDir) }
        let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    static func round3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

    static func percentiles(_ samples: [Double]) -> [String: Double] {
        let s = samples.sorted()
        func p(_ q: Double) -> Double { s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count) * q))] }
        return ["p50": round3(p(0.5)), "p95": round3(p(0.95)), "p99": round3(p(0.99)), "max": round3(s.last ?? 0),
                "mean": round3(s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count))]
    }

    static func randomQueries(_ service: MapsService, graph: RoadGraph, count: Int, seed: UInt64) -> [String: Any] {
        var rng = SplitMix64(seed: seed)
        var latencies: [Double] = []
        var ok = 0, noRoute = 0
        for _ in 0..<count {
            let a = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
            let b = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
            var query = RouteQuery(waypoints: [a, b], mode: .car)
            query.includePoints = false
            let start = DispatchTime.now().uptimeNanoseconds
            let result = Result { try service.calculateRoute(query) }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            if case .success = result { ok += 1 } else { noRoute += 1 }
        }
        return ["queries": count, "seed": seed, "ok": ok, "noRoute": noRoute, "latencyMs": percentiles(latencies)]
    }

    /// The CCH alone: size, customization time, and queries between random arcs (distance only,
    /// and with the path unpacked), in microseconds.
    static func hierarchy(graph: RoadGraph, structure: CCHStructure, count: Int, seed: UInt64) -> [String: Any] {
        let metric = Metric.fastest(graph)
        var customizeMs: [Double] = []
        let cch = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            cch.customize(turnWeight: metric.turnWeight)
            customizeMs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        // One thread, as RoutingKit's per-thread figure: wall time and the thread's CPU time (the
        // machine is shared; CPU time leaves out what other processes took).
        var oneThreadMs: [Double] = [], oneThreadCPUMs: [Double] = []
        let single = CCHMetric(structure: structure, turnWeight: metric.turnWeight, parallelAbove: Int.max)
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds, cpu = BenchDirections.threadCPUNanoseconds()
            single.customize(turnWeight: metric.turnWeight)
            oneThreadMs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            oneThreadCPUMs.append(Double(BenchDirections.threadCPUNanoseconds() - cpu) / 1e6)
        }
        var search = CCHLegSearch(graph: graph, metric: metric, cch: cch)
        var rng = SplitMix64(seed: seed)
        var micros: [Double] = [], distanceMicros: [Double] = []
        var depth = 0
        var distanceOnly = CCHLegSearch(graph: graph, metric: metric, cch: cch)
        distanceOnly.unpacksPaths = false
        var rng2 = SplitMix64(seed: seed)
        for _ in 0..<count {
            let s = ArcPosition(arc: ArcID(Int(rng2.next() % UInt64(graph.arcCount))), fraction: 0.5)
            let t = ArcPosition(arc: ArcID(Int(rng2.next() % UInt64(graph.arcCount))), fraction: 0.5)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = distanceOnly.solve(LegProblem(sources: [.init(position: s, cost: 0)], targets: [t]))
            distanceMicros.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
        }
        for _ in 0..<count {
            let s = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: 0.5)
            let t = ArcPosition(arc: ArcID(Int(rng.next() % UInt64(graph.arcCount))), fraction: 0.5)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = search.solve(LegProblem(sources: [.init(position: s, cost: 0)], targets: [t]))
            micros.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
        }
        for v in stride(from: 0, to: structure.nodeCount, by: max(1, structure.nodeCount / 200)) {
            var d = 0, x = v
            while let p = structure.parent(x) { d += 1; x = p }
            depth = max(depth, d)
        }
        var triangles = 0
        for v in 0..<structure.nodeCount {
            let d = Int(structure.upFirstOut[v + 1] - structure.upFirstOut[v])
            triangles += d * (d - 1) / 2
        }
        let partial = BenchPartial.run(graph: graph, structure: structure, metric: metric, base: cch, seed: seed)
        return ["turnGraphNodes": structure.nodeCount, "triangles": triangles, "cchArcs": structure.arcCount, "customizeMs": percentiles(customizeMs),
                "partialCustomization": partial,
                "customizeOneThreadMs": percentiles(oneThreadMs), "customizeOneThreadCPUMs": percentiles(oneThreadCPUMs),
                "queryWithPathMicroseconds": percentiles(micros), "queryDistanceMicroseconds": percentiles(distanceMicros), "sampledTreeDepthMax": depth]
    }

    static func osrmAgreement(_ service: MapsService, dir: String) throws -> [String: Any] {
        let pairs = try CSV.rows(dir + "/pairs.csv")
        let answers = try CSV.rows(dir + "/osrm_ch_answers.csv")
        var osrm: [String: (Double, Double)] = [:]
        for row in answers where row["code"] == "Ok" {
            osrm[row["pair_id"]!] = (Double(row["distance_m"]!)!, Double(row["duration_s"]!)!)
        }
        // OSRM knows no time of day. Compare at a quiet hour, the coming Sunday 03:00 in the dataset's
        // zone, when any weekly profile the dataset has (imported or learned) runs freest: the shares
        // then do not depend on the hour the benchmark happens to run.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = service.dataset.timeZone
        let quiet = calendar.nextDate(after: Date(), matching: DateComponents(hour: 3, minute: 0, weekday: 1),
                                      matchingPolicy: .nextTime) ?? Date()
        var compared = 0, length5 = 0, time5 = 0, time15 = 0, bothOk = 0, onlyOSRM = 0, onlyUs = 0
        var ratiosLength: [Double] = [], ratiosTime: [Double] = []
        var latencies: [Double] = []
        for row in pairs {
            guard let slon = Double(row["src_lon"]!), let slat = Double(row["src_lat"]!),
                  let dlon = Double(row["dst_lon"]!), let dlat = Double(row["dst_lat"]!) else { continue }
            var query = RouteQuery(waypoints: [Coordinate(latitude: slat, longitude: slon), Coordinate(latitude: dlat, longitude: dlon)], mode: .car)
            query.includePoints = false
            query.departAt = quiet
            let start = DispatchTime.now().uptimeNanoseconds
            let ours = try? service.calculateRoute(query)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            let theirs = osrm[row["pair_id"]!]
            switch (ours?.routes.first?.summary, theirs) {
            case (let s?, let (d, t)?):
                bothOk += 1
                compared += 1
                let rl = Double(s.lengthInMeters) / max(1, d), rt = Double(s.travelTimeInSeconds) / max(1, t)
                ratiosLength.append(rl)
                ratiosTime.append(rt)
                if abs(rl - 1) <= 0.05 { length5 += 1 }
                if abs(rt - 1) <= 0.05 { time5 += 1 }
                if abs(rt - 1) <= 0.15 { time15 += 1 }
            case (nil, _?): onlyOSRM += 1
            case (_?, nil): onlyUs += 1
            default: break
            }
        }
        func share(_ n: Int) -> Double { compared == 0 ? 0 : round3(Double(n) / Double(compared)) }
        let sortedL = ratiosLength.sorted(), sortedT = ratiosTime.sorted()
        return [
            "pairs": pairs.count, "bothRouted": bothOk, "onlyOSRMRouted": onlyOSRM, "onlyWayfinderRouted": onlyUs,
            "lengthWithin5pct": share(length5), "timeWithin5pct": share(time5), "timeWithin15pct": share(time15),
            "medianLengthRatio": sortedL.isEmpty ? 0 : round3(sortedL[sortedL.count / 2]),
            "medianTimeRatio": sortedT.isEmpty ? 0 : round3(sortedT[sortedT.count / 2]),
            "departAt": RFC3339.format(quiet, in: service.dataset.timeZone),
            "latencyMs": percentiles(latencies),
        ]
    }
}

/// Just enough CSV for the bench files (no quoted commas there).
enum CSV {
    static func rows(_ path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        return lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (i, h) in header.enumerated() where i < fields.count { row[h] = fields[i] }
            return row
        }
    }
}
