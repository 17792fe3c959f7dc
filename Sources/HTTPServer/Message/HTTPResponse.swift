/// An HTTP response: status, header fields and a body.
///
/// `Content-Length`, `Transfer-Encoding`, `Date` and `Connection` are managed by the server;
/// setting them here has no effect (except `Connection: close`, which is honoured).
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: HTTPBody

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: HTTPBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        bytes(Array(text.utf8), contentType: "text/plain; charset=utf-8", status: status)
    }

    /// A `text/html; charset=utf-8` response.
    public static func html(_ html: String, status: HTTPStatus = .ok) -> HTTPResponse {
        bytes(Array(html.utf8), contentType: "text/html; charset=utf-8", status: status)
    }

    /// An `application/json` response from already-encoded bytes.
    public static func json(_ encoded: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        bytes(encoded, contentType: "application/json", status: status)
    }

    /// A response with an in-memory body of the given media type.
    public static func bytes(_ body: [UInt8], contentType: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(body))
    }

    /// A response whose body is written later through `channel` (see `StreamChannel`).
    public static func stream(_ channel: StreamChannel, contentType: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .stream(channel))
    }

    /// A response with no body, e.g. `.status(.noContent)`.
    public static func status(_ status: HTTPStatus) -> HTTPResponse { HTTPResponse(status: status) }

    /// A redirect to `location` (already a valid URI reference).
    public static func redirect(to location: String, status: HTTPStatus = .found) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location])
    }
}
