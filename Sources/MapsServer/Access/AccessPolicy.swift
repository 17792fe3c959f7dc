import Foundation
public import HTTPServer
public import MapsAPI

/// Who may do what (the README's threat model). Every HTTP client is untrusted:
/// - reading (routes, search, tiles, matching, time to leave) is open, or wants an API key when
///   `--api-keys` is given;
/// - writing (any method but GET, HEAD and OPTIONS under `/traffic/` or `/admin/`: speeds,
///   closures, probes, uploads) is for operators: `Authorization: Bearer TOKEN` with the token of
///   `--operator-token-file` or a key marked `operator`. With no operator credential configured,
///   writes stay open only to clients on this machine while the server listens on loopback
///   without keys (not through a proxy), and are refused otherwise.
///
/// Each client has an identity for quotas and ownership: `anonymous` when keys are off, else a
/// digest of its key (the key itself is never stored or logged).
public struct AccessPolicy: Sendable {
    public enum Writing: String, Sendable {
        case operatorCredential = "operator credential"
        case openOnLoopback = "open on loopback"
        case disabled
    }

    public var keys: APIKeys?
    /// Bearer tokens that may write: the token file's and the operator keys.
    let operatorTokens: [[UInt8]]
    public let writing: Writing

    /// - Parameters:
    ///   - operatorToken: the token of `--operator-token-file`, if any.
    ///   - loopbackOnly: whether the server listens on a loopback address only.
    public init(keys: APIKeys?, operatorToken: String?, loopbackOnly: Bool) {
        self.keys = keys
        var tokens = (keys?.operators ?? []).sorted().map { Array($0.utf8) }
        if let operatorToken { tokens.append(Array(operatorToken.utf8)) }
        operatorTokens = tokens
        // Keys mean several users: then no user key may write, whatever the address.
        writing = !tokens.isEmpty ? .operatorCredential : keys == nil && loopbackOnly ? .openOnLoopback : .disabled
    }

    /// Everything open, writes included: a server on loopback without keys (the default).
    public static let open = AccessPolicy(keys: nil, operatorToken: nil, loopbackOnly: true)

    /// Paths anyone may read without a key: the web app, its assets, /health and /openapi.json.
    static func isPublic(_ path: String) -> Bool {
        path == "/" || path == "/health" || path == "/status" || path == "/openapi.json" || path == "/favicon.ico"
            || path.hasPrefix("/app/") || path.hasPrefix("/leaflet/")
    }

    /// Whether a request changes what the server serves to others.
    static func isWrite(_ request: HTTPRequest) -> Bool {
        guard request.method != .get, request.method != .head, request.method != .options else { return false }
        return request.path.hasPrefix("/traffic/") || request.path.hasPrefix("/admin/")
    }

    /// Whether the request carries a valid operator credential (compared in constant time).
    func isOperator(_ request: HTTPRequest) -> Bool {
        guard let token = Self.bearer(request) else { return false }
        let presented = Array(token.utf8)
        // Every token is compared in full, so the time taken says nothing about which matched.
        var matched = false
        for token in operatorTokens where Self.constantTimeEqual(token, presented) { matched = true }
        return matched
    }

    /// The identity of a request with an operator credential (it sees every watch).
    static let operatorIdentity = "operator"

    /// The identity quotas and ownership use.
    func identity(_ request: HTTPRequest) -> String {
        if isOperator(request) { return Self.operatorIdentity }
        guard keys != nil, let key = APIKeys.presented(request) else { return "anonymous" }
        return "key:" + Self.digest(key)
    }

    /// Nil when the request may go on; otherwise the 401, 403 or 429 answer.
    func check(_ request: HTTPRequest) -> HTTPResponse? {
        if Self.isPublic(request.path) { return nil }
        if Self.isWrite(request) { return checkWrite(request) }
        if isOperator(request) { return nil }
        return keys?.check(request)
    }

    private func checkWrite(_ request: HTTPRequest) -> HTTPResponse? {
        switch writing {
        case .openOnLoopback:
            guard Self.isLocal(request) else {
                return JSONResponse.error(APIError(.unauthorized, "writing from beyond this machine (here through a proxy) needs an operator "
                                                   + "credential: start the server with --operator-token-file"))
            }
            return nil
        case .disabled:
            return JSONResponse.error(APIError(.unauthorized, "writing is disabled on this server: it has API keys or listens beyond "
                                               + "loopback, and no operator credential (serve --operator-token-file, or a key marked operator)"))
        case .operatorCredential:
            if isOperator(request) { return nil }
            if Self.bearer(request) != nil || APIKeys.presented(request) != nil {
                return JSONResponse.error(APIError(.unauthorized, "this credential may not write; writing needs an operator's",
                                                   parameter: "Authorization"))
            }
            var response = JSONResponse.error(APIError(.unauthenticated, "writing needs an operator credential: Authorization: Bearer TOKEN",
                                                       parameter: "Authorization"))
            response.headers.set("WWW-Authenticate", "Bearer realm=\"wayfinder\"")
            return response
        }
    }

    /// Whether a request comes from this machine itself: a loopback peer, not forwarded by a
    /// proxy (which says so with `X-Forwarded-For`, `Forwarded` or `X-Real-IP`, as the README's
    /// nginx configuration does). In-process requests have no peer and are local.
    static func isLocal(_ request: HTTPRequest) -> Bool {
        if request.headers.contains("X-Forwarded-For") || request.headers.contains("Forwarded") || request.headers.contains("X-Real-IP") {
            return false
        }
        guard let peer = request.remoteAddress else { return true }
        return isLoopback(peer)
    }

    /// Whether an address (a peer's, or one to listen on) is this machine's loopback.
    public static func isLoopback(_ address: String) -> Bool {
        address == "localhost" || address == "::1" || address.hasPrefix("[::1]") || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }

    static func bearer(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["Authorization"], value.count > 7,
              value.prefix(7).lowercased() == "bearer " else { return nil }
        return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// Equal contents, in time that depends on the lengths only.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0 && a.count == b.count
    }

    /// A stable 64-bit digest (FNV-1a) naming a key in stored watches and quotas. Only keys of
    /// the operator's own file are valid, so nobody can pick a key to collide with another.
    static func digest(_ key: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Reads `--operator-token-file`: one token of at least 16 characters, nothing else.
    public static func loadOperatorToken(path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count >= 16, !text.contains(where: \.isWhitespace) else {
            throw APIKeysError("\(path) must hold one token of at least 16 characters without spaces")
        }
        return text
    }
}

/// The refusals every quota shares.
enum AccessResponses {
    /// 429 with `Retry-After`: the caller's own quota.
    static func limited(_ message: String, parameter: String? = nil, retryAfter seconds: Int) -> HTTPResponse {
        var response = JSONResponse.error(APIError(.rateLimited, message, parameter: parameter))
        response.headers.set("Retry-After", String(seconds))
        return response
    }

    /// 503 with `Retry-After`: a server-wide cap.
    static func full(_ message: String, retryAfter seconds: Int) -> HTTPResponse {
        var response = JSONResponse.error(APIError(.unavailable, message))
        response.headers.set("Retry-After", String(seconds))
        return response
    }
}
