public import MapsAPI

/// Why a watch was refused or could not be changed: the API error (TomTom's shape and status)
/// and, for refusals, what the seed's message does not say ("leaving now arrives 12 min late").
public struct WatchError: Error, CustomStringConvertible, Sendable {
    public var apiError: APIError
    public var detail: String?
    /// For a refusal by a cap: when to try again (`Retry-After`).
    public var retryAfterSeconds: Int?

    public init(_ apiError: APIError, detail: String? = nil, retryAfterSeconds: Int? = nil) {
        self.apiError = apiError
        self.detail = detail
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var code: APIError.Code { apiError.code }
    public var message: String { apiError.message }
    public var description: String { detail.map { "\(apiError.message) (\($0))" } ?? apiError.message }

    static func badInput(_ message: String, parameter: String) -> WatchError {
        WatchError(APIError.badInput(message, parameter: parameter))
    }
}
