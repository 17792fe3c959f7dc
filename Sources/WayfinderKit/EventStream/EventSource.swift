public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Server-Sent Events stream as an `AsyncSequence`, reconnecting like a browser's `EventSource`.
///
/// The connection opens when iteration starts and closes when it stops (a `break`, the end of
/// the loop, or the task's cancellation). When the connection drops, it reconnects after the
/// server's `retry:` delay (or ``Configuration/reconnectDelay``), sending `Last-Event-ID` so the
/// server resumes after the last event received. HTTP 204 ends the sequence normally; any other
/// non-200 answer ends it with the server's error, except 429 and 5xx, which are retried.
///
/// FoundationNetworking on Linux has no `URLSession.bytes(for:)`, so bytes come through a
/// data delegate as they arrive; the same code runs on Apple platforms.
///
/// ```swift
/// for try await event in EventSource(url: url) {
///     print(event.type, event.data)
/// }
/// ```
public struct EventSource: AsyncSequence, Sendable {
    /// The events, in the order the server sent them.
    public typealias Element = ServerSentEvent

    /// Reconnection and timeout behaviour.
    public struct Configuration: Sendable {
        /// Seconds to wait before reconnecting until the server sends `retry:`. Default 3.
        public var reconnectDelay: TimeInterval = 3
        /// Consecutive attempts that bring no event (refused, 5xx, closed at once) before the
        /// sequence fails with the last error; nil retries forever, as a browser does. Default 5.
        /// Waits double after each such attempt, up to 60 s.
        public var maxReconnectAttempts: Int? = 5
        /// Seconds without a byte (events or the server's keep-alive comments) after which the
        /// connection counts as dead and is reopened. Default 60 (Wayfinder sends a comment every 15 s).
        public var idleTimeout: TimeInterval = 60
        /// Whether to reconnect at all; false ends the sequence when the first connection ends.
        public var reconnects = true

        /// The defaults: 3 s first delay, 5 attempts, 60 s idle timeout, reconnecting.
        public init() {}
    }

    /// The stream's URL.
    public let url: URL
    /// Extra request headers (authorization for a proxy, say).
    public let headers: [String: String]
    /// The ID to resume after on the first connection (sent as `Last-Event-ID`); nil: from the start.
    public let lastEventID: String?
    /// Reconnection and timeout behaviour.
    public let configuration: Configuration

    /// A stream of the events at `url`, resuming after `lastEventID` when given.
    public init(url: URL, headers: [String: String] = [:], lastEventID: String? = nil, configuration: Configuration = Configuration()) {
        self.url = url
        self.headers = headers
        self.lastEventID = lastEventID
        self.configuration = configuration
    }

    /// Opens the stream (lazily, at the first `next()`).
    public func makeAsyncIterator() -> Iterator { Iterator(source: self) }

    /// Delivers the events; not to be shared between tasks.
    public struct Iterator: AsyncIteratorProtocol {
        let source: EventSource
        var base: AsyncThrowingStream<ServerSentEvent, any Error>.Iterator?
        var finished = false

        init(source: EventSource) { self.source = source }

        /// The next event; nil when the server ended the stream with 204 or the task was cancelled.
        public mutating func next() async throws(WayfinderError) -> ServerSentEvent? {
            if finished { return nil }
            if base == nil { base = EventSourceDriver.start(source).makeAsyncIterator() }
            do {
                if let event = try await base!.next() { return event }
                finished = true
                return nil
            } catch {
                finished = true
                if Task.isCancelled { return nil }
                throw ErrorMapping.transport(error, url: source.url)
            }
        }
    }
}

