/// A Server-Sent Events response: a `StreamChannel` plus SSE formatting.
///
/// ```swift
/// router.get("/events") { request in
///     let stream = EventStream(request: request)
///     producer.subscribe(stream, resumingAfter: stream.lastEventID)
///     return stream.response
/// }
/// ```
/// The channel sends a `: keep-alive` comment after `heartbeatInterval` of silence so proxies
/// keep the connection and a vanished browser is noticed; `isClosed`/`onClose` tell the producer
/// to stop.
public struct EventStream: Sendable {
    public let channel: StreamChannel
    /// The `Last-Event-ID` the browser sent when reconnecting; resume after it.
    public let lastEventID: String?

    public init(request: HTTPRequest, heartbeatInterval: Duration = .seconds(15), maxBufferedBytes: Int = 1 << 20) {
        lastEventID = request.lastEventID
        channel = StreamChannel(
            maxBufferedBytes: maxBufferedBytes,
            heartbeat: .init(bytes: Array(ServerSentEvent.comment("keep-alive").utf8), interval: heartbeatInterval))
    }

    /// 200 `text/event-stream`, uncached, with proxy buffering disabled.
    public var response: HTTPResponse {
        var response = HTTPResponse.stream(channel, contentType: "text/event-stream; charset=utf-8")
        response.headers.add("Cache-Control", "no-cache")
        response.headers.add("X-Accel-Buffering", "no")
        return response
    }

    /// Queues one event; false once the stream is closed.
    @discardableResult
    public func send(_ event: ServerSentEvent) -> Bool { channel.send(event.encoded) }

    /// Queues a comment (ignored by the browser).
    @discardableResult
    public func comment(_ text: String) -> Bool { channel.send(ServerSentEvent.comment(text)) }

    /// Ends the stream after buffered events. Remember that the browser reconnects unless the
    /// next attempt is answered with 204.
    public func close() { channel.close() }

    public var isClosed: Bool { channel.isClosed }

    public func onClose(_ handler: @escaping @Sendable (StreamChannel.CloseReason) -> Void) { channel.onClose(handler) }
}

extension HTTPRequest {
    /// The `Last-Event-ID` header a reconnecting `EventSource` sends, if any and non-empty.
    public var lastEventID: String? {
        guard let id = headers["last-event-id"], !id.isEmpty else { return nil }
        return id
    }
}
