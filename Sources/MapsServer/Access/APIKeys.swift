import Foundation
import HTTPServer
import MapsAPI

/// Optional API keys, as TomTom clients send them (`key=` in the query, or the `X-API-Key`
/// header), each with its own rate limit and role. Off unless `wayfinder serve --api-keys FILE`
/// is given.
///
/// The file has one key per line: `KEY [REQUESTS_PER_MINUTE] [operator]`. The limit defaults
/// to 600; a key marked `operator` may also write (traffic, probes), sent as
/// `Authorization: Bearer KEY`. `#` starts a comment. Limits are token buckets: a key may burst
/// up to its per-minute allowance, then gets 429 with `Retry-After` until tokens refill.
public final class APIKeys: Sendable {
    let perMinute: [String: Double]
    /// Keys that may write.
    let operators: Set<String>
    private let buckets: TokenBuckets

    public convenience init(perMinute: [String: Double], operators: Set<String> = []) {
        self.init(perMinute: perMinute, operators: operators, clock: { Date().timeIntervalSince1970 })
    }

    init(perMinute: [String: Double], operators: Set<String> = [], clock: @escaping @Sendable () -> Double) {
        self.perMinute = perMinute
        self.operators = operators
        buckets = TokenBuckets(clock: clock)
    }

    /// Reads a key file; a malformed line is an error naming it (but never the key itself).
    public static func load(path: String) throws -> APIKeys {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var keys: [String: Double] = [:]
        var operators: Set<String> = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            if fields.isEmpty { continue }
            let key = fields.removeFirst()
            var limit = 600.0
            if fields.last == "operator" {
                fields.removeLast()
                operators.insert(key)
            }
            if let text = fields.first {
                guard fields.count == 1, let v = Double(text), v > 0, v.isFinite else {
                    throw APIKeysError("\(path):\(n + 1): expected \"KEY [REQUESTS_PER_MINUTE] [operator]\"")
                }
                limit = v
            }
            guard keys[key] == nil else { throw APIKeysError("\(path):\(n + 1): this key is already on an earlier line") }
            keys[key] = limit
        }
        guard !keys.isEmpty else { throw APIKeysError("\(path) holds no key") }
        return APIKeys(perMinute: keys, operators: operators)
    }

    /// The key a request carries (`key=` or `X-API-Key`), valid or not.
    static func presented(_ request: HTTPRequest) -> String? {
        request.query["key"] ?? request.headers["X-API-Key"]
    }

    /// Nil when the request may go on; otherwise the 403 or 429 answer.
    func check(_ request: HTTPRequest) -> HTTPResponse? {
        let key = Self.presented(request)
        guard let key, let limit = perMinute[key] else {
            return JSONResponse.error(APIError(.unauthorized, key == nil ? "an API key is required: add key=… to the query"
                                               : "the API key is not valid", parameter: "key"))
        }
        guard let seconds = buckets.take(1, from: key, perMinute: limit) else { return nil }
        return AccessResponses.limited("this key's limit of \(Int(limit)) requests a minute is used up; retry in \(seconds) s",
                                       parameter: "key", retryAfter: seconds)
    }
}

public struct APIKeysError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
