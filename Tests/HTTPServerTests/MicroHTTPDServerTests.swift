import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
import MapsTestSupport
@testable import HTTPServer

/// Real loopback servers on 127.0.0.1 with ephemeral ports. Serialized so timing-sensitive
/// cases do not compete for the two cores; every socket read has a timeout.
@Suite("MicroHTTPDServer over loopback", .serialized, .timeLimit(.minutes(2)))
struct MicroHTTPDServerTests {
    static let bigJSON = Array(String(repeating: "{\"street\":\"Mannerheimintie\",\"lengthMeters\":1234},", count: 400).utf8)

    static func router(hits: Counter? = nil) -> HTTPHandler {
        var router = Router()
        router.get("/hello") { request in
            .text("hello \(request.query["name"] ?? "world") from \(request.remoteAddress ?? "?")")
        }
        router.post("/echo") { request in
            var response = HTTPResponse.bytes(request.body, contentType: "application/octet-stream", status: .created)
            response.headers.add("X-Body-Bytes", String(request.body.count))
            return response
        }
        router.get("/big") { _ in .json(bigJSON) }
        router.get("/count") { _ in
            hits?.add()
            return .text("ok")
        }
        router.get("/param/{value}") { request in .text(request.pathParameters["value"] ?? "") }
        return router.handler
    }

    @Test func getAndPostRoundTripThroughURLSession() async throws {
        var configuration = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.errorLog = nil
        let server = MicroHTTPDServer(configuration: configuration, handler: Self.router())
        try server.start()
        defer { server.stop(gracePeriod: .seconds(2)) }
        #expect(server.port != 0)
        let session = URLSession(configuration: .ephemeral)
        let base = "http://127.0.0.1:\(server.port)"

        var get = URLRequest(url: URL(string: base + "/hello?name=Lauttasaari")!)
        get.timeoutInterval = 5
        let (getData, getResponse) = try await session.data(for: get)
        #expect((getResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: getData, as: UTF8.self) == "hello Lauttasaari from 127.0.0.1")

        var post = URLRequest(url: URL(string: base + "/echo")!)
        post.httpMethod = "POST"
        post.timeoutInterval = 5
        let payload = Data((0..<100_000).map { UInt8($0 % 251) })
        post.httpBody = payload
        let (postData, postResponse) = try await session.data(for: post)
        let http = try #require(postResponse as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "X-Body-Bytes") == "100000")
        #expect(postData == payload)

        var encoded = URLRequest(url: URL(string: base + "/param/52.5%2C13.4%3A52.6%2C13.5")!)
        encoded.timeoutInterval = 5
        let (paramData, _) = try await session.data(for: encoded)
        #expect(String(decoding: paramData, as: UTF8.self) == "52.5,13.4:52.6,13.5")
        session.invalidateAndCancel()
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
        try withServer(handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("GET", "/hello?name=one")
            let first = try c.readResponse()
            #expect(first.status == 200)
            #expect(first.text == "hello one from 127.0.0.1")
            #expect(first.header("connection")?.lowercased() != "close")
            try c.request("GET", "/hello?name=two")
            let second = try c.readResponse()
            #expect(second.status == 200)
            #expect(second.text == "hello two from 127.0.0.1")
            // A POST with a body, then another GET, still on the same socket.
            try c.request("POST", "/echo", body: Array("abc".utf8))
            #expect(try c.readResponse().text == "abc")
            try c.request("GET", "/hello")
            #expect(try c.readResponse().status == 200)
        }
    }

    @Test func gzipWhenAcceptedIdentityOtherwise() throws {
        try withServer(handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("GET", "/big", headers: ["Accept-Encoding: gzip, deflate"])
            let gz = try c.readResponse()
            #expect(gz.status == 200)
            #expect(gz.header("content-encoding") == "gzip")
            #expect(gz.header("vary") == "Accept-Encoding")
            #expect(gz.body.count < Self.bigJSON.count / 5)
            #expect(Gzip.decompress(gz.body, maxBytes: Self.bigJSON.count) == Self.bigJSON)

            try c.request("GET", "/big")
            let plain = try c.readResponse()
            #expect(plain.header("content-encoding") == nil)
            #expect(plain.header("vary") == "Accept-Encoding")
            #expect(plain.body == Self.bigJSON)

            try c.request("GET", "/hello", headers: ["Accept-Encoding: gzip"])
            #expect(try c.readResponse().header("content-encoding") == nil)   // below the size threshold
        }
        try withServer({ $0.compression = nil }, handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("GET", "/big", headers: ["Accept-Encoding: gzip"])
            let r = try c.readResponse()
            #expect(r.header("content-encoding") == nil)
            #expect(r.body == Self.bigJSON)
        }
    }

    @Test func headSendsHeadersOnly() throws {
        try withServer(handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("HEAD", "/big")
            let head = try c.readResponse(method: "HEAD")
            #expect(head.status == 200)
            #expect(head.header("content-length") == String(Self.bigJSON.count))
            // If any body bytes had been sent, this next response would not parse.
            try c.request("GET", "/hello?name=after")
            #expect(try c.readResponse().text == "hello after from 127.0.0.1")
        }
    }

