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
        l.maxTracePoints = 100_000
    }

    static func with(_ change: (inout ServiceLimits) -> Void) -> ServiceLimits {
        var l = ServiceLimits()
        change(&l)
        return l
    }
}
