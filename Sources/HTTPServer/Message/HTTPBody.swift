/// What follows the response headers.
public enum HTTPBody: Sendable {
    /// A complete body in memory; eligible for gzip.
    case bytes([UInt8])
    /// A body produced over time (Server-Sent Events, long polls); sent chunked, never compressed,
    /// and never holding a server thread while idle. See `StreamChannel`.
    case stream(StreamChannel)
    /// An open regular file sent with `sendfile`; never compressed.
    case file(FileBody)

    public static var empty: HTTPBody { .bytes([]) }

    /// The body size in bytes when known in advance (nil for streams).
    public var knownLength: UInt64? {
        switch self {
        case .bytes(let b): UInt64(b.count)
        case .stream: nil
        case .file(let f): f.sizeBytes
        }
    }

    /// The in-memory bytes, or nil for streams and files.
    public var bytes: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }
}
