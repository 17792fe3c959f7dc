import Foundation
import Testing
import MapsAPI
import MapsTestSupport
@testable import MapsServer
import HTTPServer

/// A watch belongs to the key that made it: any other key gets 404 (not 403, so ids do not
/// leak), and quotas bound what one key may hold or spend.
@Suite struct OwnershipTests {
    typealias F = AccessFixture
    static let keys = APIKeys(perMinute: ["alice": 100_000, "bob": 100_000])

    @Test func anotherKeySeesNoWatch() throws {
        let app = try F.app(keys: Self.keys, token: F.operatorToken)
        let h = app.handler()
        let created = try F.send(h, .post, "/timetoleave/1/watches", key: "alice", body: F.watchBody)
        #expect(created.status.rawValue == 201)
        let id = try F.watchID(created)
        let path = "/timetoleave/1/watches/\(id)"
        #expect(try F.send(h, .get, path, key: "alice").status.rawValue == 200)
        #expect(try F.send(h, .get, path, key: "bob").status.rawValue == 404)
        #expect(try F.send(h, .get, path + "/events", key: "bob").status.rawValue == 404)
        #expect(try F.send(h, .post, path + "/accept", key: "bob").status.rawValue == 404)
        #expect(try F.send(h, .delete, path, key: "bob").status.rawValue == 404)
        // Listings hold the caller's own watches; an operator sees every one.
        func listed(_ key: String?, bearer: String? = nil) throws -> [String] {
            let json = try ServerFixture.json(try F.send(h, .get, "/timetoleave/1/watches", key: key, bearer: bearer))
            return (json["watches"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try listed("alice") == [id])
        #expect(try listed("bob") == [])
        #expect(try listed(nil, bearer: F.operatorToken) == [id])
        // Bob's delete did nothing; Alice's does.
        #expect(try F.send(h, .delete, path, key: "alice").status.rawValue == 204)
        #expect(try F.send(h, .get, path, key: "alice").status.rawValue == 404)
    }

    @Test func anotherKeySeesNoMatrixJob() throws {
        let h = try F.app(keys: Self.keys).handler()
        let body = ServerFixture.matrixBody(origins: "ab", destinations: "l")
        let submitted = try F.send(h, .post, "/routing/matrix/2/async", key: "alice", body: body)
        #expect(submitted.status.rawValue == 202)
        let id = try #require(try ServerFixture.json(submitted)["jobId"] as? String)
        let path = "/routing/matrix/2/async/\(id)"
        #expect(try F.send(h, .get, path, key: "alice").status.rawValue == 200)
        #expect(try F.send(h, .get, path, key: "bob").status.rawValue == 404)
        #expect(try F.send(h, .get, path + "/result", key: "bob").status.rawValue == 404)
        // Alice's result is hers once it is computed.
        var status = 202
        for _ in 0..<200 where status == 202 {
            status = Int(try F.send(h, .get, path + "/result", key: "alice").status.rawValue)
            if status == 202 { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(status == 200)
        #expect(try F.send(h, .get, path + "/result", key: "bob").status.rawValue == 404)
    }

    @Test func aForgedLastEventIDReplaysNoOtherWatch() throws {
        let app = try F.app(keys: Self.keys)
        let h = app.handler()
        let mine = try F.watchID(try F.send(h, .post, "/timetoleave/1/watches", key: "alice", body: F.watchBody))
        let theirs = try F.watchID(try F.send(h, .post, "/timetoleave/1/watches", key: "bob", body: F.watchBody))
        // Every id Bob might forge replays only his own watch's events.
        for forged in ["0", "1", "2", "999999"] {
            let events = try #require(app.timeToLeave.events(theirs, after: Int(forged)))
            #expect(events.allSatisfy { $0.data.contains(theirs) && !$0.data.contains(mine) })
            #expect(try F.send(h, .get, "/timetoleave/1/watches/\(mine)/events", key: "bob", lastEventID: forged).status.rawValue == 404)
        }
        #expect(try F.send(h, .get, "/timetoleave/1/watches/\(mine)/events", key: "alice", lastEventID: "-1").status.rawValue == 400)
    }

    @Test func tenThousandWatchCreationsAreCapped() throws {
        var caps = ServerCaps()
        caps.openWatchesPerKey = 50
        let app = try F.app(keys: Self.keys, caps: caps)
        let h = app.handler()
        let body = F.watchBody
        var created = 0, limited = 0, other = 0
        var bytesAtCap = 0
        let start = Date()
        for i in 0..<10_000 {
            let r = try F.send(h, .post, "/timetoleave/1/watches", key: "alice", body: body)
            switch r.status.rawValue {
            case 201: created += 1
            case 429:
                limited += 1
                #expect(r.headers["Retry-After"] != nil)
            default: other += 1
            }
            if i == 50 { bytesAtCap = app.timeToLeave.storeFileBytes }
        }
        let seconds = Date().timeIntervalSince(start)
        #expect(created == 50 && limited == 9_950 && other == 0)
        #expect(app.timeToLeave.count == 50)
        // The store did not grow past the cap's worth.
        #expect(app.timeToLeave.storeFileBytes <= bytesAtCap)
        // Another key is not affected by Alice's cap.
        #expect(try F.send(h, .post, "/timetoleave/1/watches", key: "bob", body: body).status.rawValue == 201)
        print("abuse figure: 10000 watch creations from one key: \(created) created, \(limited) refused with 429, "
              + "store \(app.timeToLeave.storeFileBytes) bytes, \(Int(seconds * 1000)) ms")
    }

    @Test func matrixCellsAreMeteredPerKey() throws {
        var caps = ServerCaps()
        caps.matrixCellsPerMinutePerKey = 20
        let h = try F.app(keys: Self.keys, caps: caps).handler()
        let three = "abl".map { ServerFixture.osrm($0) }.joined(separator: ";")
        #expect(try F.send(h, .get, "/table/v1/driving/\(three)", key: "alice").status.rawValue == 200)   // 9 cells
        #expect(try F.send(h, .get, "/table/v1/driving/\(three)", key: "alice").status.rawValue == 200)   // 18
        let refused = try F.send(h, .get, "/table/v1/driving/\(three)", key: "alice")
        #expect(refused.status.rawValue == 429)
        #expect(refused.headers["Retry-After"] != nil)
        #expect(try F.send(h, .get, "/table/v1/driving/\(three)", key: "bob").status.rawValue == 200)
        let five = "abcdl".map { ServerFixture.osrm($0) }.joined(separator: ";")
        #expect(try F.send(h, .get, "/table/v1/driving/\(five)", key: "bob").status.rawValue == 413)        // 25 > a minute's 20
    }

    @Test func matrixV2CellsAreMeteredLikeTheTable() throws {
        var caps = ServerCaps()
        caps.matrixCellsPerMinutePerKey = 20
        let h = try F.app(keys: Self.keys, caps: caps).handler()
        let three = ServerFixture.matrixBody(origins: "abl", destinations: "abl")                         // 9 cells
        #expect(try F.send(h, .post, "/routing/matrix/2", key: "alice", body: three).status.rawValue == 200)
        #expect(try F.send(h, .post, "/routing/matrix/2/async", key: "alice", body: three).status.rawValue == 202)   // 18
        let refused = try F.send(h, .post, "/routing/matrix/2", key: "alice", body: three)
        #expect(refused.status.rawValue == 429)
        #expect(refused.headers["Retry-After"] != nil)
        #expect(try F.send(h, .post, "/routing/matrix/2/async", key: "alice", body: three).status.rawValue == 429)
        // The table spends the same quota.
        let table = "abl".map { ServerFixture.osrm($0) }.joined(separator: ";")
        #expect(try F.send(h, .get, "/table/v1/driving/\(table)", key: "alice").status.rawValue == 429)
        // A refused request costs nothing: Bob's two bad ones leave room for a second good one.
        #expect(try F.send(h, .post, "/routing/matrix/2", key: "bob", body: three).status.rawValue == 200)
        let bad = ServerFixture.matrixBody(origins: "abl", destinations: "abl").dropLast() + #","options":{"travelMode":"boat"}}"#
        #expect(try F.send(h, .post, "/routing/matrix/2", key: "bob", body: String(bad)).status.rawValue == 400)
        #expect(try F.send(h, .post, "/routing/matrix/2/async", key: "bob", body: String(bad)).status.rawValue == 400)
        #expect(try F.send(h, .post, "/routing/matrix/2", key: "bob", body: three).status.rawValue == 200)    // 18
        let five = ServerFixture.matrixBody(origins: "abcdl", destinations: "abcdl")
        #expect(try F.send(h, .post, "/routing/matrix/2/async", key: "bob", body: five).status.rawValue == 413)  // 25 > a minute's 20
    }

    @Test func probePointsAreMeteredPerKeyAndInAll() throws {
        var caps = ServerCaps()
        caps.probePointsPerMinutePerKey = 1
        let h = try F.app(caps: caps).handler()
        let two = "vehicle,time,lat,lon\nq,1796000000,\(ServerFixture.at("a"))\nq,1796000010,\(ServerFixture.at("b"))\n"
        #expect(try F.send(h, .post, "/traffic/1/probes", body: two).status.rawValue == 413)   // refused before it is matched
        caps.probePointsPerMinutePerKey = 100
        caps.probePointsPerMinute = 150
        let quotas = Quotas(caps: caps, clock: { 0 })
        #expect(quotas.charge(60, of: .probePoints, identity: "key:a") == nil)
        #expect(quotas.charge(60, of: .probePoints, identity: "key:a")?.status.rawValue == 429)
        #expect(quotas.charge(80, of: .probePoints, identity: "key:b") == nil)
        #expect(quotas.charge(20, of: .probePoints, identity: "key:c")?.status.rawValue == 503)   // 140 of the server's 150 spent
    }

    @Test func aServerWideRequestCapAnswers503() throws {
        var caps = ServerCaps()
        caps.requestsPerMinute = 3
        let h = try F.app(caps: caps).handler()
        let target = "/search/2/search/x.json"
        let statuses = try (0..<4).map { _ in try F.send(h, .get, target).status.rawValue }
        #expect(statuses.prefix(3).allSatisfy { $0 != 503 } && statuses[3] == 503)
        #expect(try F.send(h, .get, "/health").status.rawValue == 200)
    }
}
