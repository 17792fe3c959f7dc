/// When and how in-memory response bodies are gzip-compressed.
///
/// A body is compressed when it is `.bytes`, at least `minimumBytes` long, its `Content-Type`
/// passes `isCompressible`, the response has no `Content-Encoding` yet, its status allows a body,
/// and the request's `Accept-Encoding` accepts gzip. Every response that *could* be compressed
/// gets `Vary: Accept-Encoding`, whether or not this client accepted gzip, so caches keep the
/// two variants apart. Output that is not smaller than the input is discarded.
public struct CompressionPolicy: Sendable {
    /// Bodies shorter than this many bytes are sent as they are.
    public var minimumBytes: Int
    /// libdeflate level, 1 (fastest) ... 12 (smallest); 6 is zlib's default trade-off.
    public var level: Int
    /// Decides from the `Content-Type` value whether compressing is worthwhile.
    public var isCompressible: @Sendable (String) -> Bool

    public init(minimumBytes: Int = 1024, level: Int = 6,
                isCompressible: @escaping @Sendable (String) -> Bool = CompressionPolicy.isTextual) {
        self.minimumBytes = minimumBytes
        self.level = level
        self.isCompressible = isCompressible
    }

    /// Returns `response`, compressed if the rules above allow it.
    public func apply(to response: HTTPResponse, acceptEncoding: String?) -> HTTPResponse {
        guard case .bytes(let body) = response.body, body.count >= minimumBytes,
              !response.status.forbidsBody, !response.headers.contains("Content-Encoding"),
              let type = response.headers["Content-Type"], isCompressible(type) else { return response }
        var out = response
        if !out.headers.listContains("Vary", token: "Accept-Encoding") && !out.headers.listContains("Vary", token: "*") {
            out.headers.add("Vary", "Accept-Encoding")
        }
        guard Self.acceptsGzip(acceptEncoding), let gz = Gzip.compress(body, level: level), gz.count < body.count else {
            return out
        }
        out.body = .bytes(gz)
        out.headers.set("Content-Encoding", "gzip")
        return out
    }

    /// Whether an `Accept-Encoding` value accepts gzip (RFC 9110 §12.5.3): `gzip`/`x-gzip` with a
    /// non-zero q-value, or `*` with a non-zero q-value when gzip is not listed.
    public static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var gzip: Double?
        var star: Double?
        for element in acceptEncoding.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            let coding = HTTPHeaders.asciiLowercased(String(first.trimmingASCIIWhitespace()))
            var q = 1.0
            for parameter in parts.dropFirst() {
                let p = parameter.trimmingASCIIWhitespace()
                if p.hasPrefix("q=") || p.hasPrefix("Q=") { q = Double(p.dropFirst(2)) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = max(gzip ?? 0, q) }
            if coding == "*" { star = q }
        }
        if let gzip { return gzip > 0 }
        return (star ?? 0) > 0
    }

    /// Text, JSON, JavaScript, XML, SVG, `+json`/`+xml` types (GeoJSON included) and protobuf.
    public static let isTextual: @Sendable (String) -> Bool = { contentType in
        let type = HTTPHeaders.asciiLowercased(String(contentType.split(separator: ";").first ?? "")
            .trimmingCharacters(in: " \t"))
        if type.hasPrefix("text/") && type != "text/event-stream" { return true }
        if type.hasSuffix("+json") || type.hasSuffix("+xml") { return true }
        return [
            "application/json", "application/javascript", "application/x-javascript", "application/xml",
            "image/svg+xml", "application/wasm", "application/x-protobuf", "application/vnd.mapbox-vector-tile",
            "application/manifest+json",
        ].contains(type)
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s.removeFirst() }
        while let l = s.last, chars.contains(l) { s.removeLast() }
        return String(s)
    }
}
