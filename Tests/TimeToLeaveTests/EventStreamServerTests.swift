import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import MapsServer
import HTTPServer
@testable import TimeToLeave

/// The HTTP API on a real server on 127.0.0.1: create, read, delete, and the Server-Sent Events
/// stream with its framing and `Last-Event-ID` resumption.
@Suite("Time to leave over HTTP", .serialized, .timeLimit(.minutes(2)))
struct EventStreamServerTests {
    struct Served {
        let fixture: Fixture
        let app: MapsApplication
        let server: MicroHTTPDServer
        var port: UInt16 { server.port }
        var watches: WatchService { app.timeToLeave }
    }

    static func withServer(workers: Int = 2, _ body: (Served) throws -> Void) throws {
        let f = try Fixture()
        let app = MapsApplication(service: f.maps)
        var configuration = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.workerThreads = workers
        configuration.errorLog = nil
        configuration.streamWatchInterval = .milliseconds(50)
        configuration.errorResponder = MapsApplication.errorResponder
        let server = MicroHTTPDServer(configuration: configuration, handler: app.router().handler)
        try server.start()
        defer { server.stop(gracePeriod: .seconds(2)) }
        try body(Served(fixture: f, app: app, server: server))
    }

    static func post(_ port: UInt16, _ path: String, _ json: String) throws -> (RawHTTPConnection.Response, String) {
        let c = try RawHTTPConnection(port: port)
        try c.request("POST", path, headers: ["Content-Type: application/json"], body: Array(json.utf8))
        let response = try c.readResponse(method: "POST")
        return (response, response.text)
    }

    static func call(_ port: UInt16, _ method: String, _ path: String) throws -> (RawHTTPConnection.Response, String) {
        let c = try RawHTTPConnection(port: port)
        try c.request(method, path)
        let response = try c.readResponse(method: method)
        return (response, response.text)
    }

    /// Opens the event stream of `id`, checking the response head.
    static func stream(_ port: UInt16, _ id: String, lastEventID: Int? = nil) throws -> EventReader {
        let c = try RawHTTPConnection(port: port)
        try c.request("GET", "/timetoleave/1/watches/\(id)/events", headers: lastEventID.map { ["Last-Event-ID: \($0)"] } ?? [])
        let head = try c.readHead()
        guard head.status == 200, head.header("content-type")?.hasPrefix("text/event-stream") == true,
              head.header("cache-control") == "no-cache" else {
            throw RawHTTPConnection.Failure(description: "unexpected stream head \(head)")
        }
        return EventReader(c)
    }

    static func body(_ s: Served, arrivingInMinutes minutes: Double) -> String {
        let scenario = s.fixture.scenario
        let a = scenario.coordinate("a"), d = scenario.coordinate("d")
        let arrive = RFC3339.format(s.fixture.clock.now.addingTimeInterval(minutes * 60), in: s.fixture.zone)
        return """
            {"origin":{"lat":\(a.latitude),"lon":\(a.longitude)},"destination":{"latitude":\(d.latitude),"longitude":\(d.longitude)},
             "arriveAt":"\(arrive)","travelMode":"car","routeType":"fastest","preparationTime":600,"traffic":true}
            """
    }

    static func create(_ s: Served, arrivingInMinutes minutes: Double = 60) throws -> WatchDocument {
        let (head, text) = try post(s.port, "/timetoleave/1/watches", body(s, arrivingInMinutes: minutes))
        guard head.status == 201 else { throw RawHTTPConnection.Failure(description: "create answered \(head.status): \(text)") }
        let doc = try JSONDecoder().decode(WatchDocument.self, from: Data(text.utf8))
        #expect(head.header("location") == "/timetoleave/1/watches/\(doc.id)")
        return doc
    }

    static func decode(_ e: EventReader.Event?) throws -> WatchDocument {
        let e = try #require(e)
        return try JSONDecoder().decode(WatchDocument.self, from: Data(e.data.utf8))
    }

    @Test func createReadAndDelete() throws {
        try Self.withServer { s in
            let w = try Self.create(s)
            #expect(w.preparationTime == 600)
            #expect(w.event?.type == "plan")
            #expect(w.route?.legs.first?.points?.isEmpty == false)
            let (head, text) = try Self.call(s.port, "GET", "/timetoleave/1/watches/\(w.id)")
            #expect(head.status == 200)
            let read = try JSONDecoder().decode(WatchDocument.self, from: Data(text.utf8))
            #expect(read.departureTime == w.departureTime)
            #expect(try Self.call(s.port, "GET", "/timetoleave/1/watches").1.contains(w.id))
            #expect(try Self.call(s.port, "DELETE", "/timetoleave/1/watches/\(w.id)").0.status == 204)
            let (gone, error) = try Self.call(s.port, "GET", "/timetoleave/1/watches/\(w.id)")
            #expect(gone.status == 404)
            #expect(error.contains("NOT_FOUND"))
            #expect(try Self.call(s.port, "DELETE", "/timetoleave/1/watches/\(w.id)").0.status == 404)
        }
    }