    @Test func oversizedBodyIs413WithoutReadingIt() throws {
        let hits = Counter()
        let handler: HTTPHandler = { _ in hits.add(); return .text("should not run") }
        try withServer({ $0.maxBodyBytes = 1000 }, handler: handler) { server in
            // Declared length too big: answered from the headers alone; the body is never sent.
            let c = try RawHTTPConnection(port: server.port)
            try c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n")
            let r = try c.readResponse()
            #expect(r.status == 413)
            #expect(r.header("connection")?.lowercased() == "close")

            // Chunked upload that grows past the limit: discarded, then 413.
            let d = try RawHTTPConnection(port: server.port)
            try d.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "x", count: 600)
            try d.send("258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
            #expect(try d.readResponse().status == 413)

            // A client pushing far past the limit is cut off.
            let e = try RawHTTPConnection(port: server.port)
            try e.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<10 { try? e.send("258\r\n\(chunk)\r\n") }
            #expect(e.waitForClose())

            // Exactly at the limit is fine.
            let ok = try RawHTTPConnection(port: server.port)
            try ok.request("POST", "/upload", body: [UInt8](repeating: 1, count: 1000))
            #expect(try ok.readResponse().status == 200)
        }
        #expect(hits.value == 1)
    }

    @Test func oversizedURLIs414AndHugeHeadersAreRefused() throws {
        try withServer({ $0.maxURLBytes = 2048; $0.connectionMemoryLimitBytes = 32 * 1024 }, handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("GET", "/hello?pad=" + String(repeating: "a", count: 3000))
            let r = try c.readResponse()
            #expect(r.status == 414)
            // The connection survives our own 414.
            try c.request("GET", "/hello?name=still")
            #expect(try c.readResponse().status == 200)

            // Longer than the connection memory: libmicrohttpd refuses it itself.
            let d = try RawHTTPConnection(port: server.port)
            try? d.request("GET", "/hello?pad=" + String(repeating: "b", count: 100_000))
            let huge = try d.readHead()
            #expect(huge.status == 414)

            let e = try RawHTTPConnection(port: server.port)
            try? e.request("GET", "/hello", headers: ["X-Big: " + String(repeating: "c", count: 100_000)])
            let headers = try e.readHead()
            #expect(headers.status == 431)

            let f = try RawHTTPConnection(port: server.port)
            try f.request("GET", "/hello")
            #expect(try f.readResponse().status == 200)
            // Every request context was released, including those libmicrohttpd answered itself.
            #expect(eventually { server.core.liveContexts.load(ordering: .relaxed) == 0 })
        }
    }

