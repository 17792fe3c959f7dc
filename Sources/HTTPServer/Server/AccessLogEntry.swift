/// One finished request, as reported to `Configuration.accessLog`.
public struct AccessLogEntry: Sendable, CustomStringConvertible {
    /// The request method, or "-" when libmicrohttpd rejected the request before it was parsed.
    public var method: String
    /// The path as received (still percent-encoded), without the query.
    public var path: String
    public var status: Int
    /// Response body bytes handed to the connection (0 for HEAD and for bodiless statuses).
    public var bodyBytes: Int
    /// From the end of the request line to the end of the response (hours for a stream).
    public var duration: Duration
    public var remoteAddress: String?
    /// False when the connection failed, timed out or was cut by shutdown before the response ended.
    public var completed: Bool

    /// The duration in milliseconds.
    public var milliseconds: Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// `127.0.0.1 GET /path 200 1234B 0.42ms`, with ` incomplete` appended for failed connections.
    /// Control characters in the path are escaped so a line is always one line.
    public var description: String {
        let ms = (milliseconds * 100).rounded() / 100
        var line = "\(remoteAddress ?? "-") \(method) \(Self.escaped(path)) \(status) \(bodyBytes)B \(ms)ms"
        if !completed { line += " incomplete" }
        return line
    }

    /// A sink that writes `description` lines to standard error.
    public static let standardError: @Sendable (AccessLogEntry) -> Void = { StandardError.write($0.description) }

    static func escaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " }) else { return s }
        return s.unicodeScalars.map { c in
            guard c.value < 0x20 || c.value == 0x7F || c == " " else { return String(c) }
            let hex = String(c.value, radix: 16, uppercase: true)
            return "%" + (hex.count < 2 ? "0" + hex : hex)
        }.joined()
    }
}
