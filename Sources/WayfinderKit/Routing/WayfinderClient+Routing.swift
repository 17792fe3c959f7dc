public import Foundation
import MapsAPI

extension WayfinderClient {
    /// Plans routes for `request` (TomTom Calculate Route), with steps and advisory notices.
    ///
    /// - Throws: ``WayfinderError/noRoute(_:)`` when the locations cannot be joined or no
    ///   departure meets an arrive-by time, ``WayfinderError/noRoadNearPoint(_:)`` when a location
    ///   is off the road network, ``WayfinderError/invalidQuery(_:parameter:)`` for contradictory options.
    public func calculateRoute(_ request: RouteRequest) async throws(WayfinderError) -> RouteResponse {
        try Self.validate(request)
        let data = try await send(Endpoint("GET", "/routing/1/calculateRoute/\(request.locationsPath)/json",
                                           query: request.queryItems(defaultLanguage: requestLanguage)))
        return try RouteResponse(ResponseDecoding.decode(CalculateRouteResponse.self, from: data), request: request)
    }

    /// Travel times and distances from every origin to every destination (OSRM's table service),
    /// like MKDirections' `calculateETA` for many places at once.
    ///
    /// At most 10,000 pairs. A pair with no route has nil entries.
    public func travelTimes(from origins: [Coordinate], to destinations: [Coordinate],
                            travelMode: TravelMode = .car) async throws(WayfinderError) -> TravelTimeMatrix {
        guard !origins.isEmpty, !destinations.isEmpty else {
            throw .invalidQuery("give at least one origin and one destination", parameter: "locations")
        }
        for c in origins + destinations where !c.isValid {
            throw .invalidQuery("\(c) is not a valid coordinate", parameter: "locations")
        }
        let all = origins + destinations
        let coordinates = all.map { "\(Coordinate.degrees($0.longitude, 7)),\(Coordinate.degrees($0.latitude, 7))" }.joined(separator: ";")
        let sources = origins.indices.map(String.init).joined(separator: ";")
        let targets = destinations.indices.map { String(origins.count + $0) }.joined(separator: ";")
        let profile = switch travelMode {
        case .car: "driving"
        case .taxi: "taxi"
        case .bicycle: "cycling"
        case .pedestrian: "walking"
        }
        let data = try await send(Endpoint("GET", "/table/v1/\(profile)/\(coordinates)",
                                           query: [("sources", sources), ("destinations", targets), ("annotations", "duration,distance")]))
        let table = try ResponseDecoding.decode(OSRM.TableResponse.self, from: data)
        guard table.code == "Ok" else { throw ErrorMapping.error(status: 400, body: data) }
        return TravelTimeMatrix(origins: origins, destinations: destinations, table: table)
    }

    static func validate(_ r: RouteRequest) throws(WayfinderError) {
        for (i, c) in r.locations.enumerated() where !c.isValid {
            throw .invalidQuery("location \(i) (\(c.latitude), \(c.longitude)) is not a valid coordinate", parameter: "locations")
        }
        guard (0...5).contains(r.maxAlternatives) else {
            throw .invalidQuery("maxAlternatives must be in 0...5", parameter: "maxAlternatives")
        }
        if let h = r.vehicleHeading, !(0...359).contains(h) {
            throw .invalidQuery("vehicleHeading must be in 0...359 degrees", parameter: "vehicleHeading")
        }
    }
}

/// Travel times and distances between every origin and every destination.
public struct TravelTimeMatrix: Sendable {
    /// The origins, in the order given.
    public var origins: [Coordinate]
    /// The destinations, in the order given.
    public var destinations: [Coordinate]
    /// `travelTimesSeconds[i][j]`: seconds from origin i to destination j; nil when there is no route.
    public var travelTimesSeconds: [[Double?]]
    /// `distancesMeters[i][j]`: metres from origin i to destination j; nil when there is no route.
    public var distancesMeters: [[Double?]]

    init(origins: [Coordinate], destinations: [Coordinate], table: OSRM.TableResponse) {
        self.origins = origins
        self.destinations = destinations
        let empty = Array(repeating: Array(repeating: Double?.none, count: destinations.count), count: origins.count)
        travelTimesSeconds = table.durations ?? empty
        distancesMeters = table.distances ?? empty
    }

    /// Seconds from `origin` to `destination` (indices), nil when unreachable.
    public func travelTime(from origin: Int, to destination: Int) -> Double? { travelTimesSeconds[origin][destination] }
}

/// Directions as MapKit's MKDirections gives them: make one with a request, then `calculate()`.
///
/// ```swift
/// let directions = Directions(RouteRequest(from: here, to: there).alternatives(1), client: client)
/// let response = try await directions.calculate()
/// for route in response.routes { print(route.distanceMeters, route.advisoryNotices) }
/// ```
public struct Directions: Sendable {
    /// What to plan.
    public var request: RouteRequest
    /// The server to ask.
    public var client: WayfinderClient

    /// Directions for `request` from `client`'s server.
    public init(_ request: RouteRequest, client: WayfinderClient) {
        self.request = request
        self.client = client
    }

    /// The routes, best first, with steps and notices.
    public func calculate() async throws(WayfinderError) -> RouteResponse {
        try await client.calculateRoute(request)
    }

    /// Only the travel time, distance and times of the best route (no points or steps).
    public func calculateETA() async throws(WayfinderError) -> ETA {
        var summary = request
        summary.includesGeometry = false
        summary.maxAlternatives = 0
        let route = try await client.calculateRoute(summary).route
        return ETA(travelTimeSeconds: route.travelTimeSeconds, distanceMeters: route.distanceMeters,
                   departureTime: route.departureTime, arrivalTime: route.arrivalTime)
    }

    /// The short answer of ``Directions/calculateETA()``.
    public struct ETA: Sendable, Hashable {
        /// Expected travel time in seconds, traffic included.
        public var travelTimeSeconds: Int
        /// Route length in metres.
        public var distanceMeters: Int
        /// When the trip starts.
        public var departureTime: Date
        /// When the trip ends.
        public var arrivalTime: Date
    }
}
