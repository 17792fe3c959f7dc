import Foundation
import DatasetImport
import RoadExtract
import OSMPBF
import HTTPServer
#if canImport(Glibc)
import Glibc
#endif

enum ImportCommand {
    static let usage = """
    USAGE: wayfinder import EXTRACT.osm.pbf --output DATASET_DIR [options]

    Reads an OpenStreetMap extract and writes a dataset folder: road graphs for each profile
    (memory-mapped by the server), the places index and the base map. An interrupted import
    leaves the previous dataset in DATASET_DIR intact; `state/` (live traffic, watches, tile
    cache) is kept across re-imports. Stopped by SIGINT (Ctrl-C) or SIGTERM, it removes what it
    had written and exits with 130 or 143.

    Before it starts, the import estimates the memory it needs from the extract's size and block
    count and refuses an extract that cannot fit; once the roads are read it estimates again from
    their size and refuses the same way; while it runs it stops cleanly (exit status 75, the
    previous dataset untouched) if it would pass the memory limit.

    OPTIONS:
      --output DIR            the dataset folder to create or replace (required)
      --profiles LIST         comma-separated: car,taxi,bicycle,pedestrian (default: all four)
      --timezone IANA_NAME    the dataset's local time zone (default: inferred from the extract)
      --skip-places           do not build the places index (routing only)
      --skip-basemap          do not build the base map (routing only, as OSRM's car pipeline)
      --threads N             threads the heavy stages may use (default: every core)
      --max-memory SIZE       resident memory the import may use, e.g. 8G or 512M (default: what
                              the machine has available at the start, less 5 %; 0: no limit)
      --json                  print the summary as JSON (stages with seconds and peak memory)
      --help                  show this help
    """

    static func run(_ args: [String]) throws {
        // Before any thread starts, so that every thread inherits the mask and the signal waits here.
        let signals = TerminationSignals.block()
        Thread.detachNewThread {
            let signal = signals.wait()
            DatasetImporter.abandonUnfinished()
            let message = "\nwayfinder: import stopped by signal \(signal); what it had written is removed and the previous dataset, if any, is unchanged\n"
            message.withCString { _ = write(2, $0, strlen($0)) }
            _exit(128 + signal)
        }
        var a = try Arguments(args, valueOptions: ["output", "profiles", "timezone", "threads", "max-memory"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one extract file") }
        guard let output = a.value("output") else { throw UsageError("--output DATASET_DIR is required") }
        var options = DatasetImporter.Options(extractPath: a.positional[0], outputPath: output)
        if let list = a.value("profiles") {
            options.profiles = try list.split(separator: ",").map { name in
                guard let p = Profile.named(String(name)) else {
                    throw UsageError("unknown profile \"\(name)\"; choose from car, taxi, bicycle, pedestrian")
                }
                return p
            }
        }
        options.timeZone = a.value("timezone")
        options.skipPlaces = a.flag("skip-places")
        options.skipBaseMap = a.flag("skip-basemap")
        if let n = try a.int("threads", in: 1...256) { options.threads = n }
        options.memoryLimit = .automatic
        if let m = a.value("max-memory") {
            guard let bytes = parseSize(m) else { throw UsageError("--max-memory must be a size such as 8G, 512M or 0") }
            options.memoryLimit = bytes == 0 ? .none : .bytes(bytes)
        }
        let json = a.flag("json")
        try a.checkAllUsed()

        let bar = ProgressBar(label: "import")
        options.progress = { event in
            switch event {
            case .progress(let stage, let step, let fraction): bar.update(stage: stage, step: step, fraction: fraction)
            case .finished(let stage): bar.finished(stage: stage.name, seconds: stage.seconds, peakBytes: stage.peakMemoryBytes)
            }
        }
        let summary: DatasetImporter.Summary
        do {
            summary = try DatasetImporter(options: options).run()
        } catch let error as PBFError {
            bar.finish()
            throw CommandFailure(error.description, exitCode: error.kind == .cannotOpen ? ExitCode.noInput : ExitCode.dataError)
        } catch let error as ImportError {
            bar.finish()
            switch error {
            case .notEnoughMemory, .notEnoughDisk: throw CommandFailure(error.description, exitCode: ExitCode.tempFail)
            case .unknownTimeZone: break
            }
            throw CommandFailure(error.description, exitCode: ExitCode.usage)
        }
        bar.finish()
        print(json ? jsonSummary(summary, extract: a.positional[0], output: output) : textSummary(summary, extract: a.positional[0], output: output))
    }

    static func textSummary(_ summary: DatasetImporter.Summary, extract: String, output: String) -> String {
        var lines = ["imported \(extract) into \(output) in \(String(format: "%.2f", summary.seconds)) s, peak memory \(summary.peakMemoryBytes >> 20) MB"]
        lines.append("time zone: \(summary.manifest.timeZone) (from \(summary.manifest.timeZoneSource))")
        for (name, stats) in summary.manifest.profiles.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name.padding(toLength: 11, withPad: " ", startingAt: 0)) \(stats["nodes"] ?? 0) nodes, \(stats["edges"] ?? 0) edges, \(stats["arcs"] ?? 0) arcs, \(stats["turns"] ?? 0) turns")
            lines.append("  \("".padding(toLength: 11, withPad: " ", startingAt: 0)) conditional rules: \(stats["conditionalTurns"] ?? 0) turns, "
                + "\(stats["conditionalArcs"] ?? 0) arcs; \(stats["unsupportedConditions"] ?? 0) conditions not supported (treated as off)")
        }
        lines.append("  graph file: \(String(format: "%.1f", Double(summary.manifest.graphBytes) / 1_048_576)) MB")
        for stage in summary.stages {
            lines.append("  \(stage.name): \(String(format: "%.2f", stage.seconds)) s, peak \(stage.peakMemoryBytes >> 20) MB")
        }
        return lines.joined(separator: "\n")
    }

    static func jsonSummary(_ summary: DatasetImporter.Summary, extract: String, output: String) -> String {
        let mb = { (bytes: Int) in (Double(bytes) / 1_048_576 * 10).rounded() / 10 }
        let report: [String: Any] = [
            "extract": extract, "output": output, "datasetID": summary.manifest.id,
            "seconds": (summary.seconds * 1000).rounded() / 1000,
            "peakMemoryMB": mb(summary.peakMemoryBytes),
            "estimatedPeakMB": mb(summary.estimatedPeakBytes),
            "estimatedPeakAfterReadingMB": mb(summary.estimatedPeakAfterReadingBytes),
            "wayNodeReferences": summary.wayNodeReferences,
            "memoryLimitMB": mb(summary.memoryLimitBytes),
            "timeZone": summary.manifest.timeZone,
            "profiles": summary.manifest.profiles,
            "filesMB": summary.manifest.fileBytes.mapValues(mb),
            "stages": summary.stages.map { ["name": $0.name, "seconds": ($0.seconds * 1000).rounded() / 1000, "peakMemoryMB": mb($0.peakMemoryBytes)] },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// "8G", "512M", "1.5G", "2048K" or plain bytes.
    static func parseSize(_ text: String) -> Int? {
        let units: [Character: Double] = ["K": 1024, "M": 1_048_576, "G": 1_073_741_824, "T": 1_099_511_627_776]
        var number = text.uppercased()
        if number.hasSuffix("B") { number.removeLast() }
        var scale = 1.0
        if let last = number.last, let u = units[last] { scale = u; number.removeLast() }
        guard let value = Double(number), value >= 0, value.isFinite, value * scale < 9e18 else { return nil }
        return Int(value * scale)
    }
}