    @Test func refusalsCarryTheSeedsMessageInTomTomsShape() throws {
        try Self.withServer { s in
            let (head, text) = try Self.post(s.port, "/timetoleave/1/watches", Self.body(s, arrivingInMinutes: -10))
            #expect(head.status == 400)
            struct Body: Decodable {
                struct Description: Decodable { var description: String }
                struct Detail: Decodable { var code: String; var message: String }
                var error: Description
                var detailedError: Detail
                var detail: String?
            }
            let body = try JSONDecoder().decode(Body.self, from: Data(text.utf8))
            #expect(body.error.description == WatchMessages.noRouteSatisfiesTime)
            #expect(body.detailedError.code == "NO_ROUTE_FOUND")
            #expect(body.detail != nil)
            let (bad, message) = try Self.post(s.port, "/timetoleave/1/watches", #"{"origin":{"lat":60.1,"lon":24.9}}"#)
            #expect(bad.status == 400)
            #expect(message.contains("BAD_INPUT"))
        }
    }

    @Test func eventsAreFramedAndResumeAfterTheLastEventID() throws {
        try Self.withServer { s in
            let f = s.fixture
            let w = try Self.create(s)
            let live = try Self.stream(s.port, w.id)
            let first = try #require(try live.next())
            #expect(first.id == "1")
            #expect(first.event == "plan")
            #expect(first.retry == 5000)
            #expect(try Self.decode(first).departureTime == w.departureTime)
            // Framing: a comment first, then `retry`, `id`, `event` and one `data` line of JSON, then a blank line.
            #expect(live.raw.hasPrefix(": wayfinder time to leave: watch \(w.id)\nretry: 5000\nid: 1\nevent: plan\ndata: {"))
            #expect(live.raw.hasSuffix("}\n\n"))

            f.clock.advance(by: 60)
            s.watches.tick()
            let second = try #require(try live.next())
            #expect(second.id == "2")
            #expect(second.event == "no-change")
            let doc = try Self.decode(second)
            #expect(doc.event?.id == 2)
            #expect(doc.id == w.id)
            live.connection.closeNow()

            // Missed while away: 3. Reconnecting after 1 gets 2 then 3; with no id, the newest only.
            f.clock.advance(by: 60)
            s.watches.tick()
            let resumed = try Self.stream(s.port, w.id, lastEventID: 1)
            #expect(try resumed.next()?.id == "2")
            #expect(try resumed.next()?.id == "3")
            let fresh = try Self.stream(s.port, w.id)
            #expect(try fresh.next()?.id == "3")
            let caughtUp = try Self.stream(s.port, w.id, lastEventID: 3)
            f.clock.advance(by: 60)
            s.watches.tick()
            #expect(try caughtUp.next()?.id == "4")
            #expect(try fresh.next()?.id == "4")

            // Deleting the watch ends its streams; reconnecting then gets 404 (EventSource stops).
            #expect(try Self.call(s.port, "DELETE", "/timetoleave/1/watches/\(w.id)").0.status == 204)
            #expect(try fresh.next() == nil)
            let c = try RawHTTPConnection(port: s.port)
            try c.request("GET", "/timetoleave/1/watches/\(w.id)/events", headers: ["Last-Event-ID: 4"])
            #expect(try c.readResponse().status == 404)
        }
    }

    @Test func anExpiredWatchEndsItsStreamAndThenAnswers204() throws {
        try Self.withServer { s in
            let f = s.fixture
            let w = try Self.create(s, arrivingInMinutes: 20)
            let live = try Self.stream(s.port, w.id)
            #expect(try live.next()?.event == "plan")
            f.clock.set(try f.date(w.arriveAt))
            s.watches.tick()
            var last: EventReader.Event?
            while let e = try live.next() { last = e }
            #expect(last?.event == "expired")
            #expect(live.ended)
            let c = try RawHTTPConnection(port: s.port)
            try c.request("GET", "/timetoleave/1/watches/\(w.id)/events", headers: ["Last-Event-ID: \(last?.id ?? "")"])
            #expect(try c.readResponse().status == 204)
            // A client that missed the end gets it, then the stream closes.
            let late = try Self.stream(s.port, w.id, lastEventID: 1)
            var seen: [String] = []
            while let e = try late.next() { seen.append(e.event ?? "") }
            #expect(seen.last == "expired")
        }
    }

    @Test func idleStreamsHoldNoWorker() throws {
        try Self.withServer(workers: 1) { s in
            let w = try Self.create(s)
            let streams = try (0..<6).map { _ in try Self.stream(s.port, w.id) }
            for stream in streams { #expect(try stream.next()?.id == "1") }
            // With one worker, any stream pinning it would starve these.
            for _ in 0..<5 { #expect(try Self.call(s.port, "GET", "/timetoleave/1/watches/\(w.id)").0.status == 200) }
            #expect(s.watches.subscriberCount == 6)
            s.fixture.clock.advance(by: 60)
            s.watches.tick()
            for stream in streams { #expect(try stream.next()?.id == "2") }
        }
    }
}
