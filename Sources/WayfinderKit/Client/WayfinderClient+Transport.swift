import Foundation
import MapsAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP call of the API, before it becomes a `URLRequest`.
struct Endpoint: Sendable {
    var method = "GET"
    /// Already percent-encoded path, starting with `/`.
    var path: String
    var query: [(String, String)] = []
    var body: Data?
    var contentType: String?

    init(_ method: String = "GET", _ path: String, query: [(String, String)] = [], body: Data? = nil, contentType: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.contentType = contentType
    }
}

extension WayfinderClient {
    static let userAgent = "WayfinderKit/1.0"

    /// The full URL of `path` plus `query`, every query value percent-encoded (`+` too, which
    /// servers may read as a space).
    func url(_ path: String, query: [(String, String)]) -> URL {
        var base = serverURL.absoluteString
        if let q = base.firstIndex(where: { $0 == "?" || $0 == "#" }) { base = String(base[..<q]) }
        while base.hasSuffix("/") { base.removeLast() }
        var items = query
        if let key = configuration.apiKey { items.append(("key", key)) }
        var text = base + path
        if !items.isEmpty {
            text += "?" + items.map { "\(PercentEncoding.encode($0.0))=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        }
        // Every character was encoded above, so this cannot fail for a valid server URL.
        return URL(string: text) ?? serverURL
    }

    func urlRequest(_ endpoint: Endpoint) -> URLRequest {
        var request = URLRequest(url: url(endpoint.path, query: endpoint.query), cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: configuration.timeout)
        request.httpMethod = endpoint.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
        if let token = configuration.operatorToken { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        if let body = endpoint.body {
            request.httpBody = body
            request.setValue(endpoint.contentType ?? "application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Sends `endpoint`; returns the body of a 2xx answer, or throws the server's error.
    func send(_ endpoint: Endpoint) async throws(WayfinderError) -> Data {
        let (data, response) = try await perform(urlRequest(endpoint))
        guard (200..<300).contains(response.statusCode) else {
            throw ErrorMapping.error(status: response.statusCode, body: data)
        }
        return data
    }

    func get<T: Decodable>(_ path: String, query: [(String, String)] = [], as type: T.Type) async throws(WayfinderError) -> T {
        try ResponseDecoding.decode(T.self, from: try await send(Endpoint("GET", path, query: query)))
    }

    /// One request, cancelled with the calling task.
    func perform(_ request: URLRequest) async throws(WayfinderError) -> (Data, HTTPURLResponse) {
        if Task.isCancelled { throw .cancelled }
        let box = DataTaskBox()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) in
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let http = response as? HTTPURLResponse {
                            continuation.resume(returning: (data ?? Data(), http))
                        } else {
                            continuation.resume(throwing: WayfinderError.serverUnavailable("the answer from \(request.url?.host ?? "the server") is not HTTP"))
                        }
                    }
                    box.start(task)
                }
            } onCancel: {
                box.cancel()
            }
        } catch {
            throw ErrorMapping.transport(error, url: request.url)
        }
    }
}

/// Holds a data task so that a cancellation arriving before or after it starts cancels it.
final class DataTaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    func start(_ task: URLSessionTask) {
        lock.lock()
        self.task = task
        let cancelNow = cancelled
        lock.unlock()
        task.resume()
        if cancelNow { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let t = task
        lock.unlock()
        t?.cancel()
    }
}

/// Percent-encoding of path segments and query values: everything but RFC 3986's unreserved
/// characters is encoded, so `/`, `+`, `&`, `?`, `#` and `,` in a search text arrive intact.
enum PercentEncoding {
    static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }
}

enum ResponseDecoding {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(WayfinderError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw .decodingFailed(describe(error, type: T.self, data: data))
        } catch {
            throw .decodingFailed("\(T.self): \(error)")
        }
    }

    static func describe<T>(_ error: DecodingError, type: T.Type, data: Data) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "the top level" : String(p.drop { $0 == "." })
        }
        let what: String
        switch error {
        case .keyNotFound(let key, let context): what = "\"\(key.stringValue)\" is missing at \(path(context))"
        case .typeMismatch(_, let context): what = "\(path(context)) has an unexpected type"
        case .valueNotFound(_, let context): what = "\(path(context)) is null"
        case .dataCorrupted(let context): what = context.codingPath.isEmpty ? "the body is not JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default: what = "\(error)"
        }
        let preview = String(decoding: data.prefix(120), as: UTF8.self)
        return "cannot read the \(T.self) answer: \(what) (body starts \"\(preview)\")"
    }
}

