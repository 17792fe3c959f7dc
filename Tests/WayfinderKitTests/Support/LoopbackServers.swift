import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Dataset
import DatasetImport
import HTTPServer
import MapsServer
import MapsService
import MapsTestSupport
import WayfinderKit

/// A real `wayfinder serve` in process on 127.0.0.1: a sample imported into a temporary
/// folder, `MapsService`, `MapsApplication` and `MicroHTTPDServer` wired as ServeCommand does.
final class LoopbackMapsServer: Sendable {
    let app: MapsApplication
    let server: MicroHTTPDServer
    let url: URL

    /// Serves a copy of `dataset` (so that each server has its own live traffic and watches).
    /// - Parameter clock: a hand-moved clock (then time-to-leave ticks are the test's to run);
    ///   nil: the real clock, with the time-to-leave loop ticking as in `wayfinder serve`.
    init(dataset source: String, label: String, clock: TestClock? = nil) throws {
        let dir = Fixtures.temporaryDirectory("wayfinderkit-\(label)").appendingPathComponent("dataset")
        try FileManager.default.copyItem(atPath: source, toPath: dir.path)
        let dataset = try Dataset(path: dir.path)
        if let clock {
            app = MapsApplication(service: try MapsService(dataset: dataset, clock: { clock.now }))
        } else {
            app = MapsApplication(service: try MapsService(dataset: dataset))
            app.timeToLeave.start()
        }
        var config = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
        config.workerThreads = 4
        config.errorLog = nil
        config.cors = .allowAll
        config.errorResponder = MapsApplication.errorResponder
        server = MicroHTTPDServer(configuration: config, handler: app.router().handler)
        try server.start()
        url = URL(string: "http://127.0.0.1:\(server.port)")!
    }

    var client: WayfinderClient { WayfinderClient(serverURL: url) }

    /// The Monaco sample imported once per test run.
    static let monacoDataset: String? = {
        guard Fixtures.monacoAvailable else { return nil }
        let dir = Fixtures.temporaryDirectory("wayfinderkit-import").appendingPathComponent("monaco")
        return (try? DatasetImporter(options: .init(extractPath: Fixtures.monaco, outputPath: dir.path)).run()) != nil ? dir.path : nil
    }()

    nonisolated(unsafe) private static var started: [Role: LoopbackMapsServer] = [:]
    private static let lock = NSLock()

    enum Role: Hashable {
        /// Shared by the tests that only read; time to leave ticks on the real clock.
        case monaco
        /// For the tests that change live traffic (so that routes elsewhere are not affected).
        case traffic
        /// On a clock the tests move (``clock(_:)``); time-to-leave ticks are theirs to run.
        case timed
        /// Like `.timed`, for a test that also changes live traffic.
        case timedTraffic
    }

    private static let clocks: [Role: TestClock] = [
        .timed: TestClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded())),
        .timedTraffic: TestClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded())),
    ]

    /// The hand-moved clock of a `.timed…` server; nil for the others (real time).
    static func clock(_ role: Role) -> TestClock? { clocks[role] }

    /// The server for `role`, started on first use. The import and start-up block, so they run
    /// on a GCD thread, never on the (small) pool that runs the async tests.
    static func shared(_ role: Role) async -> LoopbackMapsServer? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                lock.lock()
                defer { lock.unlock() }
                if let server = started[role] { return continuation.resume(returning: server) }
                guard let dataset = monacoDataset,
                      let server = try? LoopbackMapsServer(dataset: dataset, label: "\(role)", clock: clocks[role]) else {
                    return continuation.resume(returning: nil)
                }
                started[role] = server
                continuation.resume(returning: server)
            }
        }
    }
}

/// Places in the Monaco sample.
enum Monaco {
    /// Allées des Boulingrins, Monte-Carlo (north-east).
    static let monteCarlo = Coordinate(latitude: 43.7401, longitude: 7.4266)
    /// Rue du Gabian, Fontvieille (south-west).
    static let fontvieille = Coordinate(latitude: 43.7296, longitude: 7.4155)
    /// Avenue de l'Hermitage.
    static let hermitage = Coordinate(latitude: 43.7384, longitude: 7.4246)
    /// Tunnel Rocher Palais.
    static let rocher = Coordinate(latitude: 43.7315, longitude: 7.4198)
    /// Boulevard de Suisse.
    static let suisse = Coordinate(latitude: 43.7355, longitude: 7.4200)
    /// In the sea, kilometres from any road.
    static let sea = Coordinate(latitude: 43.70, longitude: 7.45)
}

/// Collects values from server threads.
final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func add(_ item: T) { lock.lock(); items.append(item); lock.unlock() }
    var all: [T] { lock.lock(); defer { lock.unlock() }; return items }
}

/// Waits until `condition` holds, polling every 10 ms for `seconds` worth of polls; returns
/// whether it held. The patience is counted in polls, not wall time: on a 2-core machine the
/// synchronous tests running beside these can stall the whole task pool for tens of seconds, and
/// a stall that keeps this test from polling must not count against what it waits for.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<max(1, Int(seconds * 100)) {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
}

/// Runs `body` with a deadline: throws (and cancels the body) after `seconds`.
func withDeadline<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw DeadlineExceeded(seconds: seconds)
        }
        group.cancelAll()
        return value
    }
}

struct DeadlineExceeded: Error, CustomStringConvertible {
    var seconds: Double
    var description: String { "did not finish within \(seconds) s" }
}

/// The OSM node pairs of a route's road segments, read with the OSRM-compatible `nearest`
/// endpoint (which reports the segment's two node ids) at points of the route.
func roadSegments(of route: Route, server url: URL) async throws -> [RoadSegment] {
    var result: [RoadSegment] = []
    let points = route.polyline
    for i in stride(from: 0, to: points.count - 1, by: 1) {
        let a = points[i], b = points[i + 1]
        let mid = Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
        let nearest = URL(string: "\(url.absoluteString)/nearest/v1/driving/\(mid.longitude),\(mid.latitude)")!
        let (data, _) = try await URLSession.shared.data(from: nearest)
        struct Answer: Decodable { struct Waypoint: Decodable { var nodes: [Int64]? }; var waypoints: [Waypoint] }
        if let nodes = try JSONDecoder().decode(Answer.self, from: data).waypoints.first?.nodes, nodes.count == 2 {
            result.append(RoadSegment(from: nodes[0], to: nodes[1]))
            result.append(RoadSegment(from: nodes[1], to: nodes[0]))
        }
    }
    return Array(Set(result))
}

