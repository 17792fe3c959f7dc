import Foundation
import Testing
import MapsTestSupport
@testable import HTTPServer

@Suite("StaticFiles (no socket)")
struct StaticFilesTests {
    /// A scratch tree:
    /// ```
    /// <base>/secret.txt                  outside the root
    /// <base>/public/index.html
    /// <base>/public/app.js
    /// <base>/public/.env
    /// <base>/public/docs/index.html
    /// <base>/public/big.bin              2 KiB (above the in-memory limit used below)
    /// <base>/public/escape  -> ../secret.txt
    /// <base>/public/escape-dir -> ..
    /// <base>/public/alias.js -> app.js   (inside: allowed)
    /// <base>/public/fifo                 a named pipe
    /// ```
    final class Tree {
        let base: String
        var root: String { base + "/public" }
        init() throws {
            base = Fixtures.temporaryDirectory("static").path
            let fm = FileManager.default
            try fm.createDirectory(atPath: base + "/public/docs", withIntermediateDirectories: true)
            try "TOP SECRET".write(toFile: base + "/secret.txt", atomically: true, encoding: .utf8)
            try "<h1>home</h1>".write(toFile: base + "/public/index.html", atomically: true, encoding: .utf8)
            try "console.log(1)".write(toFile: base + "/public/app.js", atomically: true, encoding: .utf8)
            try "KEY=1".write(toFile: base + "/public/.env", atomically: true, encoding: .utf8)
            try "<h1>docs</h1>".write(toFile: base + "/public/docs/index.html", atomically: true, encoding: .utf8)
            try Data(repeating: 7, count: 2048).write(to: URL(fileURLWithPath: base + "/public/big.bin"))
            try fm.createSymbolicLink(atPath: base + "/public/escape", withDestinationPath: "../secret.txt")
            try fm.createSymbolicLink(atPath: base + "/public/escape-dir", withDestinationPath: "..")
            try fm.createSymbolicLink(atPath: base + "/public/alias.js", withDestinationPath: "app.js")
            mkfifo(base + "/public/fifo", 0o644)
        }
        deinit { try? FileManager.default.removeItem(atPath: base) }
    }

    func serve(_ files: StaticFiles, _ target: String, headers: HTTPHeaders = [:], method: HTTPMethod = .get) throws -> HTTPResponse {
        var router = Router()
        router.get("/web/*", files.handler)
        return router.handle(try HTTPRequest(method: method, target: target, headers: headers))
    }

    func text(_ r: HTTPResponse) -> String { String(decoding: r.body.bytes ?? [], as: UTF8.self) }

    @Test func servesFilesWithTypesAndCachingHeaders() throws {
        let tree = try Tree()
        let files = try #require(StaticFiles(root: tree.root, cacheControl: "public, max-age=60"))
        let js = try serve(files, "/web/app.js")
        #expect(js.status == .ok)
        #expect(text(js) == "console.log(1)")
        #expect(js.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(js.headers["Cache-Control"] == "public, max-age=60")
        #expect(js.headers["X-Content-Type-Options"] == "nosniff")
        #expect(js.headers["ETag"]?.hasPrefix("W/\"") == true)
        #expect(js.headers["Last-Modified"]?.hasSuffix(" GMT") == true)
        #expect(text(try serve(files, "/web/")) == "<h1>home</h1>")
        #expect(text(try serve(files, "/web/docs/")) == "<h1>docs</h1>")
        #expect(text(try serve(files, "/web/alias.js")) == "console.log(1)")
        let redirect = try serve(files, "/web/docs?x=1")
        #expect(redirect.status == .movedPermanently)
        #expect(redirect.headers["Location"] == "/web/docs/?x=1")
    }

    @Test func conditionalRequestsGive304() throws {
        let tree = try Tree()
        let files = try #require(StaticFiles(root: tree.root))
        let first = try serve(files, "/web/app.js")
        let etag = try #require(first.headers["ETag"])
        let lastModified = try #require(first.headers["Last-Modified"])
        let byTag = try serve(files, "/web/app.js", headers: ["If-None-Match": "\"other\", \(etag)"])
        #expect(byTag.status == .notModified)
        #expect(byTag.body.bytes == [])
        #expect(byTag.headers["ETag"] == etag)
        #expect(try serve(files, "/web/app.js", headers: ["If-None-Match": "\"other\""]).status == .ok)
        #expect(try serve(files, "/web/app.js", headers: ["If-Modified-Since": lastModified]).status == .notModified)
        #expect(try serve(files, "/web/app.js", headers: ["If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"]).status == .ok)
        #expect(try serve(files, "/web/app.js", headers: ["If-Modified-Since": "garbage"]).status == .ok)
    }

    @Test(arguments: [
        "/web/../secret.txt", "/web/%2e%2e/secret.txt", "/web/%2E%2E/secret.txt", "/web/docs/../../secret.txt",
        "/web/./app.js", "/web//etc/passwd", "/web/escape", "/web/escape-dir/secret.txt", "/web/.env",
        "/web/fifo", "/web/missing.js", "/web/app.js/", "/web/docs/%2e%2e/%2e%2e/secret.txt",
    ])
    func refusesEverythingOutsideTheRoot(target: String) throws {
        let tree = try Tree()
        let files = try #require(StaticFiles(root: tree.root))
        let r = try serve(files, target)
        #expect(r.status == .notFound)
        #expect(!text(r).contains("TOP SECRET"))
    }

    @Test(arguments: ["/web/..%2fsecret.txt", "/web/%2e%2e%2fsecret.txt", "/web/docs%2f..%2f..%2fsecret.txt",
                      "/web/%2fetc%2fpasswd", "/web/..%5csecret.txt", "/web/a%00b"])
    func rejectsEncodedSeparators(target: String) throws {
        let tree = try Tree()
        let files = try #require(StaticFiles(root: tree.root))
        let r = try serve(files, target)
        #expect(r.status == .badRequest)
        #expect(!text(r).contains("TOP SECRET"))
    }

    @Test func largeFilesAreSentFromTheDescriptor() throws {
        let tree = try Tree()
        let files = try #require(StaticFiles(root: tree.root, inMemoryLimitBytes: 1024))
        let r = try serve(files, "/web/big.bin")
        guard case .file(let body) = r.body else {
            Issue.record("expected a file body")
            return
        }
        #expect(body.sizeBytes == 2048)
        #expect(r.headers["Content-Type"] == "application/octet-stream")
    }

    @Test func rejectsNonDirectoryRootsAndOtherMethods() throws {
        let tree = try Tree()
        #expect(StaticFiles(root: tree.base + "/secret.txt") == nil)
        #expect(StaticFiles(root: tree.base + "/nope") == nil)
        let files = try #require(StaticFiles(root: tree.root))
        let r = files.respond(to: try HTTPRequest(method: .post, target: "/x"), segments: ["app.js"])
        #expect(r.status == .methodNotAllowed)
    }

    @Test func httpDatesRoundTrip() {
        #expect(HTTPDate.format(secondsSince1970: 784111777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784111777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }
}
