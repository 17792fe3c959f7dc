/// Bad traffic input: which file, which line, what was wrong.
public struct TrafficError: Error, CustomStringConvertible, Sendable {
    public var source: String
    public var line: Int?
    public var reason: String

    public init(source: String, line: Int? = nil, _ reason: String) {
        self.source = source
        self.line = line
        self.reason = reason
    }

    public var description: String {
        line.map { "\(source) line \($0): \(reason)" } ?? "\(source): \(reason)"
    }
}
