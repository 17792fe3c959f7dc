import Foundation
import Synchronization
import Testing
import MapsTestSupport
@testable import HTTPServer

/// Hands the channels that handlers create to the test.
final class ChannelBox: Sendable {
    private let channels = Mutex<[StreamChannel]>([])
    func add(_ c: StreamChannel) { channels.withLock { $0.append(c) } }
    var all: [StreamChannel] { channels.withLock { $0 } }
    var count: Int { channels.withLock { $0.count } }
}

@Suite("Streaming responses over loopback", .serialized, .timeLimit(.minutes(2)))
struct StreamingServerTests {
    static func handler(_ box: ChannelBox, heartbeat: Duration = .seconds(15)) -> HTTPHandler {
        var router = Router()
        router.get("/events") { request in
            let stream = EventStream(request: request, heartbeatInterval: heartbeat)
            box.add(stream.channel)
            if let last = request.lastEventID { stream.comment("resuming after \(last)") }
            return stream.response
        }
        router.get("/plain") { _ in .text("plain") }
        return router.handler
    }

    /// Opens an event stream and returns the connection positioned at the first chunk.
    static func openStream(_ port: UInt16, headers: [String] = []) throws -> RawHTTPConnection {
        let c = try RawHTTPConnection(port: port)
        try c.request("GET", "/events", headers: headers)
        let head = try c.readHead()
        guard head.status == 200, head.header("content-type")?.hasPrefix("text/event-stream") == true,
              head.header("transfer-encoding") == "chunked" else {
            throw RawHTTPConnection.Failure(description: "unexpected stream head \(head)")
        }
        return c
    }

    @Test func eventsPushedFromAnotherThreadArriveAndTheStreamEnds() throws {
        let box = ChannelBox()
        try withServer(handler: Self.handler(box)) { server in
            let c = try Self.openStream(server.port, headers: ["Last-Event-ID: 41"])
            #expect(eventually { box.count == 1 })
            let channel = box.all[0]
            let producer = TestThread {
                for i in 1...5 {
                    usleep(30_000)
                    channel.send(ServerSentEvent(id: "\(41 + i)", event: "tick", data: "n=\(i)\nsecond line").encoded)
                }
                channel.close()
            }
            var text = ""
            while let chunk = try c.readChunk() { text += String(decoding: chunk, as: UTF8.self) }
            #expect(producer.join())
            #expect(text.hasPrefix(": resuming after 41\n"))
            let events = StreamingTests.parse(text)
            #expect(events.map(\.data) == (1...5).map { "n=\($0)\nsecond line" })
            #expect(events.map(\.id) == (42...46).map { "\($0)" })
            #expect(channel.closeReason == .finished)
            // The connection is reusable after the stream's last chunk.
            try c.request("GET", "/plain")
            #expect(try c.readResponse().text == "plain")
        }
    }

    @Test func clientDisconnectIsDetectedWhileIdle() throws {
        let box = ChannelBox()
        try withServer({ $0.streamWatchInterval = .milliseconds(50) }, handler: Self.handler(box)) { server in
            let c = try Self.openStream(server.port)
            #expect(eventually { box.count == 1 })
            let channel = box.all[0]
            let reason = Locked<StreamChannel.CloseReason?>(nil)
            channel.onClose { r in reason.value = r }
            channel.send("data: first\n\n")
            #expect(try c.readChunk().map { String(decoding: $0, as: UTF8.self) } == "data: first\n\n")
            #expect(!channel.isClosed)
            c.closeNow()
            // No producer activity at all: the watcher notices the hang-up.
            #expect(eventually(timeout: .seconds(3)) { reason.value == .disconnected })
            #expect(!channel.send("data: nobody listens\n\n"))
            #expect(eventually { server.core.openStreams == 0 && server.requestsInFlight == 0 })
        }
    }

