public import Foundation

/// How the traveller moves; decides which roads are allowed and how fast they are.
public enum TravelMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A private car.
    case car
    /// A taxi: a car that may also use taxi lanes.
    case taxi
    /// A bicycle.
    case bicycle
    /// On foot.
    case pedestrian
}

/// What a route minimises (TomTom's `routeType`).
public enum RouteType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Least travel time.
    case fastest
    /// Least distance.
    case shortest
    /// Least fuel, with a little weight on time; for a bicycle, the quiet route (busy and fast roads
    /// without a cycle lane count for more).
    case eco
    /// Winding, interesting roads (see ``RouteRequest/windingness``); not for a bicycle (the server answers 400).
    case thrilling
}

/// Kinds of road a route should keep off (TomTom's `avoid`).
public enum Avoidance: String, Sendable, Hashable, Codable, CaseIterable {
    /// Roads with a toll.
    case tollRoads
    /// Motorways.
    case motorways
    /// Ferries.
    case ferries
    /// Unpaved roads.
    case unpavedRoads
    /// Roads an earlier leg of the same route already used.
    case alreadyUsedRoads
}

/// How much a `thrilling` route prefers winding roads.
public enum Windingness: String, Sendable, Hashable, Codable, CaseIterable {
    /// A little.
    case low
    /// The default.
    case normal
    /// As much as possible.
    case high
}

/// When the trip happens: leave at a moment, or arrive by one.
public enum RouteTiming: Sendable, Hashable {
    /// Leave now (the server's clock).
    case now
    /// Leave at this moment; the route uses the traffic expected then.
    case departAt(Date)
    /// Arrive by this moment; the answer's departure is the latest one that makes it.
    case arriveBy(Date)
}

/// A directions request: where from, where to, through which stops, how and when.
///
/// Build it with the initializer and properties, or fluently:
/// ```swift
/// let request = RouteRequest(from: home, to: airport)
///     .via(school)
///     .travelMode(.taxi)
///     .arriving(by: flight.addingTimeInterval(-3600))
///     .avoiding(.tollRoads)
///     .alternatives(2)
/// ```
public struct RouteRequest: Sendable, Hashable {
    /// Where the route starts.
    public var origin: Coordinate
    /// Where the route ends.
    public var destination: Coordinate
    /// Stops between origin and destination, in the order to visit them (or in the best order
    /// when ``computeBestOrder`` is set).
    public var waypoints: [Coordinate]
    /// How the traveller moves. Default: car.
    public var travelMode: TravelMode = .car
    /// What the route minimises. Default: fastest.
    public var routeType: RouteType = .fastest
    /// Leave now, at a moment, or arrive by one. Default: now.
    public var timing: RouteTiming = .now
    /// Whether live traffic counts; false uses historical speeds only. Default: true.
    public var traffic = true
    /// Kinds of road to keep off where possible.
    public var avoid: Set<Avoidance> = []
    /// Alternative routes wanted besides the best one, 0...5.
    public var maxAlternatives = 0
    /// Reorders ``waypoints`` for the shortest trip (not with alternatives or arrive-by).
    public var computeBestOrder = false
    /// How much a thrilling route winds; nil: the server's default.
    public var windingness: Windingness?
    /// Heading of a moving origin in degrees clockwise from north (0...359), so that the route
    /// starts the way the vehicle faces.
    public var vehicleHeading: Int?
    /// Language of the step instructions (IETF tag, such as `en-GB`); nil: the client's or server's default.
    public var language: String?
    /// Whether to ask for the route's points, steps and instructions (true) or only its summary.
    public var includesGeometry = true

    /// A route from `origin` to `destination`, through `waypoints` in order.
    public init(from origin: Coordinate, to destination: Coordinate, via waypoints: [Coordinate] = []) {
        self.origin = origin
        self.destination = destination
        self.waypoints = waypoints
    }

    /// Every location in visiting order: origin, waypoints, destination.
    public var locations: [Coordinate] { [origin] + waypoints + [destination] }

    // MARK: Fluent building

