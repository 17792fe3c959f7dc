import Synchronization

/// The producer side of a streaming response body (Server-Sent Events, chunked feeds).
///
/// A handler creates a channel, returns `HTTPResponse.stream(channel, …)` and hands the channel
/// to whatever produces data. Any thread may call `send` and `close`. An idle stream holds no
/// server thread: the connection is suspended in libmicrohttpd and resumed when data arrives.
///
/// The channel closes exactly once, for one `CloseReason`; after that `send` returns false and
/// the `onClose` handlers have run. Producers should stop when `isClosed` turns true.
///
/// Memory: bytes not yet taken by the connection are buffered; past `maxBufferedBytes` (a client
/// that stopped reading) the channel closes with `.overflow` and the connection is dropped.
public final class StreamChannel: Sendable {
    public enum CloseReason: Sendable, Equatable {
        /// `close()` was called; buffered bytes are still delivered, then the body ends.
        case finished
        /// The client went away (or the request was HEAD, so no body is sent).
        case disconnected
        /// The client fell more than `maxBufferedBytes` behind.
        case overflow
        /// The server is stopping; buffered bytes are still delivered, then the body ends.
        case serverStopping
    }

    /// Bytes written when the stream has been idle for `interval` (e.g. an SSE comment), so
    /// proxies keep the connection open and a vanished client is noticed.
    public struct Heartbeat: Sendable {
        public var bytes: [UInt8]
        public var interval: Duration
        public init(bytes: [UInt8], interval: Duration) { self.bytes = bytes; self.interval = interval }
    }

    /// What the connection should do after asking for bytes.
    enum ReadOutcome: Equatable {
        case bytes(Int)
        /// Nothing buffered: the connection was suspended until `send`/`close` resumes it.
        case suspended
        case end
        case abort
    }

    struct State {
        var buffer: [UInt8] = []
        var readOffset = 0
        var closeReason: CloseReason?
        /// Set when the connection must be dropped rather than ended cleanly.
        var abort = false
        var attachment: StreamAttachment?
        var suspended = false
        var closeHandlers: [@Sendable (CloseReason) -> Void] = []
        var lastWrite = ContinuousClock.now
        var bytesAccepted = 0
    }

    public let maxBufferedBytes: Int
    public let heartbeat: Heartbeat?
    let state = Mutex(State())

    /// - Parameters:
    ///   - maxBufferedBytes: how far the client may fall behind before the stream is dropped.
    ///   - heartbeat: idle keep-alive bytes; the server checks about once per `streamWatchInterval`.
    public init(maxBufferedBytes: Int = 1 << 20, heartbeat: Heartbeat? = nil) {
        self.maxBufferedBytes = maxBufferedBytes
        self.heartbeat = heartbeat
    }

    /// Queues bytes for the client. Returns false (and drops them) once the channel is closed.
    @discardableResult
    public func send(_ bytes: some Sequence<UInt8>) -> Bool {
        var wake: StreamAttachment?
        var fire: [@Sendable (CloseReason) -> Void] = []
        let accepted = state.withLock { s -> Bool in
            guard s.closeReason == nil else { return false }
            let before = s.buffer.count
            s.buffer.append(contentsOf: bytes)
            s.bytesAccepted += s.buffer.count - before
            s.lastWrite = .now
            if s.buffer.count - s.readOffset > maxBufferedBytes {
                s.closeReason = .overflow
                s.abort = true
                s.buffer = []
                s.readOffset = 0
                fire = s.closeHandlers
                s.closeHandlers = []
                // The connection is probably blocked writing to a client that stopped reading,
                // so libmicrohttpd will not ask for more data: cut the socket.
                if !s.suspended { s.attachment?.abortConnection() }
            }
            if s.suspended, let a = s.attachment { s.suspended = false; wake = a }
            return s.closeReason == nil
        }
        wake?.resume()
        for handler in fire { handler(.overflow) }
        return accepted
    }

    /// Queues UTF-8 text.
    @discardableResult
    public func send(_ text: String) -> Bool { send(text.utf8) }

    /// Ends the body after the buffered bytes. Idempotent.
    public func close() { finish(.finished, abort: false) }

    /// Whether the channel no longer accepts data.
    public var isClosed: Bool { state.withLock { $0.closeReason != nil } }

