import Foundation
import OSMPBF
import SyntheticNetwork
import Dataset
import Traffic
import RoadNetwork

/// `wayfinder generate`: a synthetic road network as an `.osm.pbf`, for scale benchmarks.
enum GenerateCommand {
    static let usage = """
    USAGE: wayfinder generate --nodes N --output FILE.osm.pbf [--seed S]
           wayfinder generate --speed-profiles DATASET_DIR --output FILE.csv [--seed S]

    Writes a synthetic but realistic road network that OSRM and Wayfinder both import, for scale
    benchmarks (bench/run.py): towns of Zipf-distributed sizes (irregular, staggered residential
    streets with cul-de-sacs, one-ways, roundabouts and no_left_turn / only_straight_on
    restrictions; named arterials with traffic signals), rural primary/secondary/tertiary roads
    with refs and maxspeed between neighbouring towns, and dual-carriageway motorways with ramps
    between the biggest towns. The same N and seed always give the same file. Suffixes k and M
    are accepted (--nodes 5M); 5M nodes take a few seconds and about 200 MB.

    With --speed-profiles, writes instead a SYNTHETIC BENCHMARK INPUT (not measured traffic) for a
    dataset's car graph: a historical profile file (`wayfinder traffic DIR profiles FILE.csv`) with 24
    hourly speeds on every directed segment, drawn from 512 daily shapes with random morning and
    evening peaks, so that time-dependent routing is measured with profiles in force everywhere.
    The file says what it is in its first line; nothing loads it unless it is imported.

    OPTIONS:
      --nodes N                number of OSM nodes to aim for (within a few per cent; at least 2000)
      --speed-profiles DIR     write a synthetic speed-profile file for this dataset instead
      --output FILE            the file to write (required)
      --seed S                 random seed (default 1)
      --help                   show this help
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["nodes", "output", "seed", "speed-profiles"])
        if a.flag("help") { print(usage); return }
        guard a.positional.isEmpty else { throw UsageError("unexpected argument \"\(a.positional[0])\"") }
        if let dataset = a.value("speed-profiles") {
            guard a.value("nodes") == nil else { throw UsageError("--nodes and --speed-profiles cannot be combined") }
            guard let output = a.value("output") else { throw UsageError("--output FILE.csv is required") }
            guard let seed = UInt64(a.value("seed") ?? "1") else { throw UsageError("--seed must be a non-negative integer") }
            try a.checkAllUsed()
            try speedProfiles(dataset: dataset, output: output, seed: seed)
            return
        }
        guard let nodesText = a.value("nodes") else { throw UsageError("--nodes N is required") }
        guard let nodes = parseCount(nodesText), nodes >= 2_000, nodes <= 200_000_000 else {
            throw UsageError("--nodes must be a count between 2000 and 200M, such as 100000, 100k or 5M")
        }
        guard let output = a.value("output") else { throw UsageError("--output FILE.osm.pbf is required") }
        let seedText = a.value("seed") ?? "1"
        guard let seed = UInt64(seedText) else { throw UsageError("--seed must be a non-negative integer") }
        try a.checkAllUsed()

        let started = Date()
        let summary: SyntheticNetwork.Summary
        do {
            summary = try SyntheticNetwork.write(.init(nodes: nodes, seed: seed), to: output)
        } catch {
            throw CommandFailure(error.description, exitCode: ExitCode.ioError)
        }
        let seconds = Date().timeIntervalSince(started)
        let report: [String: Any] = [
            "file": output, "fileMB": Double(summary.fileBytes) / 1_048_576, "seconds": seconds, "peakMemoryMB": peakMemoryMB(),
            "seed": seed, "requestedNodes": nodes, "nodes": summary.nodes, "townNodes": summary.townNodes, "ways": summary.ways,
            "turnRestrictions": summary.restrictions, "towns": summary.towns, "motorwayTowns": summary.motorwayTowns,
            "motorwaySegments": summary.motorwaySegments, "ruralRoads": summary.ruralRoads, "roundabouts": summary.roundabouts,
            "trafficSignals": summary.trafficSignals, "ruralNodeSpacingMeters": summary.ruralNodeSpacingMeters,
            "regionSideKilometers": summary.regionSideKilometers,
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    static func speedProfiles(dataset path: String, output: String, seed: UInt64) throws {
        let started = Date()
        let graph: RoadNetwork.RoadGraph
        do {
            graph = try Dataset(path: path).graph(.car)
        } catch {
            throw CommandFailure("\(error)", exitCode: ExitCode.noInput)
        }
        let summary: SyntheticSpeedProfiles.Summary
        do {
            summary = try SyntheticSpeedProfiles.write(graph: graph, seed: seed, to: output)
        } catch {
            throw CommandFailure(error.description, exitCode: ExitCode.ioError)
        }
        let report: [String: Any] = [
            "file": output, "fileMB": Double(summary.bytes) / 1_048_576, "seconds": Date().timeIntervalSince(started),
            "lines": summary.lines, "patterns": summary.patterns, "maximumFactor": summary.maximumFactor, "seed": seed,
            "note": "synthetic benchmark input, not measured traffic",
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// "5000000", "100k", "1M", "2.5M".
    static func parseCount(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")
        var factor = 1.0
        var number = Substring(t)
        switch t.last {
        case "k", "K": factor = 1e3; number = number.dropLast()
        case "m", "M": factor = 1e6; number = number.dropLast()
        default: break
        }
        guard let v = Double(number), v.isFinite, v >= 0 else { return nil }
        return Int((v * factor).rounded())
    }

    /// The process's peak resident set (VmHWM), MB.
    static func peakMemoryMB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }
        return 0
    }
}
