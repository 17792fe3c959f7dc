import Foundation
import Testing
import MapsTestSupport
import MapsService
@testable import MapsServer
import HTTPServer

/// API keys are off by default; with a key file, the APIs and tiles want a valid key and each key
/// gets its own rate limit, while the web app, /health and /openapi.json stay open.
@Suite struct APIKeyTests {
    final class Clock: @unchecked Sendable { var now = 1_000_000.0 }

    static func handler(_ keys: APIKeys) throws -> HTTPHandler {
        let app = try #require(ServerFixture.app)
        var options = MapsApplication.Options()
        options.access = AccessPolicy(keys: keys, operatorToken: nil, loopbackOnly: true)
        return MapsApplication(service: app.service, options: options).handler()
    }

    func status(_ handler: HTTPHandler, _ target: String, headers: HTTPHeaders = [:]) throws -> Int {
        handler(try HTTPRequest(method: .get, target: target, headers: headers)).status.rawValue
    }

    @Test func keysAreCheckedAndLimitedPerKey() throws {
        let clock = Clock()
        let keys = APIKeys(perMinute: ["alpha": 3, "beta": 600], clock: { clock.now })
        let h = try Self.handler(keys)
        let route = "/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json"
        #expect(try status(h, route) == 403)
        #expect(try status(h, route + "?key=wrong") == 403)
        #expect(try status(h, "/health") == 200)
        #expect(try status(h, "/openapi.json") == 200)
        for _ in 0..<3 { #expect(try status(h, route + "?key=alpha") == 200) }
        let limited = h(try HTTPRequest(method: .get, target: route + "?key=alpha"))
        #expect(limited.status.rawValue == 429)
        #expect(limited.headers["Retry-After"] == "20")
        // Another key has its own budget; the header form works too.
        #expect(try status(h, route, headers: ["X-API-Key": "beta"]) == 200)
        // Tokens come back with time: one every 20 s at 3 a minute.
        clock.now += 21
        #expect(try status(h, route + "?key=alpha") == 200)
    }

    @Test func keyFilesAreReadAndBadLinesNamed() throws {
        let dir = Fixtures.temporaryDirectory("api-keys")
        let good = dir.appendingPathComponent("keys.txt")
        try "# operators\nalpha 120\nbeta\n".write(to: good, atomically: true, encoding: .utf8)
        let keys = try APIKeys.load(path: good.path)
        #expect(keys.perMinute == ["alpha": 120, "beta": 600])
        let bad = dir.appendingPathComponent("bad.txt")
        try "alpha lots\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect { try APIKeys.load(path: bad.path) } throws: { "\($0)".contains("bad.txt:1") }
    }
}
