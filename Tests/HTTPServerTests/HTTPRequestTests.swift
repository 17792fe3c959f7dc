import Testing
@testable import HTTPServer

@Suite("HTTPRequest and target parsing")
struct HTTPRequestTests {
    @Test func splitsPathAndDecodesSegments() throws {
        let r = try HTTPRequest(method: .get, target: "/a%20b/c%2Cd/?x=1")
        #expect(r.path == "/a%20b/c%2Cd/")
        #expect(r.pathSegments == ["a b", "c,d", ""])
        #expect(r.query["x"] == "1")
        #expect(try HTTPRequest(method: .get, target: "/").pathSegments == [])
        #expect(try HTTPRequest(method: .get, target: "/?").pathSegments == [])
    }

    @Test func queryIsOrderedMultiValuedAndFormDecoded() throws {
        let r = try HTTPRequest(method: .get, target: "/s?q=caf%C3%A9+bar&flag&avoid=a&&avoid=b&empty=")
        #expect(r.query.map(\.name) == ["q", "flag", "avoid", "avoid", "empty"])
        #expect(r.query["q"] == "café bar")
        #expect(r.query["flag"] == "")
        #expect(r.query.values("avoid") == ["a", "b"])
        #expect(r.query.contains("empty"))
        #expect(r.query["missing"] == nil)
    }

    @Test func absoluteAndAsteriskForms() throws {
        let absolute = try HTTPRequest(method: .get, target: "http://example.com:8080/x/y?z=1")
        #expect(absolute.path == "/x/y")
        #expect(absolute.query["z"] == "1")
        #expect(try HTTPRequest(method: .get, target: "https://example.com").path == "/")
        #expect(try HTTPRequest(method: .options, target: "*").path == "*")
    }

    @Test(arguments: [
        ("", RequestTargetError.Kind.empty),
        ("relative/path", .notOriginForm),
        ("/bad%zzescape", .malformedEscape),
        ("/trailing%2", .malformedEscape),
        ("/%C3%28", .invalidUTF8),              // invalid UTF-8 sequence once decoded
        ("/ok?x=%FF", .invalidUTF8),
        ("/ok?%", .malformedEscape),
        ("/tab\there", .invalidCharacter),
    ])
    func rejectsMalformedTargets(target: String, kind: RequestTargetError.Kind) {
        #expect(throws: RequestTargetError(kind: kind)) { try HTTPRequest(method: .get, target: target) }
    }

    @Test func rawInvalidUTF8BytesAreRejectedNotCrashed() {
        // Raw (not percent-encoded) bytes that are not UTF-8, in the path and in the query.
        for raw: [UInt8] in [Array("/a".utf8) + [0xC3, 0x28], Array("/a?b=".utf8) + [0xFF, 0xFE]] {
            guard case .failure = RequestTarget.parse(raw) else {
                Issue.record("invalid UTF-8 accepted: \(raw)")
                continue
            }
        }
    }

    @Test func headerNamesAreLowerCasedAndRepeatsKept() throws {
        let r = try HTTPRequest(method: .get, target: "/", headers: ["Accept-Encoding": "gzip", "X-Multi": "1", "x-multi": "2"])
        #expect(r.headers.fields.map(\.name) == ["accept-encoding", "x-multi", "x-multi"])
        #expect(r.headers["ACCEPT-ENCODING"] == "gzip")
        #expect(r.headers.values("X-Multi") == ["1", "2"])
    }

    @Test func lastEventIDAndBodyText() throws {
        let r = try HTTPRequest(method: .post, target: "/e", headers: ["Last-Event-ID": "42"], body: Array("hé".utf8))
        #expect(r.lastEventID == "42")
        #expect(r.bodyText == "hé")
        let bad = try HTTPRequest(method: .post, target: "/e", headers: ["Last-Event-ID": ""], body: [0xFF])
        #expect(bad.lastEventID == nil)
        #expect(bad.bodyText == nil)
    }
}
