import Foundation
import Dataset
import MapsAPI
import MapsAPIMapping
import MapsService
import GeoCore
import RoadNetwork
import Routing
import RoutePlanning

enum RouteCommand {
    static let usage = """
    USAGE: wayfinder route DATASET_DIR --from LAT,LON --to LAT,LON [--via LAT,LON]... [options]

    Computes a route and prints it: `text` lists the steps like a directions panel; `json` is
    the TomTom Calculate Route document (with the snapped waypoints); `geojson` a
    FeatureCollection; `polyline`/`polyline6` Google's encoded polyline at precision 5 or 6.

    OPTIONS:
      --from LAT,LON          origin (required)
      --to LAT,LON            destination (required)
      --via LAT,LON           an intermediate waypoint; repeat for more, in order
      --mode MODE             car (default), taxi, bicycle, pedestrian
      --depart-at TIME        leave at TIME: 2026-12-01T08:30:00+02:00, 2026-12-01T08:30 (the
                              dataset's local time) or 08:30 (the next such time); default now
      --arrive-at TIME        arrive by TIME: the latest departure that makes it
      --type TYPE             fastest (default), shortest, eco, thrilling
      --avoid LIST            comma-separated: tollRoads,motorways,ferries,unpavedRoads,alreadyUsedRoads
      --strict-avoid          never use avoided roads (default: only when there is no other way)
      --windingness LEVEL     low, normal, high (thrilling routes)
      --alternatives N        up to N (0-5) alternative routes
      --best-order            reorder the --via waypoints for the least total time
      --heading DEGREES       the origin moves this way (0 = north, clockwise)
      --no-traffic            ignore live traffic (free flow and weekly speed profiles only)
      --demo-congestion       for demos: add the invented weekly congestion by road class (not data)
      --instructions          include guidance in json output (always shown in text)
      --language TAG          instruction language (en-GB, en-US)
      --units UNITS           metric (default) or imperial, for distances in text
      --format FORMAT         text (default), json, geojson, polyline, polyline6
      --help                  show this help
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["from", "to", "via", "mode", "format", "depart-at", "arrive-at", "type", "avoid",
                                                   "alternatives", "heading", "language", "units", "windingness"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one dataset folder") }
        guard let fromText = a.value("from"), let from = Coordinate(parsing: fromText) else {
            throw UsageError("--from LAT,LON is required, e.g. --from 60.1699,24.9384")
        }
        guard let toText = a.value("to"), let to = Coordinate(parsing: toText) else {
            throw UsageError("--to LAT,LON is required, e.g. --to 60.1719,24.9414")
        }
        var vias: [Coordinate] = []
        for text in a.values("via") {
            guard let c = Coordinate(parsing: text) else { throw UsageError("--via \(text) is not LAT,LON") }
            vias.append(c)
        }
        let modeName = a.value("mode") ?? "car"
        guard let mode = TravelMode(rawValue: modeName) else {
            throw UsageError("unknown mode \"\(modeName)\"; choose car, taxi, bicycle or pedestrian")
        }
        let format = a.value("format") ?? "text"
        guard ["text", "json", "geojson", "polyline", "polyline6"].contains(format) else {
            throw UsageError("unknown format \"\(format)\"; choose text, json, geojson, polyline or polyline6")
        }
        var query = RouteQuery(waypoints: [from] + vias + [to], mode: mode)
        if let t = a.value("type") {
            guard let named = Vocabulary.routeTypes[t] else { throw UsageError("unknown route type \"\(t)\"; choose fastest, shortest, eco or thrilling") }
            guard let type = Vocabulary.routeType(named, for: mode) else { throw UsageError(Vocabulary.bicycleThrillingRefusal) }
            query.routeType = type
        }
        if let list = a.value("avoid") {
            for name in list.split(separator: ",") {
                guard let kind = Avoidance(rawValue: String(name)) else {
                    throw UsageError("unknown avoidance \"\(name)\"; choose from tollRoads, motorways, ferries, unpavedRoads, alreadyUsedRoads")
                }
                query.avoid.insert(kind)
            }
        }
        query.strictAvoid = a.flag("strict-avoid")
        if let w = a.value("windingness") {
            guard let value = Windingness(rawValue: w) else { throw UsageError("--windingness must be low, normal or high") }
            query.windingness = value
        }
        if let n = a.value("alternatives") {
            guard let count = Int(n), (0...5).contains(count) else { throw UsageError("--alternatives must be 0...5") }
            query.maxAlternatives = count
        }
        query.computeBestOrder = a.flag("best-order")
        if let h = a.value("heading") {
            guard let heading = Double(h), (0..<360).contains(heading) else { throw UsageError("--heading must be 0...359 degrees") }
            query.vehicleHeading = heading
        }
        query.traffic = !a.flag("no-traffic")
        query.language = a.value("language") ?? "en-GB"
        let units = a.value("units") ?? "metric"
        guard units == "metric" || units == "imperial" else { throw UsageError("--units must be metric or imperial") }
        query.imperialUnits = units == "imperial"
        let wantsInstructions = a.flag("instructions")
        query.instructions = (format == "text" || wantsInstructions) ? .text : nil
        let departText = a.value("depart-at"), arriveText = a.value("arrive-at")
        let timeModel = TimeModelSettings(demoCongestion: a.flag("demo-congestion"))
        try a.checkAllUsed()

        let service = try Commands.openService(a.positional[0], timeModel: timeModel)
        let now = service.clock()
        if let departText {
            guard let d = TimeInput.parse(departText, timeZone: service.timeZone, now: now) else {
                throw UsageError("--depart-at \"\(departText)\" is not a time (2026-12-01T08:30:00+02:00, 2026-12-01T08:30 or 08:30)")
            }
            query.departAt = d
        }
        if let arriveText {
            guard let d = TimeInput.parse(arriveText, timeZone: service.timeZone, now: now) else {
                throw UsageError("--arrive-at \"\(arriveText)\" is not a time (2026-12-01T08:30:00+02:00, 2026-12-01T08:30 or 08:30)")
            }
            query.arriveAt = d
        }
        let response: CalculateRouteResponse
        do {
            response = try service.calculateRoute(query)
        } catch {
            throw CommandFailure(error.message, exitCode: error.code == .badInput ? ExitCode.usage : ExitCode.answerIsNo)
        }
        print(try RouteOutput.render(response, format: format, mode: mode, units: query.imperialUnits))
    }
}

enum RouteOutput {
    static func render(_ response: CalculateRouteResponse, format: String, mode: TravelMode, units imperial: Bool = false) throws -> String {
        switch format {
        case "json": return try JSONOutput.encode(response)
        case "geojson": return try JSONOutput.encode(geoJSON(response))
        case "polyline", "polyline6":
            let points = (response.routes.first?.legs ?? []).flatMap { $0.points ?? [] }
                .map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            return PolylineCodec.encode(points, precision: format == "polyline6" ? 6 : 5)
        default: return text(response, mode: mode, imperial: imperial)
        }
    }

    static func text(_ response: CalculateRouteResponse, mode: TravelMode, imperial: Bool) -> String {
        var lines: [String] = []
        for (r, route) in response.routes.enumerated() {
            let s = route.summary
            let title = r == 0 ? "\(mode.rawValue) route" : "alternative \(r)"
            lines.append("\(title): \(Format.distance(Double(s.lengthInMeters), imperial: imperial)), \(Format.duration(Double(s.travelTimeInSeconds)))"
                         + (s.trafficDelayInSeconds > 0 ? " (\(Format.duration(Double(s.trafficDelayInSeconds))) of traffic delay)" : ""))
            lines.append("  leave \(s.departureTime), arrive \(s.arrivalTime)")
            if let free = s.noTrafficTravelTimeInSeconds, let hist = s.historicTrafficTravelTimeInSeconds {
                lines.append("  without traffic \(Format.duration(Double(free))), usual traffic \(Format.duration(Double(hist)))"
                             + (s.fuelConsumptionInLiters.map { String(format: ", about %.2f L of fuel", $0) } ?? ""))
            }
            if let sources = s.timeSources { lines.append("  times from: " + sources.joined(separator: ", ")) }
            if route.legs.count > 1 {
                for (i, leg) in route.legs.enumerated() {
                    lines.append("  leg \(i + 1): \(Format.distance(Double(leg.summary.lengthInMeters), imperial: imperial)), \(Format.duration(Double(leg.summary.travelTimeInSeconds)))")
                }
            }
            for notice in route.advisoryNotices ?? [] { lines.append("  ! \(notice)") }
            if r == 0, let steps = route.steps {
                for (i, step) in steps.enumerated() {
                    let distance = step.distanceInMeters > 0 ? " — \(Format.distance(Double(step.distanceInMeters), imperial: imperial))" : ""
                    lines.append("  \(i + 1). \(step.instruction)\(distance)")
                }
            }
        }
        if let order = response.optimizedWaypoints, !order.isEmpty {
            lines.append("  waypoint order: " + order.sorted { $0.optimizedIndex < $1.optimizedIndex }.map { "via \($0.providedIndex + 1)" }.joined(separator: " → "))
        }
        for (i, w) in (response.waypoints ?? []).enumerated() {
            let name = w.name.isEmpty ? "an unnamed road" : w.name
            lines.append("  waypoint \(i): snapped \(String(format: "%.1f", w.distanceInMeters)) m to \(name)")
        }
        return lines.joined(separator: "\n")
    }

    struct FeatureCollection: Encodable {
        var type = "FeatureCollection"
        var features: [Feature]
    }

    struct Feature: Encodable {
        var type = "Feature"
        var geometry: Geometry
        var properties: [String: String]
    }

    struct Geometry: Encodable {
        var type: String
        var coordinates: [[Double]]
    }

    static func geoJSON(_ response: CalculateRouteResponse) -> FeatureCollection {
        var features: [Feature] = []
        for (r, route) in response.routes.enumerated() {
            let coords = route.legs.flatMap { $0.points ?? [] }.map { [$0.longitude, $0.latitude] }
            features.append(Feature(geometry: Geometry(type: "LineString", coordinates: coords), properties: [
                "route": String(r), "lengthInMeters": String(route.summary.lengthInMeters),
                "travelTimeInSeconds": String(route.summary.travelTimeInSeconds),
                "departureTime": route.summary.departureTime, "arrivalTime": route.summary.arrivalTime,
            ]))
        }
        for (i, w) in (response.waypoints ?? []).enumerated() {
            features.append(Feature(geometry: Geometry(type: "MultiPoint", coordinates: [[w.snapped.longitude, w.snapped.latitude]]),
                                    properties: ["waypoint": String(i), "name": w.name]))
        }
        return FeatureCollection(features: features)
    }
}

enum JSONOutput {
    static func encode<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

enum Format {
    static func distance(_ meters: Double, imperial: Bool = false) -> String {
        if imperial {
            let feet = meters * 3.28084
            return feet < 1000 ? "\(Int((feet / 10).rounded()) * 10) ft" : String(format: "%.1f mi", meters / 1609.344)
        }
        return meters < 1000 ? "\(Int(meters.rounded())) m" : String(format: "%.1f km", meters / 1000)
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }
}

enum Commands {
    /// Opens a dataset's service.
    /// - Parameters:
    ///   - verify: check every file's checksum before opening (a server starts without and checks
    ///     in the background).
    ///   - graphsReady: for a server starting: the graph file's check is left to it, and routing
    ///     waits for it (for the mode's columns) before reading a mode's graph.
    static func openService(_ path: String, clock: (@Sendable () -> Date)? = nil, limits: ServiceLimits = ServiceLimits(),
                            timeModel: TimeModelSettings = TimeModelSettings(), verify: Bool = true,
                            graphsReady: (@Sendable (Dataset, TravelMode) -> Void)? = nil) throws -> MapsService {
        do {
            let dataset = try Dataset(path: path, verify: verify, deferGraphCheck: graphsReady != nil)
            var ready: (@Sendable (TravelMode) -> Void)?
            if let graphsReady { ready = { graphsReady(dataset, $0) } }
            return try MapsService(dataset: dataset, clock: clock ?? { Date() }, limits: limits, timeModel: timeModel, graphsReady: ready)
        } catch let error as DatasetError {
            throw CommandFailure(error.description, exitCode: ExitCode.noInput)
        }
    }
}
