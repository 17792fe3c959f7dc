import Foundation
import Testing
import MapsTestSupport
@testable import HTTPServer

@Suite("StaticFiles over loopback", .serialized, .timeLimit(.minutes(1)))
struct StaticFilesServerTests {
    @Test func servesSmallAndLargeFilesAndRefusesTraversalOnTheWire() throws {
        let tree = try StaticFilesTests.Tree()
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(big).write(to: URL(fileURLWithPath: tree.root + "/big.bin"))
        let script = String(repeating: "console.log('Töölö');\n", count: 200)
        try script.write(toFile: tree.root + "/app.js", atomically: true, encoding: .utf8)
        let files = try #require(StaticFiles(root: tree.root, inMemoryLimitBytes: 64 * 1024))
        var router = Router()
        router.get("/web/*", files.handler)
        try withServer(handler: router.handler) { server in
            let c = try RawHTTPConnection(port: server.port)
            // Large file: sent from the descriptor (sendfile), byte-exact.
            try c.request("GET", "/web/big.bin")
            let large = try c.readResponse()
            #expect(large.status == 200)
            #expect(large.body == big)
            // Small text file: in memory, so gzip applies; then a conditional GET gives 304.
            try c.request("GET", "/web/app.js", headers: ["Accept-Encoding: gzip"])
            let js = try c.readResponse()
            #expect(js.header("content-encoding") == "gzip")
            #expect(Gzip.decompress(js.body, maxBytes: 1 << 20).map { String(decoding: $0, as: UTF8.self) } == script)
            let etag = try #require(js.header("etag"))
            try c.request("GET", "/web/app.js", headers: ["If-None-Match: \(etag)"])
            let notModified = try c.readResponse()
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            // HEAD of the large file: length only.
            try c.request("HEAD", "/web/big.bin")
            let head = try c.readResponse(method: "HEAD")
            #expect(head.header("content-length") == String(big.count))
            // Traversal attempts as raw request lines (no client-side normalisation).
            for target in ["/web/../secret.txt", "/web/%2e%2e/secret.txt", "/web/..%2fsecret.txt", "/web/escape",
                           "/web/escape-dir/secret.txt", "/web//etc/passwd", "/web/%2e%2e%2f%2e%2e%2fetc%2fpasswd"] {
                try c.request("GET", target)
                let r = try c.readResponse()
                #expect(r.status == 404 || r.status == 400, "\(target) → \(r.status)")
                #expect(!r.text.contains("TOP SECRET") && !r.text.contains("root:"), "\(target)")
            }
        }
    }
}