    @Test func clientDisconnectIsDetectedByWritesWithoutTheWatcher() throws {
        let box = ChannelBox()
        // A watcher interval far longer than the test: only failing writes can reveal the disconnect.
        try withServer({ $0.streamWatchInterval = .seconds(600) }, handler: Self.handler(box)) { server in
            let c = try Self.openStream(server.port)
            #expect(eventually { box.count == 1 })
            let channel = box.all[0]
            c.closeNow()
            let deadline = ContinuousClock.now + .seconds(5)
            while !channel.isClosed && ContinuousClock.now < deadline {
                channel.send("data: ping\n\n")
                usleep(20_000)
            }
            #expect(channel.isClosed)
            #expect(channel.closeReason == .disconnected)
        }
    }

    @Test func idleStreamsDoNotHoldWorkerThreads() throws {
        let box = ChannelBox()
        try withServer({ $0.workerThreads = 1 }, handler: Self.handler(box)) { server in
            let streams = try (0..<20).map { _ in try Self.openStream(server.port) }
            #expect(eventually { box.count == 20 })
            // With one worker thread, any stream pinning it would starve these requests.
            let c = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
            for _ in 0..<50 {
                try c.request("GET", "/plain")
                #expect(try c.readResponse().text == "plain")
            }
            // And every stream is still live and deliverable.
            for channel in box.all { channel.send("data: still here\n\n") }
            for s in streams { #expect(try s.readChunk().map { String(decoding: $0, as: UTF8.self) } == "data: still here\n\n") }
            #expect(server.requestsInFlight == 20)
        }
    }

    @Test func heartbeatKeepsAnIdleStreamTalking() throws {
        let box = ChannelBox()
        try withServer({ $0.streamWatchInterval = .milliseconds(50) }, handler: Self.handler(box, heartbeat: .milliseconds(100))) { server in
            let c = try Self.openStream(server.port)
            let chunk = try c.readChunk()
            #expect(chunk.map { String(decoding: $0, as: UTF8.self) } == ": keep-alive\n")
        }
    }

    @Test func stopEndsOpenStreamsCleanly() throws {
        let box = ChannelBox()
        var configuration = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.errorLog = nil
        let server = MicroHTTPDServer(configuration: configuration, handler: Self.handler(box))
        try server.start()
        let c = try Self.openStream(server.port)
        #expect(eventually { box.count == 1 })
        box.all[0].send("data: last words\n\n")
        let started = ContinuousClock.now
        server.stop(gracePeriod: .seconds(5))
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(box.all[0].closeReason == .serverStopping)
        var text = ""
        while let chunk = try c.readChunk() { text += String(decoding: chunk, as: UTF8.self) }
        #expect(text == "data: last words\n\n")
    }

    @Test func headOnAStreamRouteClosesTheChannel() throws {
        let box = ChannelBox()
        try withServer(handler: Self.handler(box)) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("HEAD", "/events")
            let head = try c.readResponse(method: "HEAD")
            #expect(head.status == 200)
            #expect(eventually { box.count == 1 })
            #expect(box.all[0].closeReason == .disconnected)
            #expect(server.core.openStreams == 0)
        }
    }

    @Test func slowReaderOverflowsAndIsDropped() throws {
        let box = ChannelBox()
        var router = Router()
        router.get("/firehose") { _ in
            let channel = StreamChannel(maxBufferedBytes: 64 * 1024)
            box.add(channel)
            return .stream(channel, contentType: "application/octet-stream")
        }
        try withServer(handler: router.handler) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("GET", "/firehose")
            _ = try c.readHead()
            #expect(eventually { box.count == 1 })
            let channel = box.all[0]
            // The client reads nothing; socket buffers fill, then the channel's buffer.
            let block = [UInt8](repeating: 65, count: 16 * 1024)
            #expect(eventually(timeout: .seconds(10)) { !channel.send(block) })
            #expect(channel.closeReason == .overflow)
            #expect(eventually { server.core.openStreams == 0 })
        }
    }
}
