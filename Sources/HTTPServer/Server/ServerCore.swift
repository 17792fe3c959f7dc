import Synchronization

/// The state shared by the server's C callbacks: configuration, the composed handler pipeline,
/// counters for graceful shutdown, and the open streams.
final class ServerCore: Sendable {
    let configuration: MicroHTTPDServer.Configuration
    /// The application handler with CORS applied.
    let handler: HTTPHandler
    /// Requests whose headers arrived and whose response has not finished.
    let inFlight = Atomic<Int>(0)
    /// Request contexts alive (leak check for tests).
    let liveContexts = Atomic<Int>(0)
    /// Set by `stop()`: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    private let streams = Mutex<[ObjectIdentifier: StreamChannel]>([:])

    init(configuration: MicroHTTPDServer.Configuration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = configuration.cors.map { $0.wrap(handler) } ?? handler
    }

    /// Runs the pipeline for a complete request: CORS + handler, then compression.
    func respond(to request: HTTPRequest) -> HTTPResponse {
        finish(handler(request), for: request)
    }

    /// The response for an error this module detected itself.
    func respond(to error: HTTPError, request: HTTPRequest?, acceptEncoding: String?) -> HTTPResponse {
        var response = configuration.errorResponder(error, request)
        if let cors = configuration.cors { response = cors.decorate(response) }
        if let compression = configuration.compression {
            response = compression.apply(to: response, acceptEncoding: acceptEncoding)
        }
        return response
    }

    private func finish(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard let compression = configuration.compression else { return response }
        return compression.apply(to: response, acceptEncoding: request.headers["accept-encoding"])
    }

    // MARK: Streams

    func register(_ channel: StreamChannel) {
        streams.withLock { $0[ObjectIdentifier(channel)] = channel }
    }

    func unregister(_ channel: StreamChannel) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    var openStreams: Int { streams.withLock { $0.count } }

    private var allStreams: [StreamChannel] { streams.withLock { Array($0.values) } }

    /// Heartbeats and vanished-client checks; called every `streamWatchInterval`.
    func watchStreams() {
        let now = ContinuousClock.now
        for channel in allStreams {
            channel.checkPeer()
            channel.heartbeatIfIdle(now: now)
        }
    }

    /// Ends every stream: cleanly (after buffered bytes) or by dropping the connection.
    func closeAllStreams(abort: Bool) {
        for channel in allStreams { channel.finish(.serverStopping, abort: abort) }
    }
}
