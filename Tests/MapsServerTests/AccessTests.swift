import Foundation
import Testing
import MapsAPI
import MapsTestSupport
@testable import MapsServer
import HTTPServer

/// Roles: reading is open or keyed; writing is for operators (a bearer token or a key marked
/// operator), open only on loopback without keys, and refused otherwise.
@Suite struct AccessTests {
    typealias F = AccessFixture
    static let keys = APIKeys(perMinute: ["user-key": 600, "other-key": 600, "ops-key-0123456789": 600], operators: ["ops-key-0123456789"])

    @Test func userKeysMayNotWrite() throws {
        let h = try F.app(keys: Self.keys, token: F.operatorToken).handler()
        for (path, body) in F.writes {
            #expect(try F.send(h, .post, path, key: "user-key", body: body).status.rawValue == 403, "\(path) with a user key")
            #expect(try F.send(h, .post, path, bearer: "user-key", body: body).status.rawValue == 403, "\(path) with a user key as bearer")
            let anonymous = try F.send(h, .post, path, body: body)
            #expect(anonymous.status.rawValue == 401, "\(path) without a credential")
            #expect(anonymous.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            for bearer in [F.operatorToken, "ops-key-0123456789"] {
                let status = try F.send(h, .post, path, bearer: bearer, body: body).status.rawValue
                #expect(status == 400 || status == 404, "\(path) as \(bearer.prefix(3)) answered \(status)")
            }
        }
        // Reading with a user key still works, and reading traffic is reading.
        #expect(try F.send(h, .get, "/traffic/1/status", key: "user-key").status.rawValue == 200)
        #expect(try F.send(h, .get, "/traffic/1/status").status.rawValue == 403)
    }

    @Test func writingIsOpenOnlyOnLoopbackWithoutKeys() throws {
        let open = try F.app().handler()
        #expect(try F.send(open, .post, "/traffic/1/speeds", body: "1,2,fast\n").status.rawValue == 400)
        // Through a proxy (which says so), a client is not on this machine.
        let proxied = try HTTPRequest(method: .post, target: "/traffic/1/speeds", headers: ["X-Forwarded-For": "203.0.113.9"],
                                      body: Array("1,2,fast\n".utf8))
        #expect(open(proxied).status.rawValue == 403)
        let remote = try HTTPRequest(method: .post, target: "/traffic/1/speeds", body: Array("1,2,fast\n".utf8), remoteAddress: "203.0.113.9")
        #expect(open(remote).status.rawValue == 403)
        for app in [try F.app(loopback: false), try F.app(keys: Self.keys.withoutOperators)] {
            let h = app.handler()
            for (path, body) in F.writes {
                #expect(try F.send(h, .post, path, key: "user-key", body: body).status.rawValue == 403, "\(path)")
            }
            let health = try ServerFixture.json(try F.send(h, .get, "/health"))
            let access = try #require(health["access"] as? [String: Any])
            #expect(access["writing"] as? String == "disabled")
            #expect(access["roles"] as? [String] == ["read"])
        }
        // Routes still answer on a server that does not write.
        let readOnly = try F.app(loopback: false).handler()
        #expect(try F.send(readOnly, .get, "/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json").status.rawValue == 200)
    }

    @Test func healthNamesTheRolesAndCapsButNoKey() throws {
        let h = try F.app(keys: Self.keys, token: F.operatorToken).handler()
        let response = try F.send(h, .get, "/health")
        let text = String(decoding: { if case .bytes(let b) = response.body { return b }; return [] }(), as: UTF8.self)
        for secret in ["user-key", "ops-key", F.operatorToken] { #expect(!text.contains(secret)) }
        let access = try #require(try ServerFixture.json(response)["access"] as? [String: Any])
        #expect(access["reading"] as? String == "api key")
        #expect(access["writing"] as? String == "operator credential")
        let caps = try #require(access["caps"] as? [String: Any])
        #expect(caps["openWatchesPerKey"] as? Int == ServerCaps().openWatchesPerKey)
        #expect(caps["eventStreams"] as? Int == ServerCaps().eventStreams)
    }

    @Test func tokensCompareInFullAndKeysFilesMarkOperators() throws {
        #expect(AccessPolicy.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!AccessPolicy.constantTimeEqual([], Array("a".utf8)))
        let dir = Fixtures.temporaryDirectory("operator-keys")
        let file = dir.appendingPathComponent("keys.txt")
        try "reader 120\nboss 60 operator\nboss2 operator # comment\n".write(to: file, atomically: true, encoding: .utf8)
        let keys = try APIKeys.load(path: file.path)
        #expect(keys.operators == ["boss", "boss2"])
        #expect(keys.perMinute == ["reader": 120, "boss": 60, "boss2": 600])
        try "a\na\n".write(to: file, atomically: true, encoding: .utf8)
        #expect { try APIKeys.load(path: file.path) } throws: { "\($0)".contains("keys.txt:2") && !"\($0)".contains(" a ") }
        let token = dir.appendingPathComponent("token")
        try "short\n".write(to: token, atomically: true, encoding: .utf8)
        #expect(throws: APIKeysError.self) { try AccessPolicy.loadOperatorToken(path: token.path) }
        try "\(F.operatorToken)\n".write(to: token, atomically: true, encoding: .utf8)
        #expect(try AccessPolicy.loadOperatorToken(path: token.path) == F.operatorToken)
        // Identities are digests, stable across runs, distinct per key.
        #expect(AccessPolicy.digest("user-key") == AccessPolicy.digest("user-key"))
        #expect(AccessPolicy.digest("user-key") != AccessPolicy.digest("other-key"))
        #expect(AccessPolicy.digest("") == "cbf29ce484222325")
    }
}

extension APIKeys {
    var withoutOperators: APIKeys { APIKeys(perMinute: perMinute) }
}
