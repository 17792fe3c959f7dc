import Synchronization
import Testing
@testable import HTTPServer

@Suite("Server-Sent Events and StreamChannel (no socket)")
struct StreamingTests {
    @Test func encodesEventsPerTheWHATWGGrammar() {
        let e = ServerSentEvent(id: "42", event: "route-progress", data: "{\"remainingMeters\":1200}")
        #expect(e.encoded == "id: 42\nevent: route-progress\ndata: {\"remainingMeters\":1200}\n\n")
        let multi = ServerSentEvent(data: "line one\nline two\r\nline three\rline four\n")
        #expect(multi.encoded == "data: line one\ndata: line two\ndata: line three\ndata: line four\ndata: \n\n")
        #expect(ServerSentEvent(data: "").encoded == "data: \n\n")
        #expect(ServerSentEvent(retryMilliseconds: 5000).encoded == "retry: 5000\n\n")
        // id and event must stay one line; NUL is dropped from ids.
        #expect(ServerSentEvent(id: "a\nb\0c", event: "x\ry", data: "d").encoded == "id: abc\nevent: xy\ndata: d\n\n")
        #expect(ServerSentEvent.comment("keep-alive") == ": keep-alive\n")
        #expect(ServerSentEvent.comment("two\nlines") == ": two\n: lines\n")
    }

    /// A minimal WHATWG parser, to check encode → parse round trips (including leading spaces).
    static func parse(_ stream: String) -> [(id: String?, data: String)] {
        var events: [(String?, String)] = []
        var data: [String] = []
        var id: String?
        for line in ServerSentEvent.lines(stream) {
            if line.isEmpty {
                if !data.isEmpty { events.append((id, data.joined(separator: "\n"))) }
                data = []
                continue
            }
            if line.hasPrefix(":") { continue }
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let field = line[..<colon]
            var value = colon < line.endIndex ? line[line.index(after: colon)...] : ""
            if value.hasPrefix(" ") { value = value.dropFirst() }
            if field == "data" { data.append(String(value)) }
            if field == "id" { id = String(value) }
        }
        return events
    }

    @Test(arguments: ["plain", " leading space", "a\n\nb", "trailing\n", "  ", "tab\tand: colon"])
    func roundTripsThroughAParser(data: String) {
        let parsed = Self.parse(ServerSentEvent(id: "7", data: data).encoded)
        #expect(parsed.count == 1)
        #expect(parsed.first?.data == data.replacingLineBreaks())
        #expect(parsed.first?.id == "7")
    }

    @Test func eventStreamResponseAndLastEventID() throws {
        let request = try HTTPRequest(method: .get, target: "/events", headers: ["Last-Event-ID": "17"])
        let stream = EventStream(request: request)
        #expect(stream.lastEventID == "17")
        let response = stream.response
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-cache")
        guard case .stream(let channel) = response.body else {
            Issue.record("not a stream body")
            return
        }
        #expect(channel === stream.channel)
    }

    @Test func channelBuffersReadsAndEnds() {
        let channel = StreamChannel()
        #expect(channel.send("hello "))
        #expect(channel.send(Array("world".utf8)))
        var storage = [UInt8](repeating: 0, count: 8)
        var suspended = 0
        let first = storage.withUnsafeMutableBytes { channel.read(into: $0) { suspended += 1 } }
        #expect(first == .bytes(8))
        #expect(String(decoding: storage, as: UTF8.self) == "hello wo")
        let second = storage.withUnsafeMutableBytes { channel.read(into: $0) { suspended += 1 } }
        #expect(second == .bytes(3))
        let empty = storage.withUnsafeMutableBytes { channel.read(into: $0) { suspended += 1 } }
        #expect(empty == .suspended)
        #expect(suspended == 1)
        channel.close()
        #expect(!channel.send("late"))
        let end = storage.withUnsafeMutableBytes { channel.read(into: $0) { suspended += 1 } }
        #expect(end == .end)
        #expect(channel.closeReason == .finished)
    }

    @Test func onCloseRunsOnceWithTheReason() {
        let channel = StreamChannel()
        let reasons = Locked<[StreamChannel.CloseReason]>([])
        channel.onClose { r in reasons.value.append(r) }
        channel.detach()          // what the server does when the client is gone
        channel.close()
        channel.onClose { r in reasons.value.append(r) }   // late registration runs at once
        #expect(reasons.value == [.disconnected, .disconnected])
        #expect(channel.isClosed)
        var storage = [UInt8](repeating: 0, count: 4)
        #expect(storage.withUnsafeMutableBytes { channel.read(into: $0) {} } == .abort)
    }

    @Test func overflowClosesTheChannel() {
        let channel = StreamChannel(maxBufferedBytes: 10)
        #expect(channel.send("0123456789"))
        #expect(!channel.send("x"))
        #expect(channel.closeReason == .overflow)
    }

    @Test func sendWakesASuspendedConnectionExactlyOnce() {
        let channel = StreamChannel()
        let resumes = Counter()
        channel.attach(StreamAttachment(resume: { resumes.add() }, peerHasHungUp: { false }))
        var storage = [UInt8](repeating: 0, count: 4)
        #expect(storage.withUnsafeMutableBytes { channel.read(into: $0) {} } == .suspended)
        channel.send("a")
        channel.send("b")         // not suspended any more: no second resume
        #expect(resumes.value == 1)
        #expect(storage.withUnsafeMutableBytes { channel.read(into: $0) {} } == .bytes(2))
    }

    @Test func peerCheckAndHeartbeat() {
        let gone = Locked(false)
        let resumes = Counter()
        let channel = StreamChannel(heartbeat: .init(bytes: Array(": hb\n".utf8), interval: .milliseconds(1)))
        channel.attach(StreamAttachment(resume: { resumes.add() },
                                        peerHasHungUp: { gone.value }))
        var storage = [UInt8](repeating: 0, count: 16)
        #expect(storage.withUnsafeMutableBytes { channel.read(into: $0) {} } == .suspended)
        channel.checkPeer()
        #expect(!channel.isClosed)
        channel.heartbeatIfIdle(now: .now + .seconds(1))
        #expect(resumes.value == 1)
        #expect(storage.withUnsafeMutableBytes { channel.read(into: $0) {} } == .bytes(5))
        #expect(storage.withUnsafeMutableBytes { channel.read(into: $0) {} } == .suspended)
        gone.value = true
        channel.checkPeer()
        #expect(channel.closeReason == .disconnected)
        #expect(resumes.value == 2)
        #expect(storage.withUnsafeMutableBytes { channel.read(into: $0) {} } == .abort)
    }
}

extension String {
    /// CRLF and CR become LF, as an SSE parser reports them.
    func replacingLineBreaks() -> String {
        ServerSentEvent.lines(self).joined(separator: "\n")
    }
}
