import Foundation
import Synchronization
import Testing
import MapsAPI
import MapsTestSupport
@testable import MapsServer
import HTTPServer

/// Abuse over real loopback connections, bounded in count and time: stream caps, a slow-loris on
/// the event stream, and a flood from one key beside another key's requests. Each prints its
/// figure (`abuse figure:`).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct AbuseTests {
    typealias F = AccessFixture
    static let keys = APIKeys(perMinute: ["flood": 60, "victim": 100_000, "alice": 100_000])

    final class Served {
        let app: MapsApplication
        let server: MicroHTTPDServer
        init(caps: ServerCaps = ServerCaps(), timeoutSeconds: Int = 30) throws {
            app = try F.app(keys: AbuseTests.keys, token: F.operatorToken, caps: caps)
            var config = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
            config.workerThreads = 4
            config.errorLog = nil
            config.connectionTimeoutSeconds = timeoutSeconds
            config.errorResponder = MapsApplication.errorResponder
            server = MicroHTTPDServer(configuration: config, handler: app.handler())
            try server.start()
        }
        deinit { server.stop(gracePeriod: .seconds(1)) }
        var port: UInt16 { server.port }

        func get(_ target: String, key: String) throws -> Int {
            let c = try RawHTTPConnection(port: port)
            try c.request("GET", target, headers: ["X-API-Key: \(key)", "Connection: close"])
            return try c.readResponse().status
        }
    }

    static var route: String { "/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json" }

    /// The 99th percentile of `samples` (nearest rank), in their unit.
    static func p99(_ samples: [Double]) -> Double {
        let s = samples.sorted()
        return s[min(s.count - 1, Int((Double(s.count) * 0.99).rounded(.up)) - 1)]
    }

    static func timedRoutes(_ served: Served, key: String, count: Int) throws -> [Double] {
        var samples: [Double] = []
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            let status = try served.get(route, key: key)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            #expect(status == 200)
        }
        return samples
    }

    @Test func streamsStopAtTheCapAndOthersAreServed() throws {
        var caps = ServerCaps()
        caps.eventStreamsPerKey = 8
        let served = try Served(caps: caps)
        _ = try Self.timedRoutes(served, key: "victim", count: 10)  // warm up
        let before = try Self.timedRoutes(served, key: "victim", count: 100)
        let c = try RawHTTPConnection(port: served.port)
        try c.request("POST", "/timetoleave/1/watches", headers: ["X-API-Key: alice", "Content-Type: application/json",
                                                                  "Content-Length: \(F.watchBody.utf8.count)"], body: Array(F.watchBody.utf8))
        let created = try c.readResponse()
        #expect(created.status == 201)
        let id = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])["id"] as! String
        var open: [RawHTTPConnection] = []
        var statuses: [Int] = []
        for _ in 0..<10 {
            let s = try RawHTTPConnection(port: served.port)
            try s.request("GET", "/timetoleave/1/watches/\(id)/events", headers: ["X-API-Key: alice"])
            let head = try s.readHead()
            statuses.append(head.status)
            if head.status == 200 { open.append(s) }
        }
        #expect(statuses == Array(repeating: 200, count: 8) + [429, 429])
        let during = try Self.timedRoutes(served, key: "victim", count: 100)
        let (p99Before, p99During) = (Self.p99(before), Self.p99(during))
        #expect(p99During <= 2 * p99Before + 10, "route p99 \(p99Before) ms before, \(p99During) ms with the streams open")
        // Closing streams frees their slots.
        for s in open { s.closeNow() }
        var reopened = 0
        for _ in 0..<20 where reopened == 0 {
            Thread.sleep(forTimeInterval: 0.25)
            let s = try RawHTTPConnection(port: served.port)
            try s.request("GET", "/timetoleave/1/watches/\(id)/events", headers: ["X-API-Key: alice"])
            if try s.readHead().status == 200 { reopened += 1 }
            s.closeNow()
        }
        #expect(reopened == 1)
        print("abuse figure: streams cap 8 per key: statuses \(statuses.map(String.init).joined(separator: ",")); "
              + "another key's route p99 \(String(format: "%.1f", p99Before)) ms before, \(String(format: "%.1f", p99During)) ms with 8 streams open")
    }

    @Test func aSlowLorisOnTheEventStreamTimesOut() throws {
        let served = try Served(timeoutSeconds: 2)
        let c = try RawHTTPConnection(port: served.port, timeoutSeconds: 8)
        let start = Date()
        // Half a request head, then silence.
        try c.send("GET /timetoleave/1/watches/w0000000000000000/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: alice\r\n")
        #expect(c.waitForClose())
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 6)
        // The server still answers.
        #expect(try served.get(Self.route, key: "victim") == 200)
        print("abuse figure: slow-loris on the event stream closed after \(String(format: "%.1f", seconds)) s (timeout 2 s)")
    }

    @Test func aFloodFromOneKeyDoesNotStarveAnother() throws {
        let served = try Served()
        _ = try Self.timedRoutes(served, key: "victim", count: 10)
        let unloaded = try Self.timedRoutes(served, key: "victim", count: 100)
        let stop = Atomic<Bool>(false)
        let counts = Mutex<[Int: Int]>([:])
        let group = DispatchGroup()
        let port = served.port, route = Self.route
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                var sent = 0
                // Keep-alive connection; at most 20000 requests or until told to stop.
                guard let c = try? RawHTTPConnection(port: port) else { return }
                while !stop.load(ordering: .relaxed) && sent < 20_000 {
                    guard (try? c.request("GET", route, headers: ["X-API-Key: flood"])) != nil, let r = try? c.readResponse() else { break }
                    counts.withLock { $0[r.status, default: 0] += 1 }
                    sent += 1
                }
            }
        }
        // Measure once the flood has spent its allowance and is being refused (at most 20 s).
        for _ in 0..<200 where counts.withLock({ $0[429] ?? 0 }) == 0 { Thread.sleep(forTimeInterval: 0.1) }
        let loaded = try Self.timedRoutes(served, key: "victim", count: 100)
        stop.store(true, ordering: .relaxed)
        group.wait()
        let seen = counts.withLock { $0 }
        let (p99Unloaded, p99Loaded) = (Self.p99(unloaded), Self.p99(loaded))
        #expect((seen[429] ?? 0) > 0)
        #expect(p99Loaded <= 2 * p99Unloaded + 5, "victim p99 \(p99Unloaded) ms unloaded, \(p99Loaded) ms under the flood")
        print("abuse figure: flood from one key (\(seen.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key)" }.joined(separator: ", "))): "
              + "another key's route p99 \(String(format: "%.1f", p99Unloaded)) ms unloaded, \(String(format: "%.1f", p99Loaded)) ms loaded")
    }
}