/// The server's error bodies (TomTom routing and search, OSRM) into ``WayfinderError``.
enum ErrorMapping {
    /// Reads every error shape Wayfinder emits: TomTom routing
    /// `{error:{description}, detailedError:{code,message,target}}`, TomTom search
    /// `{errorText, error:"…", detailedError:{…}}`, OSRM `{code, message}`.
    struct Envelope: Decodable {
        var detailedError: DetailedError?
        var code: String?
        var message: String?
        var errorText: String?
        var errorString: String?
        var errorDescription: String?
        /// More than the message says (time to leave: "the trip takes 25 min; leaving now arrives at …").
        var detail: String?

        enum Keys: String, CodingKey { case detailedError, code, message, errorText, error, detail }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            detailedError = try? c.decodeIfPresent(DetailedError.self, forKey: .detailedError)
            code = try? c.decodeIfPresent(String.self, forKey: .code)
            message = try? c.decodeIfPresent(String.self, forKey: .message)
            errorText = try? c.decodeIfPresent(String.self, forKey: .errorText)
            errorString = try? c.decodeIfPresent(String.self, forKey: .error)
            errorDescription = (try? c.decodeIfPresent(APIError.Body.Description.self, forKey: .error))?.description
            detail = try? c.decodeIfPresent(String.self, forKey: .detail)
        }
    }

    static func error(status: Int, body: Data) -> WayfinderError {
        let envelope = try? JSONDecoder().decode(Envelope.self, from: body)
        let code = envelope?.detailedError?.code ?? envelope?.code
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        var message = envelope?.detailedError?.message ?? envelope?.message ?? envelope?.errorDescription ?? envelope?.errorText
            ?? envelope?.errorString ?? (text.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(text)")
        if let detail = envelope?.detail, !detail.isEmpty { message += " (\(detail))" }
        let target = envelope?.detailedError?.target.flatMap { $0.isEmpty ? nil : $0 }
        switch code {
        case "NO_ROUTE_FOUND", "NoRoute", "NoTable", "NoTrips", "NoMatch": return .noRoute(message)
        case "MAP_MATCHING_FAILURE", "NoSegment": return .noRoadNearPoint(message)
        case "NOT_FOUND", "NotFound": return .notFound(message)
        case "SERVICE_UNAVAILABLE", "ServiceUnavailable", "INTERNAL_ERROR", "RATE_LIMITED": return .serverUnavailable(message)
        default: break
        }
        switch status {
        case 404, 410: return .notFound(message)
        case 408, 429, 500...599: return .serverUnavailable(message)
        case 400..<500: return .invalidQuery(message, parameter: target)
        default: return .serverUnavailable("unexpected HTTP status \(status): \(message)")
        }
    }

    static func transport(_ error: any Error, url: URL?) -> WayfinderError {
        if let e = error as? WayfinderError { return e }
        if error is CancellationError { return .cancelled }
        let server = url.map { "\($0.scheme ?? "http")://\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" } ?? "the server"
        if let u = error as? URLError {
            switch u.code {
            case .cancelled: return .cancelled
            case .timedOut: return .serverUnavailable("\(server) did not answer in time")
            case .cannotConnectToHost: return .serverUnavailable("cannot connect to \(server) (is `wayfinder serve` running?)")
            case .cannotFindHost, .dnsLookupFailed: return .serverUnavailable("cannot find the host of \(server)")
            default: return .serverUnavailable("\(server): \(u.localizedDescription)")
            }
        }
        let ns = error as NSError
        if ns.domain == NSURLErrorDomain && ns.code == NSURLErrorCancelled { return .cancelled }
        return .serverUnavailable("\(server): \(error.localizedDescription)")
    }
}
