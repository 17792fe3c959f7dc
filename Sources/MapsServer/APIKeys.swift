import Foundation
import HTTPServer
import MapsAPI
import Synchronization

/// Optional API keys, as TomTom clients send them (`key=` in the query, or the `X-API-Key`
/// header), each with its own rate limit. Off unless `wayfinder serve --api-keys FILE` is given.
///
/// The file has one key per line, optionally followed by its limit in requests per minute
/// (default 600); `#` starts a comment. Limits are token buckets: a key may burst up to its
/// per-minute allowance, then gets 429 with `Retry-After` until tokens refill.
public final class APIKeys: Sendable {
    struct Bucket { var tokens: Double; var updated: Double }
    let perMinute: [String: Double]
    private let buckets = Mutex<[String: Bucket]>([:])
    private let clock: @Sendable () -> Double

    public convenience init(perMinute: [String: Double]) {
        self.init(perMinute: perMinute, clock: { Date().timeIntervalSince1970 })
    }

    init(perMinute: [String: Double], clock: @escaping @Sendable () -> Double) {
        self.perMinute = perMinute
        self.clock = clock
    }

    /// Reads a key file; a malformed line is an error naming it.
    public static func load(path: String) throws -> APIKeys {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var keys: [String: Double] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            if fields.isEmpty { continue }
            guard fields.count <= 2, let limit = fields.count == 2 ? Double(fields[1]) : 600, limit > 0, limit.isFinite else {
                throw APIKeysError("\(path):\(n + 1): expected \"KEY [REQUESTS_PER_MINUTE]\", found \"\(line)\"")
            }
            keys[String(fields[0])] = limit
        }
        guard !keys.isEmpty else { throw APIKeysError("\(path) holds no key") }
        return APIKeys(perMinute: keys)
    }

    /// Paths that need a key: the APIs. The web app, its assets, /health and /openapi.json stay open.
    static func guards(_ path: String) -> Bool {
        ["/routing/", "/search/", "/traffic/", "/timetoleave/", "/route/", "/nearest/", "/table/", "/tiles/"].contains { path.hasPrefix($0) }
            || path == "/search" || path == "/reverse" || path == "/search.php" || path == "/reverse.php"
    }

    /// Nil when the request may go on; otherwise the 403 or 429 answer.
    func check(_ request: HTTPRequest) -> HTTPResponse? {
        guard Self.guards(request.path) else { return nil }
        let key = request.query["key"] ?? request.headers["X-API-Key"]
        guard let key, let limit = perMinute[key] else {
            return JSONResponse.error(APIError(.unauthorized, key == nil ? "an API key is required: add key=… to the query"
                                               : "the API key is not valid", parameter: "key"))
        }
        let now = clock()
        let wait: Double? = buckets.withLock { buckets in
            var b = buckets[key] ?? Bucket(tokens: limit, updated: now)
            b.tokens = min(limit, b.tokens + (now - b.updated) * limit / 60)
            b.updated = now
            defer { buckets[key] = b }
            if b.tokens >= 1 { b.tokens -= 1; return nil }
            return (1 - b.tokens) * 60 / limit
        }
        guard let wait else { return nil }
        let seconds = Int(wait.rounded(.up))
        var response = JSONResponse.error(APIError(.rateLimited, "this key's limit of \(Int(limit)) requests a minute is used up; retry in \(seconds) s",
                                                   parameter: "key"))
        response.headers.add("Retry-After", String(seconds))
        return response
    }
}

public struct APIKeysError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
