/// TomTom's `detailedError`, the same object in routing and search error bodies: a code, the
/// message and the parameter at fault (`target`; search bodies always carry it, empty when none).
public struct DetailedError: Codable, Sendable, Equatable {
    /// `BAD_INPUT`, `NO_ROUTE_FOUND` (routing); `BadRequest`, `NotFound` (search); …
    public var code: String
    public var message: String
    public var target: String?

    public init(code: String, message: String, target: String? = nil) {
        self.code = code
        self.message = message
        self.target = target
    }
}
