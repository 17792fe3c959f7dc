import Foundation
import Dataset
import MapsAPI
import MapsService
import GeoCore
import RoadNetwork

enum RouteCommand {
    static let usage = """
    USAGE: wayfinder route DATASET_DIR --from LAT,LON --to LAT,LON [--via LAT,LON]... [options]

    Computes a route and prints it. `json` is the TomTom Calculate Route document (with the
    snapped waypoints added); `geojson` a FeatureCollection; `polyline`/`polyline6` Google's
    encoded polyline at precision 5 or 6; `text` a summary for people.

    OPTIONS:
      --from LAT,LON          origin (required)
      --to LAT,LON            destination (required)
      --via LAT,LON           an intermediate waypoint; repeat for more, in order
      --mode MODE             car (default), taxi, bicycle, pedestrian
      --format FORMAT         text (default), json, geojson, polyline, polyline6
      --help                  show this help
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["from", "to", "via", "mode", "format"])
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
        try a.checkAllUsed()

        let service = try Commands.openService(a.positional[0])
        let query = RouteQuery(waypoints: [from] + vias + [to], mode: mode)
        let response: CalculateRouteResponse
        do {
            response = try service.calculateRoute(query)
        } catch {
            throw CommandFailure(error.message, exitCode: error.code == .badInput ? ExitCode.usage : ExitCode.answerIsNo)
        }
        print(try RouteOutput.render(response, format: format, mode: mode))
    }
}

enum RouteOutput {
    static func render(_ response: CalculateRouteResponse, format: String, mode: TravelMode) throws -> String {
        switch format {
        case "json": return try JSONOutput.encode(response)
        case "geojson": return try JSONOutput.encode(geoJSON(response))
        case "polyline", "polyline6":
            let points = (response.routes.first?.legs ?? []).flatMap { $0.points ?? [] }
                .map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            return PolylineCodec.encode(points, precision: format == "polyline6" ? 6 : 5)
        default: return text(response, mode: mode)
        }
    }

    static func text(_ response: CalculateRouteResponse, mode: TravelMode) -> String {
        guard let route = response.routes.first else { return "no route" }
        let s = route.summary
        var lines = ["\(mode.rawValue) route: \(Format.distance(Double(s.lengthInMeters))), \(Format.duration(Double(s.travelTimeInSeconds)))",
                     "  leave \(s.departureTime), arrive \(s.arrivalTime)"]
        if route.legs.count > 1 {
            for (i, leg) in route.legs.enumerated() {
                lines.append("  leg \(i + 1): \(Format.distance(Double(leg.summary.lengthInMeters))), \(Format.duration(Double(leg.summary.travelTimeInSeconds)))")
            }
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
    static func distance(_ meters: Double) -> String {
        meters < 1000 ? "\(Int(meters.rounded())) m" : String(format: "%.1f km", meters / 1000)
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }
}

enum Commands {
    static func openService(_ path: String) throws -> MapsService {
        do {
            return MapsService(dataset: try Dataset(path: path))
        } catch let error as DatasetError {
            throw CommandFailure(error.description, exitCode: ExitCode.noInput)
        }
    }
}
