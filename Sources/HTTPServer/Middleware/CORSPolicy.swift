/// Cross-origin resource sharing for a public, credential-free API.
///
/// Every response gets `Access-Control-Allow-Origin` (unless the handler set one). A preflight
/// (`OPTIONS` with `Access-Control-Request-Method`) is answered with 204 before routing, listing
/// `allowMethods`, the allowed request headers and `Access-Control-Max-Age`.
public struct CORSPolicy: Sendable {
    /// The `Access-Control-Allow-Origin` value; "*" for any origin.
    public var allowOrigin: String
    public var allowMethods: [HTTPMethod]
    /// Request headers a cross-origin request may send; nil echoes whatever the preflight asks for.
    public var allowHeaders: [String]?
    /// Response headers scripts may read besides the CORS-safelisted ones.
    public var exposeHeaders: [String]
    /// How long browsers may cache a preflight answer, in seconds.
    public var maxAgeSeconds: Int

    public init(allowOrigin: String = "*",
                allowMethods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .options],
                allowHeaders: [String]? = nil, exposeHeaders: [String] = [], maxAgeSeconds: Int = 600) {
        self.allowOrigin = allowOrigin
        self.allowMethods = allowMethods
        self.allowHeaders = allowHeaders
        self.exposeHeaders = exposeHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// Any origin, the usual methods, any requested header.
    public static let allowAll = CORSPolicy()

    /// Whether `request` is a CORS preflight.
    public static func isPreflight(_ request: HTTPRequest) -> Bool {
        request.method == .options && request.headers.contains("access-control-request-method")
    }

    /// The 204 answer to a preflight.
    public func preflightResponse(for request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [
            "Access-Control-Allow-Origin": allowOrigin,
            "Access-Control-Allow-Methods": allowMethods.map(\.rawValue).joined(separator: ", "),
            "Access-Control-Max-Age": String(maxAgeSeconds),
        ]
        if let allowHeaders {
            if !allowHeaders.isEmpty { headers.add("Access-Control-Allow-Headers", allowHeaders.joined(separator: ", ")) }
        } else if let requested = request.headers["access-control-request-headers"], !requested.isEmpty {
            headers.add("Access-Control-Allow-Headers", requested)
            headers.add("Vary", "Access-Control-Request-Headers")
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    /// Adds the headers every cross-origin response needs.
    public func decorate(_ response: HTTPResponse) -> HTTPResponse {
        var out = response
        if !out.headers.contains("Access-Control-Allow-Origin") { out.headers.add("Access-Control-Allow-Origin", allowOrigin) }
        if !exposeHeaders.isEmpty, !out.headers.contains("Access-Control-Expose-Headers") {
            out.headers.add("Access-Control-Expose-Headers", exposeHeaders.joined(separator: ", "))
        }
        return out
    }

    /// `handler` with preflights answered and CORS headers added.
    public func wrap(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        let policy = self
        return { request in
            Self.isPreflight(request) ? policy.preflightResponse(for: request) : policy.decorate(handler(request))
        }
    }
}
