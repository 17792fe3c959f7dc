import Foundation
import DatasetImport
import RoadExtract
import OSMPBF

enum ImportCommand {
    static let usage = """
    USAGE: wayfinder import EXTRACT.osm.pbf --output DATASET_DIR [options]

    Reads an OpenStreetMap extract and writes a dataset folder: road graphs for each profile
    (memory-mapped by the server), the places index and the base map. An interrupted import
    leaves the previous dataset in DATASET_DIR intact; `state/` (live traffic, watches, tile
    cache) is kept across re-imports.

    OPTIONS:
      --output DIR            the dataset folder to create or replace (required)
      --profiles LIST         comma-separated: car,taxi,bicycle,pedestrian (default: all four)
      --timezone IANA_NAME    the dataset's local time zone (default: inferred from the extract)
      --skip-places           do not build the places index (routing only)
      --skip-basemap          do not build the base map (routing only, as OSRM's car pipeline)
      --help                  show this help
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["output", "profiles", "timezone"])
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
        try a.checkAllUsed()

        let bar = ProgressBar(label: "import")
        options.progress = { stage, fraction in bar.update(stage: stage, fraction: fraction) }
        let summary: DatasetImporter.Summary
        do {
            summary = try DatasetImporter(options: options).run()
        } catch let error as PBFError {
            bar.finish()
            throw CommandFailure(error.description, exitCode: error.kind == .cannotOpen ? ExitCode.noInput : ExitCode.dataError)
        }
        bar.finish()
        var lines = ["imported \(a.positional[0]) into \(output) in \(String(format: "%.2f", summary.seconds)) s, peak memory \(summary.peakMemoryBytes >> 20) MB"]
        lines.append("time zone: \(summary.manifest.timeZone) (from \(summary.manifest.timeZoneSource))")
        for (name, stats) in summary.manifest.profiles.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name.padding(toLength: 11, withPad: " ", startingAt: 0)) \(stats["nodes"] ?? 0) nodes, \(stats["edges"] ?? 0) edges, \(stats["arcs"] ?? 0) arcs, \(stats["turns"] ?? 0) turns")
        }
        lines.append("  graph file: \(String(format: "%.1f", Double(summary.manifest.graphBytes) / 1_048_576)) MB")
        for (stage, seconds) in summary.stageSeconds { lines.append("  \(stage): \(String(format: "%.2f", seconds)) s") }
        print(lines.joined(separator: "\n"))
    }
}
