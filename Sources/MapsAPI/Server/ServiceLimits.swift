/// What one request may ask for: the server's options (`wayfinder serve --max-…`), reported in
/// `/health`. The defaults are TomTom's own limits where it has one.
public struct ServiceLimits: Sendable, Codable, Equatable {
    /// Locations in one route request (origin, waypoints and destination).
    public var maxWaypoints = 150
    /// Alternative routes in one answer (TomTom allows 5; more is never offered).
    public var maxAlternatives = 5
    /// The largest detour budget of a search along a route, in seconds.
    public var maxDetourSeconds = 3600
    /// Results of a search along a route.
    public var maxAlongRouteResults = 20
    /// Points of the route a search along a route is given.
    public var maxAlongRoutePoints = 10_000
    /// Results of any other search.
    public var maxSearchResults = 100
    /// Cells (origins × destinations) of a synchronous matrix (TomTom's own limit is 2,500);
    /// larger ones go through the asynchronous matrix, up to `maxAsyncMatrixCells`.
    public var maxMatrixCells = 2_500
    public var maxAsyncMatrixCells = 1_000_000
    /// The largest isochrone or reachable range, minutes; distance budgets may reach as far as a
    /// car at 120 km/h in that time, fuel budgets 10 L per hour of it.
    public var maxIsochroneMinutes = 120
    /// Fixes of one trace to match (`/match/v1`), and of one probe upload (`/traffic/1/probes`).
    public var maxTracePoints = 10_000

    public init() {}

    /// The hard ceilings the options may be raised to.
    public static let ceilings = ServiceLimits.with { l in
        l.maxWaypoints = 1_000
        l.maxAlternatives = 5
        l.maxDetourSeconds = 3 * 3600
        l.maxAlongRouteResults = 100
        l.maxAlongRoutePoints = 100_000
        l.maxSearchResults = 1_000
        l.maxMatrixCells = 1_000_000
        l.maxAsyncMatrixCells = 4_000_000
        l.maxIsochroneMinutes = 24 * 60
        l.maxTracePoints = 100_000
    }

    /// The largest distance budget, metres.
    public var maxReachMeters: Double { Double(maxIsochroneMinutes) * 2000 }
    /// The largest fuel budget, litres.
    public var maxReachLiters: Double { Double(maxIsochroneMinutes) / 6 }
    /// Cells of an OSRM table: OSRM's own 10,000 even when synchronous matrices are held lower.
    public var maxTableCells: Int { max(maxMatrixCells, 10_000) }

    static func with(_ change: (inout ServiceLimits) -> Void) -> ServiceLimits {
        var l = ServiceLimits()
        change(&l)
        return l
    }
}
