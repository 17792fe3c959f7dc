/// Reverse geocoding with nothing near: HTTP 200 `{"error": "Unable to geocode"}`.
public struct NominatimNotFound: Codable, Sendable, Equatable {
    public var error: String
    public init(error: String = "Unable to geocode") { self.error = error }
}

/// Bad input: HTTP 400 `{"error": {"code": 400, "message": "…"}}`.
public struct NominatimErrorResponse: Codable, Sendable, Equatable {
    public var error: Detail
    public struct Detail: Codable, Sendable, Equatable {
        public var code: Int
        public var message: String
    }
    public init(code: Int = 400, message: String) { error = Detail(code: code, message: message) }
}
