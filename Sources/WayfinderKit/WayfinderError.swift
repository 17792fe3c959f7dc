import Foundation

/// Everything a Wayfinder call can fail with, each case carrying the server's own message.
///
/// ```swift
/// do {
///     let routes = try await client.calculateRoute(request)
/// } catch .noRoute(let message) {
///     show("No route: \(message)")
/// } catch .noRoadNearPoint(let message) {
///     show("Pick a point on a road: \(message)")
/// } catch {
///     show(error.message)
/// }
/// ```
public enum WayfinderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The points are on the map but cannot be joined (TomTom `NO_ROUTE_FOUND`, OSRM `NoRoute`),
    /// or no departure meets the requested arrival time.
    case noRoute(String)
    /// A point is too far from any road usable by the travel mode (TomTom `MAP_MATCHING_FAILURE`,
    /// OSRM `NoSegment`).
    case noRoadNearPoint(String)
    /// The server refused the request as malformed or contradictory (HTTP 400 `BAD_INPUT`);
    /// `parameter` names the offending request parameter when the server said which.
    case invalidQuery(String, parameter: String?)
    /// The thing asked for does not exist (HTTP 404): an unknown path, or a watch that expired.
    case notFound(String)
    /// The server could not be reached or could not answer: connection refused, timeout, HTTP
    /// 429 or 5xx, or a reply that is not Wayfinder's (wrong server).
    case serverUnavailable(String)
    /// The server answered 200 but the body is not the JSON (or event stream) this SDK expects,
    /// usually a server newer or older than the SDK.
    case decodingFailed(String)
    /// The calling task was cancelled.
    case cancelled

    /// The server's message (or a description of the local failure).
    public var message: String {
        switch self {
        case .noRoute(let m), .noRoadNearPoint(let m), .invalidQuery(let m, _), .notFound(let m),
             .serverUnavailable(let m), .decodingFailed(let m):
            return m
        case .cancelled:
            return "cancelled"
        }
    }

    /// A one-line description: the kind of failure and the message.
    public var description: String {
        switch self {
        case .noRoute(let m): return "no route: \(m)"
        case .noRoadNearPoint(let m): return "no road near point: \(m)"
        case .invalidQuery(let m, let p): return "invalid query\(p.map { " (\($0))" } ?? ""): \(m)"
        case .notFound(let m): return "not found: \(m)"
        case .serverUnavailable(let m): return "server unavailable: \(m)"
        case .decodingFailed(let m): return "unexpected response: \(m)"
        case .cancelled: return "cancelled"
        }
    }

    /// Whether trying the same request again later may succeed (server unavailable).
    public var isTransient: Bool {
        if case .serverUnavailable = self { return true }
        return false
    }
}
