import Foundation
import Testing
import HTTPServer
import WayfinderKit

typealias ClientEvent = WayfinderKit.ServerSentEvent
typealias WireEvent = HTTPServer.ServerSentEvent

/// A tiny SSE server on 127.0.0.1 (the HTTPServer module's `EventStream`), for the client's
/// connection, resume, end and failure behaviour independent of any maps endpoint.
final class EventTestServer: Sendable {
    let server: MicroHTTPDServer
    let url: URL
    /// `run` parameter and `Last-Event-ID` ("" when absent) of every connection to `/numbers`.
    let numbersResumes = Recorder<(run: String, lastEventID: String)>()
    /// Connections to `/silent`.
    let silentConnections = Recorder<Int>()
    /// Connections to `/heartbeat`.
    let heartbeatConnections = Recorder<Int>()
    /// Connections to `/flaky`.
    let flakyAttempts = Recorder<Int>()
    /// Channels of `/idle` streams.
    let idleChannels = Recorder<StreamChannel>()
    /// Answers the slow `/health` has sent (a minute after each request).
    let slowAnswers = Recorder<Int>()

    init() throws {
        var router = Router()
        let slowAnswers = slowAnswers
        let resumes = numbersResumes, attempts = flakyAttempts, idle = idleChannels, silent = silentConnections, heartbeat = heartbeatConnections
        // 1...9 in batches of three per connection, then 204: the client must reconnect twice,
        // resuming after the last id, and end cleanly.
        router.get("/numbers") { request in
            let after = Int(request.lastEventID ?? "0") ?? 0
            resumes.add((request.query["run"] ?? "", request.lastEventID ?? ""))
            if after >= 9 { return .status(.noContent) }
            let stream = EventStream(request: request)
            stream.send(WireEvent(retryMilliseconds: 50))
            stream.comment("batch after \(after)")
            for n in (after + 1)...(after + 3) {
                stream.send(WireEvent(id: "\(n)", event: n % 2 == 0 ? "even" : nil, data: "n=\(n)\nsquare=\(n * n)"))
            }
            stream.close()
            return stream.response
        }
        router.get("/idle") { request in
            let stream = EventStream(request: request, heartbeatInterval: .milliseconds(200))
            idle.add(stream.channel)
            stream.send(WireEvent(id: "1", event: "hello", data: "first"))
            return stream.response
        }
        // One event, then keep-alive comments every 200 ms.
        router.get("/heartbeat") { request in
            heartbeat.add(1)
            let stream = EventStream(request: request, heartbeatInterval: .milliseconds(200))
            stream.send(WireEvent(id: "1", data: "first"))
            return stream.response
        }
        // One event, then nothing at all for a minute: not even keep-alive comments.
        router.get("/silent") { request in
            silent.add(1)
            let stream = EventStream(request: request, heartbeatInterval: .seconds(60))
            stream.send(WireEvent(id: "1", data: "only"))
            return stream.response
        }
        router.get("/flaky") { _ in
            attempts.add(1)
            return .json(Array(#"{"detailedError":{"code":"SERVICE_UNAVAILABLE","message":"warming up"}}"#.utf8), status: HTTPStatus(503))
        }
        router.get("/missing") { _ in
            .json(Array(#"{"detailedError":{"code":"NOT_FOUND","message":"no watch abc"},"error":{"description":"no watch abc"},"formatVersion":"0.0.12","httpStatusCode":404}"#.utf8), status: .notFound)
        }
        router.get("/plain") { _ in .text("not events") }
        router.get("/health") { _ in  // slow, for the cancellation test
            usleep(60_000_000)
            slowAnswers.add(1)
            return .text("late")
        }
        router.get("/routing/1/calculateRoute/{locations}/{contentType}") { _ in .json(Array(#"{"routes":5}"#.utf8)) }
        var config = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
        // Streams and the slow endpoint each hold a worker while open.
        config.workerThreads = 8
        config.errorLog = nil
        config.streamWatchInterval = .milliseconds(50)
        server = MicroHTTPDServer(configuration: config, handler: router.handler)
        try server.start()
        url = URL(string: "http://127.0.0.1:\(server.port)")!
    }

    static let shared: EventTestServer? = try? EventTestServer()

    func source(_ path: String, _ change: (inout EventSource.Configuration) -> Void = { _ in }) -> EventSource {
        var config = EventSource.Configuration()
        config.reconnectDelay = 0.05
        change(&config)
        return EventSource(url: URL(string: url.absoluteString + "/" + path)!, configuration: config)
    }
}

@Suite("EventSource over loopback", .timeLimit(.minutes(3)))
struct EventSourceTests {
    let server: EventTestServer

    init() throws { server = try #require(EventTestServer.shared) }

    @Test("events arrive in order across reconnections, resuming with Last-Event-ID, and 204 ends the sequence")
    func resumesAfterTheLastEventAndEndsOn204() async throws {
        let source = server.source("numbers?run=order")
        let events = try await withDeadline(20) {
            var events: [ClientEvent] = []
            for try await event in source { events.append(event) }
            return events
        }
        #expect(events.map(\.lastEventID) == (1...9).map(String.init))
        #expect(events.map(\.data) == (1...9).map { "n=\($0)\nsquare=\($0 * $0)" })
        #expect(events.map(\.type) == (1...9).map { $0 % 2 == 0 ? "even" : "message" })
        #expect(server.numbersResumes.all.filter { $0.run == "order" }.map(\.lastEventID) == ["", "3", "6", "9"])
    }

    @Test func aGivenLastEventIDResumesTheFirstConnection() async throws {
        let source = EventSource(url: URL(string: server.url.absoluteString + "/numbers?run=given")!, lastEventID: "6", configuration: {
            var c = EventSource.Configuration(); c.reconnectDelay = 0.05; return c
        }())
        let ids = try await withDeadline(10) {
            var ids: [String] = []
            for try await event in source { ids.append(event.lastEventID) }
            return ids
        }
        #expect(ids == ["7", "8", "9"])
    }

    @Test("breaking out of the loop closes the connection on the server")
    func stoppingClosesTheStream() async throws {
        let before = server.idleChannels.all.count
        let first = try await withDeadline(10) { [server] in
            var iterator = server.source("idle").makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(first == ClientEvent(type: "hello", data: "first", lastEventID: "1"))
        #expect(await eventually(within: 20) { server.idleChannels.all.count > before })
        let channel = try #require(server.idleChannels.all.last)
        #expect(await eventually(within: 20) { channel.isClosed }, "the server never saw the client go")
    }

    @Test("the server's keep-alive comments hold an idle stream open past the idle timeout")
    func heartbeatsKeepTheConnection() async throws {
        let before = server.heartbeatConnections.all.count
        let source = server.source("heartbeat") { $0.idleTimeout = 1 }
        let received = Recorder<String>()
        let task = Task {
            for try await event in source { received.add(event.data) }
        }
        #expect(await eventually(within: 20) { received.all == ["first"] })
        try await Task.sleep(nanoseconds: 3_000_000_000)
        // One connection all along: no timeout fired, so no reconnection (which would replay "first").
        #expect(received.all == ["first"])
        #expect(server.heartbeatConnections.all.count - before == 1)
        task.cancel()
    }

    @Test("a silent connection is dropped after the idle timeout and reopened")
    func silenceReconnects() async throws {
        let before = server.silentConnections.all.count
        let source = server.source("silent") { $0.idleTimeout = 1 }
        let task = Task { for try await _ in source {} }
        #expect(await eventually(within: 20) { server.silentConnections.all.count - before >= 2 })
        task.cancel()
    }

    @Test("cancelling the consuming task ends the sequence and the connection")
    func cancellation() async throws {
        let before = server.idleChannels.all.count
        let source = server.source("idle")
        let received = Recorder<String>()
        let task = Task {
            for try await event in source { received.add(event.data) }
            return "ended"
        }
        #expect(await eventually(within: 20) { received.all == ["first"] })
        task.cancel()
        let outcome = try await withDeadline(20) { try await task.value }
        #expect(outcome == "ended")
        let channel = try #require(server.idleChannels.all.dropFirst(before).first)
        #expect(await eventually(within: 20) { channel.isClosed })
    }

    @Test("a 404 ends the sequence at once with the server's message")
    func notFound() async throws {
        await #expect(throws: WayfinderError.notFound("no watch abc")) {
            try await withDeadline(10) { [server] in
                for try await _ in server.source("missing") {}
            }
        }
    }

    @Test func aResponseThatIsNotAnEventStreamIsADecodingFailure() async throws {
        let error = await #expect(throws: WayfinderError.self) {
            try await withDeadline(10) { [server] in
                for try await _ in server.source("plain") {}
            }
        }
        guard case .decodingFailed(let message)? = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(message.contains("text/plain"))
    }

    @Test("503 is retried a bounded number of times, then reported")
    func unavailableIsRetriedThenReported() async throws {
        let before = server.flakyAttempts.all.count
        await #expect(throws: WayfinderError.serverUnavailable("warming up")) {
            try await withDeadline(20) { [server] in
                for try await _ in server.source("flaky", { $0.maxReconnectAttempts = 2 }) {}
            }
        }
        #expect(server.flakyAttempts.all.count - before == 3)
    }

    @Test func connectionRefusedIsServerUnavailable() async throws {
        var config = EventSource.Configuration()
        config.reconnectDelay = 0.01
        config.maxReconnectAttempts = 1
        let source = EventSource(url: URL(string: "http://127.0.0.1:9/events")!, configuration: config)
        let error = await #expect(throws: WayfinderError.self) {
            try await withDeadline(20) { for try await _ in source {} }
        }
        #expect(error?.isTransient == true)
    }

    @Test("a plain request is cancelled with its task")
    func requestCancellation() async throws {
        let client = WayfinderClient(serverURL: server.url)
        let started = Date()
        let task = Task { try await client.serverStatus() }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        await #expect(throws: WayfinderError.cancelled) { try await task.value }
        // The slow server answers after a minute; a cancelled request must not wait for it.
        #expect(server.slowAnswers.all.isEmpty, "the request waited for the slow server")
        #expect(Date().timeIntervalSince(started) < 60)
        _ = client
    }

    @Test func aBodyThatIsNotTheExpectedJSONIsADecodingFailure() async throws {
        let client = WayfinderClient(serverURL: server.url)
        let error = await #expect(throws: WayfinderError.self) {
            try await client.calculateRoute(RouteRequest(from: Coordinate(latitude: 1, longitude: 1), to: Coordinate(latitude: 2, longitude: 2)))
        }
        guard case .decodingFailed(let message)? = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(message.contains("routes"))
    }
}
