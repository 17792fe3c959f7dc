/// TomTom's route types.
public enum RouteType: String, CaseIterable, Sendable, Codable {
    /// Least travel time.
    case fastest
    /// Least distance.
    case shortest
    /// Least fuel by `FuelModel`, with a small weight on time so it never crawls needlessly.
    case eco
    /// Curvy, minor, scenic roads; motorways avoided (see `MetricFactory.thrilling`).
    case thrilling
    /// A bicycle's calm route: time on busy roads without a cycle lane or track counts for more
    /// (OSRM bicycle.lua's `cyclability` weight; see `MetricFactory`). TomTom's `eco` for a bicycle.
    case quiet
}

/// Kinds of road a route can avoid (TomTom's `avoid` values).
public enum Avoidance: String, CaseIterable, Sendable, Codable, Comparable {
    case tollRoads, motorways, ferries, unpavedRoads, alreadyUsedRoads
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// How strongly `thrilling` prefers winding roads (TomTom's `windingness`).
public enum Windingness: String, CaseIterable, Sendable, Codable {
    case low, normal, high
    var strength: Double {
        switch self {
        case .low: 0.5
        case .normal: 1
        case .high: 2
        }
    }
}

/// Everything that changes the weights of a search (and so needs its own CCH customization).
public struct MetricKey: Hashable, Sendable {
    public var routeType: RouteType
    /// Avoidances that come from road facts (alreadyUsedRoads is per query, not here).
    public var avoid: [Avoidance]
    /// Strict: avoided roads are never used. Soft (TomTom's default): used only when there is no
    /// other way, at a heavy penalty.
    public var strict: Bool
    public var windingness: Windingness
    /// Whether live traffic is included in the times (TomTom's `traffic`).
    public var live: Bool
    /// The vehicle's top speed in km/h (TomTom's `vehicleMaxSpeed`): no arc is timed faster, so a
    /// slow vehicle weighs a motorway by what it gains at its own speed; 0: the roads' speeds.
    /// Shortest routes ignore it (length does not depend on speed).
    public var speedCapKmh: Int

    public init(routeType: RouteType = .fastest, avoid: Set<Avoidance> = [], strict: Bool = false,
                windingness: Windingness = .normal, live: Bool = true, speedCapKmh: Int = 0) {
        self.routeType = routeType
        self.avoid = avoid.subtracting([.alreadyUsedRoads]).sorted()
        self.strict = strict
        self.windingness = windingness
        self.live = live
        self.speedCapKmh = routeType == .shortest ? 0 : max(0, speedCapKmh)
    }

    public static let fastest = MetricKey()
}
