import HTTPServer
import MapsService
import MapsAPIMapping

/// The query parameters each OSRM service takes, and the options all of them share (`bearings`,
/// `radiuses`, `approaches`, `snapping`, `exclude`, `hints`, `generate_hints`), read as
/// osrm-routed reads them: a list has one entry per coordinate (empty entries keep the default),
/// a wrong count is `InvalidOptions`. A parameter a service does not take, OSRM's or not, is a
/// 400 `InvalidOptions` naming it rather than silently dropped.
public enum OSRMParameters {
    /// `key` is this server's API key (its access layer), on every service.
    static let common = ["key"]
    public static let route = common + ["alternatives", "steps", "annotations", "geometries", "overview", "continue_straight", "language",
                                        "bearings", "radiuses", "approaches", "snapping", "exclude", "hints", "generate_hints"]
    public static let table = common + ["sources", "destinations", "annotations", "fallback_speed", "fallback_coordinate", "scale_factor",
                                        "bearings", "radiuses", "approaches", "snapping", "exclude", "hints", "generate_hints"]
    public static let nearest = common + ["number", "bearings", "radiuses", "approaches", "snapping", "exclude", "hints", "generate_hints"]
    public static let match = common + ["timestamps", "radiuses", "gaps", "tidy", "steps", "geometries", "annotations", "overview", "language"]

    typealias Failure = OSRMHandlers.Failure

    /// Refuses the first parameter not in `accepted`.
    static func check(_ q: QueryParameters, accepted: [String], service: String) throws(Failure) {
        if let item = q.first(where: { !accepted.contains($0.name) }) {
            throw Failure(code: "InvalidOptions", message: "\(item.name) is not supported by this server's \(service) service")
        }
    }

    /// A `;`-separated list with one entry per coordinate, or nil when the parameter is absent.
    static func list(_ q: QueryParameters, _ name: String, count: Int) throws(Failure) -> [Substring]? {
        guard let text = q[name] else { return nil }
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == count else {
            throw Failure(code: "InvalidOptions", message: "Number of \(name) (\(parts.count)) does not match number of coordinates (\(count))")
        }
        return parts
    }

    /// `bearings`, `radiuses`, `approaches` and `snapping`: how each of `count` points meets the roads.
    static func snapping(_ q: QueryParameters, count: Int, service: MapsService) throws(Failure) -> [WaypointSnapping] {
        var result = [WaypointSnapping](repeating: WaypointSnapping(), count: count)
        for (i, part) in try list(q, "bearings", count: count)?.enumerated() ?? [].enumerated() where !part.isEmpty {
            let pair = part.split(separator: ",", omittingEmptySubsequences: false)
            guard pair.count == 2, let value = Double(pair[0]), let range = Double(pair[1]), (0...360).contains(value), (0...180).contains(range) else {
                throw Failure(code: "InvalidOptions", message: "bearings: \"\(part.prefix(20))\" at \(i) is not value,range with value in 0...360 and range in 0...180")
            }
            result[i].bearing = (value, range)
        }
        for (i, part) in try list(q, "radiuses", count: count)?.enumerated() ?? [].enumerated() where !part.isEmpty && part != "unlimited" {
            guard let meters = Double(part), meters.isFinite, meters >= 0 else {
                throw Failure(code: "InvalidOptions", message: "radiuses: \"\(part.prefix(20))\" at \(i) is not a non-negative number or unlimited")
            }
            result[i].radiusMeters = meters
        }
        for (i, part) in try list(q, "approaches", count: count)?.enumerated() ?? [].enumerated() where !part.isEmpty {
            switch part {
            case "unrestricted": break
            case "curb": result[i].curb = service.drivingSide
            case "opposite": result[i].curb = service.drivingSide == .right ? .left : .right
            default: throw Failure(code: "InvalidOptions", message: "approaches: \"\(part.prefix(20))\" at \(i) is not supported: use curb, opposite or unrestricted")
            }
        }
        // `any` lets OSRM snap to roads its profile marks as no start point; every road of this
        // server's graphs is one, so both values snap alike.
        guard ["default", "any"].contains(q["snapping"] ?? "default") else {
            throw Failure(code: "InvalidOptions", message: "snapping must be default or any")
        }
        _ = try list(q, "hints", count: count)  // accepted and ignored: hints only speed up OSRM's own snapping
        return result
    }

    /// `generate_hints` (default true): false leaves `hint` out of the waypoints. The hints given
    /// are empty (every request snaps afresh), so clients that send them back lose nothing.
    static func generateHints(_ q: QueryParameters) throws(Failure) -> Bool {
        try OSRMHandlers.bool(q["generate_hints"] ?? "true", "generate_hints")
    }

    /// `exclude`: classes of road never to use (OSRM's car profile: motorway, toll, ferry).
    static func exclude(_ q: QueryParameters) throws(Failure) -> Set<Vocabulary.OSRMExclude> {
        guard let text = q["exclude"] else { return [] }
        var result: Set<Vocabulary.OSRMExclude> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let avoidance = Vocabulary.osrmExcludes[String(name)] else {
                throw Failure(code: "InvalidValue", message: "exclude: \"\(name.prefix(20))\" is not a class of this profile; use motorway, toll or ferry, comma-separated")
            }
            result.insert(avoidance)
        }
        return result
    }
}
