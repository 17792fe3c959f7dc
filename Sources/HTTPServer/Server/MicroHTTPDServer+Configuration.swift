#if canImport(Glibc)
import Glibc
#endif

extension MicroHTTPDServer {
    /// Network limits and cross-cutting behaviour. Every limit is enforced before the handler runs.
    public struct Configuration: Sendable {
        /// Address to bind: an IPv4/IPv6 literal or a resolvable name. "::" binds both families.
        public var host: String
        /// TCP port; 0 picks a free one (read it back from `MicroHTTPDServer.port`).
        public var port: UInt16
        /// libmicrohttpd worker threads (each runs an epoll loop and the handlers of its connections).
        public var workerThreads: Int
        /// Open connections at most; further ones are refused at accept.
        public var maxConnections: Int
        /// Open connections per client IP at most; 0 = unlimited (use 0 behind a reverse proxy).
        public var maxConnectionsPerIP: Int
        /// Per-connection memory for the request line, headers and I/O buffers, in bytes.
        /// A request line plus headers that do not fit is answered by libmicrohttpd itself
        /// (414 or 431) without reaching the application.
        public var connectionMemoryLimitBytes: Int
        /// Longest accepted request-target (path + query), in bytes; longer ones get 414.
        public var maxURLBytes: Int
        /// Largest accepted request body, in bytes; a larger declared `Content-Length` gets 413
        /// before the body is read, a larger chunked body is discarded and answered 413 (and the
        /// connection is dropped if the client keeps sending more than twice this).
        public var maxBodyBytes: Int
        /// Seconds a connection may be idle (no bytes in either direction) before it is closed;
        /// bounds slow clients (slowloris). Idle suspended streams are exempt. 0 disables it.
        public var connectionTimeoutSeconds: Int
        /// gzip for in-memory bodies; nil disables compression.
        public var compression: CompressionPolicy?
        /// CORS headers and preflight answers; nil disables CORS.
        public var cors: CORSPolicy?
        /// Receives one entry per finished request; nil disables the access log.
        public var accessLog: (@Sendable (AccessLogEntry) -> Void)?
        /// Receives libmicrohttpd's own error messages; nil silences them.
        public var errorLog: (@Sendable (String) -> Void)?
        /// Shapes the errors this module produces itself (400 bad target, 413, 414).
        public var errorResponder: ErrorResponder
        /// How often open streams are checked for vanished clients and idle heartbeats.
        public var streamWatchInterval: Duration

        public init(host: String = "127.0.0.1", port: UInt16 = 8080) {
            self.host = host
            self.port = port
            let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
            workerThreads = max(2, cores > 0 ? cores : 2)
            maxConnections = 4096
            maxConnectionsPerIP = 0
            connectionMemoryLimitBytes = 64 * 1024
            maxURLBytes = 8 * 1024
            maxBodyBytes = 1 << 20
            connectionTimeoutSeconds = 30
            compression = CompressionPolicy()
            cors = nil
            accessLog = nil
            errorLog = { message in StandardError.write("microhttpd: " + message) }
            errorResponder = HTTPError.defaultResponder
            streamWatchInterval = .seconds(1)
        }
    }
}

/// Unbuffered, thread-safe writes to file descriptor 2 (one `write` per line).
enum StandardError {
    static func write(_ line: String) {
        var text = line
        if !text.hasSuffix("\n") { text += "\n" }
        _ = text.utf8.withContiguousStorageIfAvailable { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
