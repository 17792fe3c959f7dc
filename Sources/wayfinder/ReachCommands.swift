import Foundation
import MapsService
import MapsAPI
import GeoCore
import RoadNetwork

/// `wayfinder reach` (isochrones) and `wayfinder matrix` (travel times between points).
enum ReachCommand {
    static let usage = """
    USAGE: wayfinder reach DATASET_DIR --from LAT,LON (--minutes 10,20 | --km 2,5) [--mode MODE]
                           [--depart-at TIME | --arrive-at TIME] [--reverse] [--format geojson|range]

    How far one gets from a point within each budget (or, with --reverse or --arrive-at, from
    where the point is reached): contours around the roads reached, each inside the next.
    `geojson` (default) is Valhalla's isochrone FeatureCollection, largest contour first; `range`
    is TomTom's reachable range (one budget).

    OPTIONS:
      --from LAT,LON       the point
      --minutes LIST       time budgets, comma-separated
      --km LIST            distance budgets, comma-separated
      --mode MODE          car (default), taxi, bicycle, pedestrian
      --depart-at TIME     leave then (time budgets); RFC 3339, a local date-time or HH:MM
      --arrive-at TIME     arrive by then: from where the point is reached in time
      --reverse            towards the point instead of away from it
      --format FORMAT      geojson (default) or range
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["from", "minutes", "km", "mode", "depart-at", "arrive-at", "format"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one dataset folder") }
        guard let from = a.value("from").flatMap(Coordinate.init(parsing:)) else { throw UsageError("--from LAT,LON is needed") }
        let minutes = a.value("minutes"), km = a.value("km")
        guard (minutes == nil) != (km == nil), let list = minutes ?? km else { throw UsageError("give --minutes or --km") }
        let levels = try list.split(separator: ",").map { text -> Double in
            guard let v = Double(text), v > 0 else { throw UsageError("budgets must be positive numbers") }
            return minutes != nil ? v * 60 : v * 1000
        }
        var query = ReachQuery(origin: from, levels: levels)
        query.budget = minutes != nil ? .time : .distance
        query.levelParameter = minutes != nil ? "minutes" : "km"
        query.mode = try Commands.mode(a.value("mode"))
        query.reverse = a.flag("reverse")
        let format = a.value("format") ?? "geojson"
        guard format == "geojson" || format == "range" else { throw UsageError("--format must be geojson or range") }
        let departText = a.value("depart-at"), arriveText = a.value("arrive-at")
        try a.checkAllUsed()
        let service = try Commands.openService(a.positional[0])
        query.departAt = try Commands.time(departText, "depart-at", service)
        query.arriveAt = try Commands.time(arriveText, "arrive-at", service)
        do {
            if format == "range" {
                print(try JSONOutput.encode(try service.reachableRange(query)))
            } else {
                print(try JSONOutput.encode(try service.isochrone(query, polygons: true, colors: [], showLocations: false, id: nil)))
            }
        } catch let error as APIError {
            throw CommandFailure(error.message, exitCode: error.code == .badInput ? ExitCode.usage : ExitCode.noInput)
        }
    }
}

enum MatrixCommand {
    static let usage = """
    USAGE: wayfinder matrix DATASET_DIR --from "LAT,LON;LAT,LON…" [--to "LAT,LON;…"] [--mode MODE]
                            [--depart-at TIME | --arrive-at TIME]

    Travel time and length from every --from point to every --to point (default: the --from
    points), as TomTom Matrix Routing v2's answer. With a departure or arrival time every cell is
    an exact time-dependent route.
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["from", "to", "mode", "depart-at", "arrive-at"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one dataset folder") }
        func points(_ text: String?) throws -> [Coordinate]? {
            try text.map { t in
                try t.split(separator: ";").map { p in
                    guard let c = Coordinate(parsing: String(p)) else { throw UsageError("\(p) is not LAT,LON") }
                    return c
                }
            }
        }
        guard let origins = try points(a.value("from")), !origins.isEmpty else { throw UsageError("--from needs at least one point") }
        var query = MatrixQuery(origins: origins, destinations: try points(a.value("to")) ?? origins)
        query.mode = try Commands.mode(a.value("mode"))
        let departText = a.value("depart-at"), arriveText = a.value("arrive-at")
        try a.checkAllUsed()
        let service = try Commands.openService(a.positional[0])
        query.departAt = try Commands.time(departText, "depart-at", service)
        query.arriveAt = try Commands.time(arriveText, "arrive-at", service)
        do {
            print(try JSONOutput.encode(try service.matrix(query, maxCells: service.limits.maxAsyncMatrixCells)))
        } catch let error as APIError {
            throw CommandFailure(error.message, exitCode: error.code == .badInput ? ExitCode.usage : ExitCode.noInput)
        }
    }
}

extension Commands {
    static func mode(_ name: String?) throws -> TravelMode {
        guard let mode = TravelMode(rawValue: name ?? "car") else {
            throw UsageError("unknown mode \"\(name ?? "")\"; choose car, taxi, bicycle or pedestrian")
        }
        return mode
    }

    static func time(_ text: String?, _ option: String, _ service: MapsService) throws -> Date? {
        guard let text else { return nil }
        guard let d = TimeInput.parse(text, timeZone: service.timeZone, now: service.clock()) else {
            throw UsageError("--\(option) \"\(text)\" is not a time (2026-12-01T08:30:00+02:00, 2026-12-01T08:30 or 08:30)")
        }
        return d
    }
}