/// Runs the connect / read / reconnect loop in a task of its own, feeding an AsyncThrowingStream.
enum EventSourceDriver {
    static func start(_ source: EventSource) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run(source, continuation: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func run(_ source: EventSource, continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation) async throws {
        let config = source.configuration
        var parser = ServerSentEventParser(lastEventID: source.lastEventID ?? "")
        var failures = 0
        while true {
            try Task.checkCancellation()
            parser.reset()
            var request = URLRequest(url: source.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: config.idleTimeout)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
            request.setValue(WayfinderClient.userAgent, forHTTPHeaderField: "User-Agent")
            for (name, value) in source.headers { request.setValue(value, forHTTPHeaderField: name) }
            if !parser.lastEventID.isEmpty { request.setValue(parser.lastEventID, forHTTPHeaderField: "Last-Event-ID") }

            var receivedEvent = false
            var failure: WayfinderError?
            var errorStatus: Int?
            var errorBody = Data()
            let connection = EventStreamConnection(request: request, idleTimeout: config.idleTimeout)
            do {
                for try await chunk in connection.chunks {
                    switch chunk {
                    case .response(let status, let contentType):
                        if status == 204 { return }
                        if status != 200 {
                            errorStatus = status
                        } else if !(contentType ?? "").lowercased().hasPrefix("text/event-stream") {
                            throw WayfinderError.decodingFailed("\(source.url.path) answered \(contentType ?? "no content type"), not text/event-stream")
                        }
                    case .data(let data):
                        if errorStatus != nil {
                            if errorBody.count < 65_536 { errorBody.append(data) }
                            continue
                        }
                        for event in parser.parse(data) {
                            receivedEvent = true
                            continuation.yield(event)
                        }
                    }
                }
            } catch let error as WayfinderError {
                throw error
            } catch {
                try Task.checkCancellation()
                failure = ErrorMapping.transport(error, url: source.url)
                if failure == .cancelled { throw CancellationError() }
            }
            if let status = errorStatus {
                let error = ErrorMapping.error(status: status, body: errorBody)
                guard error.isTransient else { throw error }
                failure = error
            }
            guard config.reconnects else {
                if let failure { throw failure }
                return
            }
            failures = receivedEvent ? 0 : failures + 1
            if let max = config.maxReconnectAttempts, failures > max {
                throw failure ?? WayfinderError.serverUnavailable("the event stream at \(source.url.path) ended \(failures) times without an event")
            }
            var delay = parser.retryMilliseconds.map { Double($0) / 1000 } ?? config.reconnectDelay
            if failures > 1 { delay = min(60, delay * pow(2, Double(failures - 1))) }
            try await Task.sleep(nanoseconds: UInt64(max(0, delay) * 1_000_000_000))
        }
    }
}

/// One HTTP connection of an event stream: a URLSession of its own whose data delegate forwards
/// the response head and each chunk of bytes as they arrive.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Chunk: Sendable {
        case response(status: Int, contentType: String?)
        case data(Data)
    }

    let chunks: AsyncThrowingStream<Chunk, any Error>
    private let continuation: AsyncThrowingStream<Chunk, any Error>.Continuation?

    init(request: URLRequest, idleTimeout: TimeInterval) {
        var captured: AsyncThrowingStream<Chunk, any Error>.Continuation?
        chunks = AsyncThrowingStream(bufferingPolicy: .unbounded) { captured = $0 }
        continuation = captured
        super.init()
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = 7 * 86_400
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // The session keeps its delegate (self) until it is invalidated, below, when the
        // connection ends either way.
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let task = session.dataTask(with: request)
        let handle = SessionHandle(session: session, task: task)
        // A stream that finished by itself has already invalidated its session (below); one the
        // reader abandoned (a break, a cancelled task) is cancelled here.
        captured?.onTermination = { termination in
            if case .cancelled = termination { handle.cancel() }
        }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        continuation?.yield(.response(status: http?.statusCode ?? 0, contentType: http?.value(forHTTPHeaderField: "Content-Type")))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation?.yield(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation?.finish(throwing: error)
        } else {
            continuation?.finish()
        }
        session.finishTasksAndInvalidate()
    }
}

/// The session and task of a connection, cancelled together from any thread.
final class SessionHandle: @unchecked Sendable {
    let session: URLSession
    let task: URLSessionDataTask
    init(session: URLSession, task: URLSessionDataTask) {
        self.session = session
        self.task = task
    }
    func cancel() {
        task.cancel()
        session.invalidateAndCancel()
    }
}