    /// Why the channel closed, or nil while open.
    public var closeReason: CloseReason? { state.withLock { $0.closeReason } }

    /// Total bytes accepted by `send` so far.
    public var bytesAccepted: Int { state.withLock { $0.bytesAccepted } }

    /// Registers `handler` to run once when the channel closes (immediately if it already has).
    /// It runs on the thread that closed the channel (possibly a server thread): keep it short.
    public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
        let reason = state.withLock { s -> CloseReason? in
            if let r = s.closeReason { return r }
            s.closeHandlers.append(handler)
            return nil
        }
        if let reason { handler(reason) }
    }

    // MARK: Server side

    func finish(_ reason: CloseReason, abort: Bool) {
        var wake: StreamAttachment?
        let fire = state.withLock { s -> [@Sendable (CloseReason) -> Void] in
            if abort {
                s.abort = true
                if !s.suspended { s.attachment?.abortConnection() }
            }
            if s.suspended, let a = s.attachment, s.closeReason == nil || abort { s.suspended = false; wake = a }
            guard s.closeReason == nil else { return [] }
            s.closeReason = reason
            defer { s.closeHandlers = [] }
            return s.closeHandlers
        }
        wake?.resume()
        for handler in fire { handler(reason) }
    }

    /// Binds the channel to a connection.
    func attach(_ attachment: StreamAttachment) {
        state.withLock { $0.attachment = attachment }
    }

    /// Unbinds the channel when the connection's response is released. A channel still open at
    /// that point lost its client.
    func detach() {
        state.withLock { s in
            s.attachment = nil
            s.suspended = false
        }
        finish(.disconnected, abort: true)
    }

    /// Copies buffered bytes into `destination`. When nothing is buffered and the stream is open,
    /// calls `suspend` while still holding the lock, so a concurrent `send` resumes strictly after
    /// the suspension.
    func read(into destination: UnsafeMutableRawBufferPointer, suspend: () -> Void) -> ReadOutcome {
        state.withLock { s in
            if s.abort { return .abort }
            let available = s.buffer.count - s.readOffset
            if available > 0 {
                let n = min(available, destination.count)
                s.buffer.withUnsafeBytes { source in
                    destination.baseAddress!.copyMemory(from: source.baseAddress! + s.readOffset, byteCount: n)
                }
                s.readOffset += n
                if s.readOffset == s.buffer.count {
                    s.buffer.removeAll(keepingCapacity: s.buffer.capacity <= 64 * 1024)
                    s.readOffset = 0
                } else if s.readOffset >= 64 * 1024 {
                    s.buffer.removeFirst(s.readOffset)
                    s.readOffset = 0
                }
                return .bytes(n)
            }
            if s.closeReason != nil { return .end }
            s.suspended = true
            suspend()
            return .suspended
        }
    }

    /// Drops the stream if its suspended connection's peer has gone. Called by the server's watcher.
    func checkPeer() {
        var wake: StreamAttachment?
        state.withLock { s in
            guard s.suspended, let a = s.attachment, a.peerHasHungUp() else { return }
            s.suspended = false
            wake = a
        }
        if let wake {
            finish(.disconnected, abort: true)
            wake.resume()
        }
    }

    /// Sends the heartbeat if nothing was written for its interval.
    func heartbeatIfIdle(now: ContinuousClock.Instant) {
        guard let heartbeat else { return }
        let idle = state.withLock { s in
            s.closeReason == nil && s.attachment != nil && now - s.lastWrite >= heartbeat.interval
        }
        if idle { send(heartbeat.bytes) }
    }
}

/// How a channel wakes its connection and checks on its client; provided by the server.
///
/// `peerHasHungUp` and `abortConnection` touch the connection's socket, so they are only called
/// while holding the channel's lock with the attachment in place: the server detaches (taking
/// the same lock) before libmicrohttpd closes the socket, so the descriptor is still open.
final class StreamAttachment: Sendable {
    let resume: @Sendable () -> Void
    let peerHasHungUp: @Sendable () -> Bool
    let abortConnection: @Sendable () -> Void

    init(resume: @escaping @Sendable () -> Void, peerHasHungUp: @escaping @Sendable () -> Bool,
         abortConnection: @escaping @Sendable () -> Void = {}) {
        self.resume = resume
        self.peerHasHungUp = peerHasHungUp
        self.abortConnection = abortConnection
    }
}