    @Test func badInputGetsErrorsNotCrashes() throws {
        try withServer(handler: Self.router()) { server in
            let garbage: [[UInt8]] = [
                Array("GET /hello%zz HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET /param/%C3%28 HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET /a".utf8) + [0xFF, 0xFE] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET /hello?x=%FF HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET relative HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("\u{1}\u{2}\u{3} garbage\r\n\r\n".utf8),
                Array("GET / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n".utf8),
                Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8),
                Array("GET / HTTP/9.9\r\n\r\n".utf8),
            ]
            for request in garbage {
                let c = try RawHTTPConnection(port: server.port)
                try c.send(request)
                if let head = try? c.readHead() {
                    #expect((400...505).contains(head.status), "\(String(decoding: request, as: UTF8.self)) → \(head.status)")
                } // (closing without an answer is also acceptable for line noise)
            }
            let c = try RawHTTPConnection(port: server.port)
            try c.request("GET", "/hello?name=alive")
            #expect(try c.readResponse().text == "hello alive from 127.0.0.1")
            let d = try RawHTTPConnection(port: server.port)
            try d.request("GET", "/hello%zz")
            let bad = try d.readResponse()
            #expect(bad.status == 400)
            #expect(bad.text.contains("percent-encoding"))
        }
    }

    @Test func slowClientIsCutOffByTheTimeout() throws {
        try withServer({ $0.connectionTimeoutSeconds = 1 }, handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port, timeoutSeconds: 6)
            let started = ContinuousClock.now
            try c.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ")   // and then nothing more
            #expect(c.waitForClose())
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(900))
            #expect(elapsed < .seconds(5))
            // A slow client does not disturb others.
            let d = try RawHTTPConnection(port: server.port)
            try d.request("GET", "/hello")
            #expect(try d.readResponse().status == 200)
        }
    }

    @Test func corsPreflightAndHeaders() throws {
        try withServer({ $0.cors = .allowAll }, handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("OPTIONS", "/echo", headers: [
                "Origin: http://localhost:3000", "Access-Control-Request-Method: POST",
                "Access-Control-Request-Headers: content-type",
            ])
            let preflight = try c.readResponse()
            #expect(preflight.status == 204)
            #expect(preflight.header("access-control-allow-origin") == "*")
            #expect(preflight.header("access-control-allow-methods")?.contains("POST") == true)
            #expect(preflight.header("access-control-allow-headers") == "content-type")
            try c.request("GET", "/hello", headers: ["Origin: http://localhost:3000"])
            #expect(try c.readResponse().header("access-control-allow-origin") == "*")
            try c.request("GET", "/nowhere", headers: ["Origin: http://localhost:3000"])
            let missing = try c.readResponse()
            #expect(missing.status == 404)
            #expect(missing.header("access-control-allow-origin") == "*")
        }
    }

    @Test func accessLogHasOneLinePerRequest() throws {
        let log = LogCollector()
        try withServer({ $0.accessLog = log.sink }, handler: Self.router()) { server in
            let c = try RawHTTPConnection(port: server.port)
            try c.request("GET", "/hello?name=x")
            let hello = try c.readResponse()
            try c.request("GET", "/missing")
            _ = try c.readResponse()
            try c.request("POST", "/echo", body: Array("12345".utf8))
            _ = try c.readResponse()
            #expect(eventually { log.all.count == 3 })
            let entries = log.all
            #expect(entries.map(\.method) == ["GET", "GET", "POST"])
            #expect(entries.map(\.path) == ["/hello", "/missing", "/echo"])
            #expect(entries.map(\.status) == [200, 404, 201])
            #expect(entries[0].bodyBytes == hello.body.count)
            #expect(entries[2].bodyBytes == 5)
            #expect(entries.allSatisfy { $0.completed && $0.milliseconds >= 0 && $0.milliseconds < 5000 })
            #expect(entries[0].description.hasPrefix("127.0.0.1 GET /hello 200 \(hello.body.count)B "))
            #expect(entries[0].description.hasSuffix("ms"))
        }
    }

    @Test func gracefulStopFinishesAnInFlightRequest() throws {
        let entered = Locked(false)
        let handler: HTTPHandler = { request in
            if request.path == "/slow" {
                entered.value = true
                usleep(700_000)
                return .text("finished slowly")
            }
            return .text("fast")
        }
        var configuration = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.errorLog = nil
        let server = MicroHTTPDServer(configuration: configuration, handler: handler)
        try server.start()
        let port = server.port
        let result = Locked<String?>(nil)
        let client = TestThread {
            guard let c = try? RawHTTPConnection(port: port) else { return }
            try? c.request("GET", "/slow")
            let r = try? c.readResponse()
            result.value = r.map { "\($0.status) \($0.text) \($0.header("connection") ?? "-")" }
        }
        #expect(eventually { entered.value })
        let refused = Locked<Bool?>(nil)
        let latecomer = TestThread {
            usleep(150_000)   // stop() has begun draining by now
            refused.value = (try? RawHTTPConnection(port: port, timeoutSeconds: 1)) == nil
        }
        let stopStarted = ContinuousClock.now
        server.stop(gracePeriod: .seconds(5))
        let stopTook = ContinuousClock.now - stopStarted
        #expect(latecomer.join())
        #expect(refused.value == true)   // new connections are refused while in-flight ones drain
        #expect(client.join())
        #expect(result.value == "200 finished slowly close")
        #expect(stopTook >= .milliseconds(300))   // it waited for the handler
        #expect(stopTook < .seconds(4))
        #expect(!server.isRunning)
        #expect(throws: RawHTTPConnection.Failure.self) { try RawHTTPConnection(port: port) }
    }

    @Test func eightThreadsTimesTwoHundredRequestsWithoutErrors() throws {
        let hits = Counter()
        try withServer(handler: Self.router(hits: hits)) { server in
            let failures = Counter()
            let successes = Counter()
            let port = server.port
            let threads = (0..<8).map { _ in
                TestThread {
                    guard let c = try? RawHTTPConnection(port: port) else { failures.add(200); return }
                    for _ in 0..<200 {
                        do {
                            try c.request("GET", "/count")
                            let r = try c.readResponse()
                            if r.status == 200 && r.text == "ok" { successes.add() } else {
                                failures.add()
                            }
                        } catch { failures.add() }
                    }
                }
            }
            #expect(threads.allSatisfy { $0.join(timeout: 60) })
            #expect(failures.value == 0)
            #expect(successes.value == 1600)
            #expect(hits.value == 1600)
            #expect(eventually { server.requestsInFlight == 0 })
        }
    }

    @Test func startErrorsAreValues() throws {
        try withServer(handler: Self.router()) { server in
            var configuration = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: server.port)
            configuration.errorLog = nil
            let clash = MicroHTTPDServer(configuration: configuration, handler: Self.router())
            #expect(throws: ServerError.self) { try clash.start() }
            #expect(throws: ServerError(kind: .alreadyStarted)) { try server.start() }
            let nowhere = MicroHTTPDServer(configuration: .init(host: "no.such.host.invalid", port: 0), handler: Self.router())
            #expect(throws: ServerError(kind: .unresolvableHost("no.such.host.invalid"))) { try nowhere.start() }
        }
    }
}
