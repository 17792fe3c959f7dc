/// Per-request state kept between libmicrohttpd callbacks.
///
/// Created by the URI logger callback, released by the request-completed callback. libmicrohttpd
/// runs all callbacks of one connection on one worker thread, so this is never shared.
final class RequestContext {
    enum Phase { case headers, body, responded }

    /// The request-target exactly as received.
    let rawTarget: [UInt8]
    let start: ContinuousClock.Instant
    var phase = Phase.headers
    var method = "-"
    var headers = HTTPHeaders()
    var remoteAddress: String?
    var target: RequestTarget?
    /// An error decided on the headers, answered once the (discarded) body is in.
    var pendingError: HTTPError?
    var body: [UInt8] = []
    /// Body bytes thrown away after `pendingError` was set.
    var discardedBytes = 0
    /// Whether this request counts towards the server's in-flight total.
    var counted = false
    var status: Int?
    var bodyBytes = 0
    var stream: StreamBinding?

    init(rawTarget: [UInt8], start: ContinuousClock.Instant) {
        self.rawTarget = rawTarget
        self.start = start
    }

    /// The path part of the raw target, for logs (lossy UTF-8, at most 1 KiB).
    var logPath: String {
        if let target { return target.rawPath }
        let end = rawTarget.firstIndex(of: UInt8(ascii: "?")) ?? rawTarget.endIndex
        return String(decoding: rawTarget[..<min(end, 1024)], as: UTF8.self)
    }
}

/// Ties a stream response to its connection; owned by libmicrohttpd's response (through an
/// `Unmanaged` retain released in the free callback) and by the request context.
final class StreamBinding {
    let channel: StreamChannel
    let connection: ConnectionHandle
    /// Body bytes handed to libmicrohttpd so far.
    var bytesSent = 0
    /// The server that registered the stream (weak: a response may outlive a stopped server).
    weak var core: ServerCore?

    init(channel: StreamChannel, connection: ConnectionHandle) {
        self.channel = channel
        self.connection = connection
    }
}

/// A libmicrohttpd connection pointer that may cross threads. Only valid while the connection
/// is alive; `StreamChannel` guarantees it is resumed only while suspended (and thus alive).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
