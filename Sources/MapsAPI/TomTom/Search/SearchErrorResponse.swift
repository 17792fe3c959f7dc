/// A search error in both of TomTom's variants at once (`errorText` and `error`), with
/// `detailedError{code, message, target}` and the HTTP status.
public struct SearchErrorResponse: Codable, Sendable, Equatable {
    public var errorText: String
    public var error: String
    public var httpStatusCode: Int
    public var detailedError: DetailedError

    public init(message: String, httpStatusCode: Int = 400, code: String = "BadRequest", target: String = "") {
        errorText = message
        error = message
        self.httpStatusCode = httpStatusCode
        detailedError = DetailedError(code: code, message: message, target: target)
    }
}
