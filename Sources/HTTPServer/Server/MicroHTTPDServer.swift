import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd that calls one `HTTPHandler` per request.
///
/// ```swift
/// var router = Router()
/// router.get("/health") { _ in .text("ok") }
/// let server = MicroHTTPDServer(configuration: .init(host: "127.0.0.1", port: 8080), handler: router.handler)
/// try server.start()
/// // … later, e.g. after TerminationSignals.wait():
/// server.stop()
/// ```
///
/// Handlers run on `workerThreads` libmicrohttpd threads, concurrently; a handler blocks its
/// worker (and that worker's other connections) until it returns, so keep them short and use a
/// `StreamChannel` for long-lived responses, which hold no thread while idle.
/// Thread-safe: `start`, `stop` and `port` may be called from any thread, but `stop` must not be
/// called from inside a handler (it waits for in-flight handlers, including that one).
public final class MicroHTTPDServer: Sendable {
    private enum Lifecycle {
        case idle
        case running(MHDBridge.Daemon, port: UInt16, watcher: StreamWatcher)
        case stopped
    }

    public let configuration: MicroHTTPDServer.Configuration
    let core: ServerCore
    private let lifecycle = Mutex<Lifecycle>(.idle)

    public init(configuration: MicroHTTPDServer.Configuration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.core = ServerCore(configuration: configuration, handler: handler)
    }

    deinit { stop(gracePeriod: .zero) }

    /// Binds and starts serving. Throws if the address cannot be bound or the server was
    /// already started (a stopped server cannot be restarted; create a new one).
    public func start() throws(ServerError) {
        try lifecycle.withLock { state throws(ServerError) in
            guard case .idle = state else { throw ServerError(kind: .alreadyStarted) }
            switch MHDBridge.start(core) {
            case .success(let (daemon, port)):
                state = .running(daemon, port: port, watcher: StreamWatcher(core: core))
            case .failure(let error):
                throw error
            }
        }
    }

    /// The bound port (the real one when the configuration asked for 0); 0 when not running.
    public var port: UInt16 {
        lifecycle.withLock { state in
            if case .running(_, let port, _) = state { return port }
            return 0
        }
    }

    public var isRunning: Bool {
        lifecycle.withLock { state in
            if case .running = state { return true }
            return false
        }
    }

    /// Requests being processed (headers received, response not yet finished), streams included.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Stops gracefully: stop accepting connections, end open streams after their buffered
    /// bytes, let in-flight requests finish (at most `gracePeriod`), then close everything.
    /// Idempotent; returns when the server is fully stopped.
    public func stop(gracePeriod: Duration = .seconds(10)) {
        let running = lifecycle.withLock { state -> (MHDBridge.Daemon, StreamWatcher)? in
            guard case .running(let daemon, _, let watcher) = state else { return nil }
            state = .stopped
            return (daemon, watcher)
        }
        guard let (daemon, watcher) = running else { return }
        core.draining.store(true, ordering: .relaxed)
        let listenSocket = MHDBridge.quiesce(daemon)
        core.closeAllStreams(abort: false)
        let deadline = ContinuousClock.now + gracePeriod
        while core.inFlight.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
            usleep(2_000)
        }
        // No connection may stay suspended when the daemon stops: drop what is left.
        core.closeAllStreams(abort: true)
        watcher.cancel()
        MHDBridge.stop(daemon, listenSocket: listenSocket)
    }
}

