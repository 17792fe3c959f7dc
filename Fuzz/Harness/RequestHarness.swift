import Foundation
import HTTPServer
import MapsServer
import MapsService
import Dataset
import DatasetImport

/// The result of sending one input, read as an HTTP request, to the whole application.
public struct RequestOutcome: FuzzOutcome {
    /// The response status, or nil when the request-target itself was rejected (the server answers 400 then).
    public var status: Int?
    public var targetError: String?
    /// The start of an error response's body.
    public var errorBody: String?
    public var problems: [String] = []

    public var summary: String {
        if let status { return "HTTP \(status)" + (errorBody.map { ": \($0)" } ?? "") }
        return "request target rejected: \(targetError ?? "?")"
    }
}

extension FuzzHarness {
    /// Reads the input as a request — a first line `METHOD TARGET` (or just a target, for GET),
    /// then `name: value` header lines, a blank line and the body — and hands it to the router of
    /// a `MapsApplication` over a small Monaco dataset (`Fuzz/data/monaco-port.osm.pbf`, imported
    /// once per process), exactly as the server would. Checks the README's promise that bad input
    /// never gets a 5xx, and that JSON responses are JSON. State a request leaves behind (live
    /// traffic, time-to-leave watches) is cleared afterwards so that inputs stay independent.
    public static func request(_ bytes: UnsafeRawBufferPointer) -> RequestOutcome {
        var outcome = RequestOutcome()
        let fixture: RequestFixture
        switch RequestFixture.shared {
        case .success(let f): fixture = f
        case .failure(let why):
            outcome.problems.append("no application to fuzz: \(why.message)")
            return outcome
        }
        let (method, target, headers, body) = splitRequest(Array(bytes))
        let request: HTTPRequest
        do {
            request = try HTTPRequest(method: method, target: target, headers: headers, body: body, remoteAddress: "127.0.0.1")
        } catch {
            outcome.targetError = error.description
            return outcome
        }
        let response = fixture.router.handle(request)
        defer { fixture.clearState(after: response) }
        outcome.status = response.status.rawValue
        if response.status.rawValue >= 400, let payload = response.body.bytes {
            outcome.errorBody = String(decoding: payload.prefix(160), as: UTF8.self)
        }
        if response.status.rawValue >= 500 {
            let text = response.body.bytes.map { String(decoding: $0.prefix(300), as: UTF8.self) } ?? ""
            outcome.problems.append("\(method) \(target.prefix(200)) answered \(response.status): \(text)")
        }
        if !(100...599).contains(response.status.rawValue) {
            outcome.problems.append("\(method) \(target.prefix(200)) answered the impossible status \(response.status.rawValue)")
        }
        switch response.body {
        case .bytes(let payload):
            let type = response.headers["Content-Type"] ?? ""
            if type.hasPrefix("application/json") && !response.status.forbidsBody && method != .head {
                if (try? JSONSerialization.jsonObject(with: Data(payload), options: [.fragmentsAllowed])) == nil {
                    outcome.problems.append("\(method) \(target.prefix(200)) answered \(response.status) with invalid JSON: \(String(decoding: payload.prefix(200), as: UTF8.self))")
                }
            }
        case .stream(let channel):
            channel.close()
        case .file:
            break
        }
        return outcome
    }

    /// `METHOD TARGET\nname: value\n…\n\nbody`; a first line without a space is a GET of that target.
    static func splitRequest(_ bytes: [UInt8]) -> (HTTPMethod, String, HTTPHeaders, [UInt8]) {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var bodyStart = bytes.count
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
            var line = bytes[start..<end]
            if line.last == 13 { line = line.dropLast() }
            if line.isEmpty && !lines.isEmpty {
                bodyStart = min(end + 1, bytes.count)
                break
            }
            lines.append(line)
            start = end + 1
        }
        let first = lines.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        var method = HTTPMethod.get
        var target = first
        if let space = first.firstIndex(of: " ") {
            method = HTTPMethod(String(first[..<space]))
            target = String(first[first.index(after: space)...])
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            headers.add(String(text[..<colon]), String(text[text.index(after: colon)...].drop { $0 == " " }))
        }
        return (method, target, headers, Array(bytes[bodyStart...]))
    }
}

/// One application over a small dataset, imported into a temporary folder on first use and
/// removed when the process exits.
final class RequestFixture: Sendable {
    struct Failure: Error { var message: String }

    let app: MapsApplication
    let router: Router

    static let shared: Result<RequestFixture, Failure> = make()

    /// The extract the dataset is built from: `$WAYFINDER_FUZZ_EXTRACT`, else `Fuzz/data/monaco-port.osm.pbf`.
    static var extractPath: String {
        if let path = ProcessInfo.processInfo.environment["WAYFINDER_FUZZ_EXTRACT"], !path.isEmpty { return path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/monaco-port.osm.pbf").path
    }

    /// A fixed clock (the handler tests' Monday 03:00), so that runs repeat.
    static let now = Date(timeIntervalSince1970: 1_796_000_400)

    private init(app: MapsApplication) {
        self.app = app
        router = app.router()
    }

    private static func make() -> Result<RequestFixture, Failure> {
        let folder = FuzzInputs.temporaryFolder + "/wayfinder-fuzz-request-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        RequestFixtureCleanup.register(folder)
        var options = DatasetImporter.Options(extractPath: extractPath, outputPath: folder + "/dataset")
        options.progress = nil
        do {
            _ = try DatasetImporter(options: options).run()
            let dataset = try Dataset(path: folder + "/dataset")
            let service = try MapsService(dataset: dataset, clock: { RequestFixture.now })
            return .success(RequestFixture(app: MapsApplication(service: service)))
        } catch {
            return .failure(Failure(message: "importing \(extractPath): \(error)"))
        }
    }

    /// Forgets what a request stored: live traffic updates and time-to-leave watches.
    func clearState(after response: HTTPResponse) {
        let service = app.service
        if !service.trafficStatus().updates.isEmpty {
            service.trafficStore.clearLive()
            service.refreshTraffic(force: true)
        }
        for watch in app.timeToLeave.list() { _ = app.timeToLeave.delete(watch.id) }
    }
}

/// Removes the fixture's folder at exit (libFuzzer exits through `exit`, so `atexit` runs).
enum RequestFixtureCleanup {
    nonisolated(unsafe) static var folders: [String] = []

    static func register(_ folder: String) {
        if folders.isEmpty { atexit { for f in RequestFixtureCleanup.folders { try? FileManager.default.removeItem(atPath: f) } } }
        folders.append(folder)
    }
}