    /// A copy that also stops at `stops`, after the waypoints already given.
    public func via(_ stops: Coordinate...) -> RouteRequest { with { $0.waypoints += stops } }
    /// A copy with another travel mode.
    public func travelMode(_ mode: TravelMode) -> RouteRequest { with { $0.travelMode = mode } }
    /// A copy with another route type.
    public func routeType(_ type: RouteType) -> RouteRequest { with { $0.routeType = type } }
    /// A copy that leaves at `date`.
    public func departing(at date: Date) -> RouteRequest { with { $0.timing = .departAt(date) } }
    /// A copy that arrives by `date` (the answer says when to leave).
    public func arriving(by date: Date) -> RouteRequest { with { $0.timing = .arriveBy(date) } }
    /// A copy that also avoids `kinds`.
    public func avoiding(_ kinds: Avoidance...) -> RouteRequest { with { $0.avoid.formUnion(kinds) } }
    /// A copy asking for up to `count` alternative routes.
    public func alternatives(_ count: Int) -> RouteRequest { with { $0.maxAlternatives = count } }
    /// A copy that visits the waypoints in the best order.
    public func optimizingWaypointOrder() -> RouteRequest { with { $0.computeBestOrder = true } }
    /// A copy that ignores live traffic (historical speeds only).
    public func ignoringLiveTraffic() -> RouteRequest { with { $0.traffic = false } }
    /// A copy with instructions in `language`.
    public func language(_ language: String) -> RouteRequest { with { $0.language = language } }

    /// A copy that also stops at `stop`, inserted where it lengthens the trip least (by
    /// straight-line distance), as the seed's "Add to my route" does with a place found along the route.
    public func addingStop(_ stop: Coordinate) -> RouteRequest {
        with { request in
            let points = request.locations
            var best = 0
            var bestExtra = Double.infinity
            for i in 0..<(points.count - 1) {
                let extra = points[i].distanceMeters(to: stop) + stop.distanceMeters(to: points[i + 1]) - points[i].distanceMeters(to: points[i + 1])
                if extra < bestExtra { bestExtra = extra; best = i }
            }
            request.waypoints.insert(stop, at: best)
        }
    }

    private func with(_ change: (inout RouteRequest) -> Void) -> RouteRequest {
        var copy = self
        change(&copy)
        return copy
    }

    // MARK: Wire form

    /// `lat,lon:lat,lon…` for the calculateRoute path.
    var locationsPath: String { locations.map(\.pathText).joined(separator: ":") }

    func queryItems(defaultLanguage: String?) -> [(String, String)] {
        // The route's times without traffic and with history only (Route.noTrafficTravelTimeSeconds, …).
        var q: [(String, String)] = [("computeTravelTimeFor", "all")]
        if includesGeometry {
            q.append(("instructionsType", "text"))
            q.append(("routeRepresentation", "polyline"))
        } else {
            q.append(("routeRepresentation", "summaryOnly"))
        }
        if travelMode != .car { q.append(("travelMode", travelMode.rawValue)) }
        if routeType != .fastest { q.append(("routeType", routeType.rawValue)) }
        switch timing {
        case .now: break
        case .departAt(let d): q.append(("departAt", RouteRequest.rfc3339(d)))
        case .arriveBy(let d): q.append(("arriveAt", RouteRequest.rfc3339(d)))
        }
        if !traffic { q.append(("traffic", "false")) }
        for kind in avoid.sorted(by: { $0.rawValue < $1.rawValue }) { q.append(("avoid", kind.rawValue)) }
        if maxAlternatives > 0 { q.append(("maxAlternatives", String(maxAlternatives))) }
        if computeBestOrder { q.append(("computeBestOrder", "true")) }
        if let windingness { q.append(("windingness", windingness.rawValue)) }
        if let vehicleHeading { q.append(("vehicleHeading", String(vehicleHeading))) }
        if let language = language ?? defaultLanguage { q.append(("language", language)) }
        return q
    }

    /// RFC 3339 in UTC with a `Z`, which every server parses.
    static func rfc3339(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }
}
