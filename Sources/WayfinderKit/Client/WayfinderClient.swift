public import Foundation
public import MapsAPI
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A connection to one Wayfinder server (`wayfinder serve`): routes, places, time to leave and
/// live traffic, as async calls that throw ``WayfinderError``.
///
/// The client is a small value: copy it freely and share it across tasks. Every call honours
/// task cancellation (the HTTP request is cancelled and the call throws ``WayfinderError/cancelled``).
///
/// ```swift
/// let client = WayfinderClient(serverURL: URL(string: "http://127.0.0.1:8080")!)
/// let response = try await client.calculateRoute(RouteRequest(from: home, to: work))
/// for step in response.routes[0].steps { print(step.instructions) }
/// ```
public struct WayfinderClient: Sendable {
    /// Options shared by every call of a client.
    public struct Configuration: Sendable {
        /// Seconds a request may wait for the server before failing with ``WayfinderError/serverUnavailable(_:)``.
        public var timeout: TimeInterval = 30
        /// Sent as TomTom's `key` parameter: the API key of a server run with `--api-keys` (or of a gateway in front of it).
        public var apiKey: String?
        /// Sent as `Authorization: Bearer …` on every request: the operator credential that writing traffic and probes
        /// needs on a server with `--operator-token-file` or operator keys.
        public var operatorToken: String?
        /// Extra HTTP headers on every request (for example `Authorization` for a proxy).
        public var headers: [String: String] = [:]
        /// Language of instruction texts and place names (IETF tag such as `en-GB`); nil: the one of
        /// ``locale`` when the server has instructions in it, else the server's default.
        public var language: String?
        /// The locale whose language instructions are given in when ``language`` is nil (as MapKit
        /// follows the device's language): the user's, unless set.
        public var locale: Locale = .current
        /// Reconnection behaviour of event streams (time to leave).
        public var eventStream = EventSource.Configuration()

        /// The defaults: 30 s timeout, no key, no extra headers, the server's language.
        public init() {}
    }

    /// The server's root URL, such as `http://127.0.0.1:8080` (a path prefix behind a proxy is kept).
    public let serverURL: URL
    /// The options this client was made with.
    public let configuration: Configuration
    let session: URLSession

    /// A client of the server at `serverURL`.
    /// - Parameter session: the URL session for plain requests (event streams open their own).
    public init(serverURL: URL, configuration: Configuration = Configuration(), session: URLSession = .shared) {
        self.serverURL = serverURL
        self.configuration = configuration
        self.session = session
    }

    /// A client of the server at `url` (such as `"http://127.0.0.1:8080"`); nil when it is not an http(s) URL.
    public init?(_ url: String, configuration: Configuration = Configuration()) {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil else {
            return nil
        }
        self.init(serverURL: u, configuration: configuration)
    }

    /// The language asked for: the configured one, else the locale's when instructions exist in it.
    var requestLanguage: String? { configuration.language ?? InstructionLanguages.tag(for: configuration.locale) }

    /// What the server serves: dataset, travel modes, time zone, traffic updates (`GET /health`).
    public func serverStatus() async throws(WayfinderError) -> ServerStatus {
        try await get("/health", as: ServerStatus.self)
    }
}

/// The server's self-description (`GET /health`).
public typealias ServerStatus = ServerHealth

extension ServerHealth {
    /// The travel modes as ``TravelMode`` values (unknown names skipped).
    public var travelModes: [TravelMode] { profiles.compactMap(TravelMode.init(rawValue:)) }
}
