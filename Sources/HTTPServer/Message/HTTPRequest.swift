/// One HTTP request, fully received (the body is buffered, bounded by the server's `maxBodyBytes`).
///
/// A value: handlers are plain functions of it, so tests build one with
/// `try HTTPRequest(method: .get, target: "/a?b=c")` and call the handler directly.
public struct HTTPRequest: Sendable {
    public let method: HTTPMethod
    /// The request-target exactly as received, e.g. `/routing/1/calculateRoute/52.5%2C13.4/json?avoid=ferries`.
    public let target: String
    /// The path as received (still percent-encoded), without the query; `*` for `OPTIONS *`.
    public let path: String
    /// The path split on `/`, each segment percent-decoded (`%2F` stays inside its segment).
    /// "/" is [], "/a/b/" is ["a", "b", ""].
    public let pathSegments: [String]
    /// The decoded query, in order, repeated names kept.
    public let query: QueryParameters
    /// Header fields; names are lower-cased, repeated fields kept in order.
    public var headers: HTTPHeaders
    /// The request body, at most the server's `maxBodyBytes`.
    public var body: [UInt8]
    /// The client's IP address ("127.0.0.1", "::1"), when known.
    public var remoteAddress: String?
    /// Values captured by the route's `{name}` segments, percent-decoded. Set by `Router`
    /// (settable so a handler can be unit-tested without one).
    public var pathParameters: [String: String] = [:]
    /// The decoded segments matched by a route's trailing `*`. Set by `Router`.
    public var wildcardSegments: [String] = []
    /// The route pattern that matched, e.g. "/tiles/{z}/{x}/{y}.png". Set by `Router`.
    public var routePattern: String?

    /// Builds a request from a raw request-target (percent-encoded path plus optional query).
    /// - Throws: `RequestTargetError` for control characters, malformed `%` escapes or invalid UTF-8.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                remoteAddress: String? = nil) throws(RequestTargetError) {
        let parsed: RequestTarget
        switch RequestTarget.parse(Array(target.utf8)) {
        case .success(let t): parsed = t
        case .failure(let e): throw e
        }
        self.init(method: method, target: target, parsed: parsed, headers: headers.lowercasingNames(),
                  body: body, remoteAddress: remoteAddress)
    }

    init(method: HTTPMethod, target: String, parsed: RequestTarget, headers: HTTPHeaders, body: [UInt8],
         remoteAddress: String?) {
        self.method = method
        self.target = target
        self.path = parsed.rawPath
        self.pathSegments = parsed.segments
        self.query = parsed.query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The body as UTF-8 text, or nil when it is not valid UTF-8.
    public var bodyText: String? { String(validating: body, as: UTF8.self) }
}
