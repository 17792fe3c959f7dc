import Testing
@testable import HTTPServer

@Suite("Compression and CORS (no socket)")
struct MiddlewareTests {
    let json = Array(String(repeating: "{\"name\":\"Mannerheimintie\",\"lengthMeters\":1234},", count: 200).utf8)

    @Test(arguments: [
        ("gzip", true), ("gzip, deflate, br", true), ("GZIP", true), ("x-gzip", true), ("deflate", false),
        ("gzip;q=0", false), ("gzip; q=0.5", true), ("*", true), ("*;q=0", false), ("gzip;q=0, *", false),
        ("identity", false), ("", false),
    ])
    func acceptEncoding(header: String, accepts: Bool) {
        #expect(CompressionPolicy.acceptsGzip(header) == accepts)
    }

    @Test func compressesLargeTextualBodiesAndAddsVary() throws {
        let policy = CompressionPolicy()
        let out = policy.apply(to: .json(json), acceptEncoding: "gzip")
        #expect(out.headers["Content-Encoding"] == "gzip")
        #expect(out.headers["Vary"] == "Accept-Encoding")
        let compressed = try #require(out.body.bytes)
        #expect(compressed.count < json.count / 5)
        #expect(Gzip.decompress(compressed, maxBytes: json.count) == json)
    }

    @Test func leavesOtherResponsesAlone() {
        let policy = CompressionPolicy(minimumBytes: 1024)
        // Client does not accept gzip: identity, but still Vary.
        let identity = policy.apply(to: .json(json), acceptEncoding: nil)
        #expect(identity.headers["Content-Encoding"] == nil)
        #expect(identity.headers["Vary"] == "Accept-Encoding")
        #expect(identity.body.bytes == json)
        // Too small, not textual, or already encoded: untouched, no Vary.
        let small = policy.apply(to: .json(Array(json.prefix(100))), acceptEncoding: "gzip")
        #expect(small.headers["Vary"] == nil && small.body.bytes?.count == 100)
        let png = policy.apply(to: .bytes(json, contentType: "image/png"), acceptEncoding: "gzip")
        #expect(png.headers["Content-Encoding"] == nil)
        var encoded = HTTPResponse.json(json)
        encoded.headers.add("Content-Encoding", "br")
        #expect(policy.apply(to: encoded, acceptEncoding: "gzip").body.bytes == json)
        let sse = policy.apply(to: .bytes(json, contentType: "text/event-stream"), acceptEncoding: "gzip")
        #expect(sse.headers["Content-Encoding"] == nil)
    }

    @Test func textualTypes() {
        for type in ["text/html; charset=utf-8", "application/json", "application/geo+json", "image/svg+xml", "text/javascript"] {
            #expect(CompressionPolicy.isTextual(type), "\(type)")
        }
        for type in ["image/png", "application/octet-stream", "text/event-stream", "font/woff2"] {
            #expect(!CompressionPolicy.isTextual(type), "\(type)")
        }
    }

    @Test func corsPreflightAndDecoration() throws {
        let handler = CORSPolicy.allowAll.wrap { _ in .text("hi") }
        let preflight = try HTTPRequest(method: .options, target: "/routing", headers: [
            "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-api-key",
        ])
        let p = handler(preflight)
        #expect(p.status == .noContent)
        #expect(p.headers["Access-Control-Allow-Origin"] == "*")
        #expect(p.headers["Access-Control-Allow-Methods"] == "GET, HEAD, POST, PUT, DELETE, OPTIONS")
        #expect(p.headers["Access-Control-Allow-Headers"] == "content-type, x-api-key")
        #expect(p.headers["Access-Control-Max-Age"] == "600")
        let normal = handler(try HTTPRequest(method: .get, target: "/x", headers: ["Origin": "https://app.example"]))
        #expect(normal.headers["Access-Control-Allow-Origin"] == "*")
        #expect(String(decoding: normal.body.bytes ?? [], as: UTF8.self) == "hi")
        let fixed = CORSPolicy(allowHeaders: ["Content-Type"], exposeHeaders: ["ETag"])
        let f = fixed.wrap { _ in .text("") }(preflight)
        #expect(f.headers["Access-Control-Allow-Headers"] == "Content-Type")
        #expect(fixed.decorate(.text("")).headers["Access-Control-Expose-Headers"] == "ETag")
    }

    @Test func catchingErrorsUsesTheResponder() throws {
        struct Nope: Error {}
        let plain = catchingErrors { _ in throw Nope() }
        #expect(plain(try HTTPRequest(method: .get, target: "/")).status == .internalServerError)
        let shaped = catchingErrors({ _ in throw HTTPError(.badRequest, "bad coordinate") },
                                    errorResponder: { error, _ in
                                        .json(Array("{\"message\":\"\(error)\"}".utf8), status: .badRequest)
                                    })
        let r = shaped(try HTTPRequest(method: .get, target: "/"))
        #expect(r.status == .badRequest)
        #expect(String(decoding: r.body.bytes ?? [], as: UTF8.self) == "{\"message\":\"400 bad coordinate\"}")
    }
}
