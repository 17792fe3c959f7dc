/// An error as the native API answers it, in TomTom's shape:
/// `{"formatVersion":"0.0.12","error":{"description":…},"detailedError":{"code":…,"message":…}}`,
/// with the HTTP status TomTom uses (400 for bad input and for no route).
public struct APIError: Error, Codable, Sendable, CustomStringConvertible {
    public enum Code: String, Codable, Sendable {
        case badInput = "BAD_INPUT"
        case noRouteFound = "NO_ROUTE_FOUND"
        case mapMatchingFailure = "MAP_MATCHING_FAILURE"
        case notFound = "NOT_FOUND"
        case tooBig = "TOO_BIG"
        case methodNotAllowed = "METHOD_NOT_ALLOWED"
        case rateLimited = "RATE_LIMITED"
        case unauthorized = "FORBIDDEN"
        /// No credential where one is needed (HTTP 401, with `WWW-Authenticate: Bearer`).
        case unauthenticated = "UNAUTHORIZED"
        case unavailable = "SERVICE_UNAVAILABLE"
        case internalError = "INTERNAL_ERROR"
    }

    public var code: Code
    public var message: String
    /// The request parameter that was wrong, when one was.
    public var parameter: String?

    public init(_ code: Code, _ message: String, parameter: String? = nil) {
        self.code = code
        self.message = message
        self.parameter = parameter
    }

    public var httpStatus: Int {
        switch code {
        case .badInput, .noRouteFound, .mapMatchingFailure: 400
        case .notFound: 404
        case .tooBig: 413
        case .methodNotAllowed: 405
        case .rateLimited: 429
        case .unauthorized: 403
        case .unauthenticated: 401
        case .unavailable: 503
        case .internalError: 500
        }
    }

    public var description: String { message }

    public static func badInput(_ message: String, parameter: String? = nil) -> APIError {
        APIError(.badInput, message, parameter: parameter)
    }

    /// The body TomTom clients read (`error.description`, then `detailedError.message`).
    public struct Body: Codable, Sendable {
        public var formatVersion = "0.0.12"
        public var error: Description
        public var detailedError: DetailedError
        public var httpStatusCode: Int
        /// What a refusal has to say beyond the message (time to leave: "leaving now arrives 12 min late").
        public var detail: String?

        public struct Description: Codable, Sendable { public var description: String }
    }

    public var body: Body { body(detail: nil) }

    /// The body with `detail` beside the message.
    public func body(detail: String?) -> Body {
        Body(error: .init(description: message), detailedError: .init(code: code.rawValue, message: message, target: parameter),
             httpStatusCode: httpStatus, detail: detail)
    }

    enum CodingKeys: String, CodingKey { case code, message, parameter }
}
