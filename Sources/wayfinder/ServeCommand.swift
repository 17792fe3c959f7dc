import Foundation
import Dataset
import MapsService
import MapsServer
import HTTPServer
import TimeToLeave
import MapsAPI
import RoadNetwork
import RoutePlanning

enum ServeCommand {
    static let usage = """
    USAGE: wayfinder serve DATASET_DIR [--host 127.0.0.1] [--port 8080] [options]

    Serves the HTTP API (TomTom-shaped routing and search, OSRM and Nominatim compatible
    endpoints, live traffic), the base map tiles and the web app. Live traffic written to
    DATASET_DIR/state by `wayfinder traffic` is picked up within a second; a re-imported dataset
    is picked up on SIGHUP or when its manifest changes, without dropping requests. SIGINT or
    SIGTERM stops the server after in-flight requests finish.

    OPTIONS:
      --host ADDRESS          address to listen on (default 127.0.0.1; 0.0.0.0 for all)
      --port PORT             port (default 8080; 0 picks a free one and prints it)
      --workers N             worker threads (default: one per core, at least 2)
      --max-body-bytes N      largest request body (default 1048576)
      --max-url-bytes N       longest URL (default 8192)
      --timeout SECONDS       idle connection timeout against slow clients (default 30)
      --max-waypoints N       locations in one route request (default 150, at most 1000)
      --max-alternatives N    alternative routes in one answer (default 5, at most 5)
      --max-detour-seconds N  largest detour budget of a search along a route (default 3600, at most 10800)
      --max-along-route-results N
                              results of a search along a route (default 20, at most 100)
      --max-route-points N    points of the route a search along a route is given (default 10000, at most 100000)
      --max-results N         results of any other search (default 100, at most 1000)
      --max-matrix-cells N    cells (origins × destinations) of a synchronous matrix (default 2500, at most
                              1000000; OSRM's /table keeps at least 10000)
      --max-async-matrix-cells N
                              cells of an asynchronous matrix (default 1000000, at most 4000000)
      --max-isochrone-minutes N
                              the largest isochrone or reachable range (default 120, at most 1440); distance
                              budgets up to N × 2 km, fuel budgets up to N / 6 L
      --max-trace-points N    fixes of one trace to match or probe upload (default 10000, at most 100000)
    \(ServeAccess.usage)
      --web DIR               serve the web app from DIR instead of the built-in copy
      --traffic-replay FILE   play recorded traffic: CSV offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh,
                              each row applied as a live speed that many seconds after the server starts
                              (on the server's clock)
      --clock-speed N         for tests and demos: from the real time at start, the server's clock runs N
                              times as fast as real time (0.1...1000; default 1, the real clock), so watches
                              re-plan, replays play and countdowns reach zero N times sooner
      --demo-congestion       for demos only: invented weekly congestion by road class (rush hours up to
                              1.9× on arterials) on top of free flow; not data, and labelled so in
                              /health and every route. Off by default: weekly speeds come only from an
                              imported profile file and from what the server learns from live traffic
      --learn-min-observations N
                              observations a segment's quarter-hour of the week needs before its learned
                              speed counts (default 4)
      --quiet                 no access log
      --help                  show this help
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: (["host", "port", "workers", "max-body-bytes", "max-url-bytes", "timeout", "web",
                                                   "traffic-replay", "clock-speed", "max-waypoints", "max-alternatives", "max-trace-points",
                                                   "max-detour-seconds", "max-along-route-results", "max-route-points", "max-results",
                                                   "max-matrix-cells", "max-async-matrix-cells", "max-isochrone-minutes", "learn-min-observations"] as Set<String>)
                                                  .union(ServeAccess.valueOptions))
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one dataset folder") }
        var config = MicroHTTPDServer.Configuration()
        config.host = a.value("host") ?? "127.0.0.1"
        config.port = UInt16(try a.int("port", in: 0...65535) ?? 8080)
        if let w = try a.int("workers", in: 1...256) { config.workerThreads = w }
        if let b = try a.int("max-body-bytes", in: 1024...(1 << 30)) { config.maxBodyBytes = b }
        if let u = try a.int("max-url-bytes", in: 256...(1 << 20)) { config.maxURLBytes = u }
        if let t = try a.int("timeout", in: 1...3600) { config.connectionTimeoutSeconds = t }
        var limits = ServiceLimits()
        let ceilings = ServiceLimits.ceilings
        if let v = try a.int("max-waypoints", in: 2...ceilings.maxWaypoints) { limits.maxWaypoints = v }
        if let v = try a.int("max-alternatives", in: 0...ceilings.maxAlternatives) { limits.maxAlternatives = v }
        if let v = try a.int("max-detour-seconds", in: 1...ceilings.maxDetourSeconds) { limits.maxDetourSeconds = v }
        if let v = try a.int("max-along-route-results", in: 1...ceilings.maxAlongRouteResults) { limits.maxAlongRouteResults = v }
        if let v = try a.int("max-route-points", in: 2...ceilings.maxAlongRoutePoints) { limits.maxAlongRoutePoints = v }
        if let v = try a.int("max-results", in: 1...ceilings.maxSearchResults) { limits.maxSearchResults = v }
        if let v = try a.int("max-matrix-cells", in: 1...ceilings.maxMatrixCells) { limits.maxMatrixCells = v }
        if let v = try a.int("max-async-matrix-cells", in: 1...ceilings.maxAsyncMatrixCells) { limits.maxAsyncMatrixCells = v }
        if let v = try a.int("max-isochrone-minutes", in: 1...ceilings.maxIsochroneMinutes) { limits.maxIsochroneMinutes = v }
        if let v = try a.int("max-trace-points", in: 2...ceilings.maxTracePoints) { limits.maxTracePoints = v }
        var options = MapsApplication.Options()
        options.http = .init(maxBodyBytes: config.maxBodyBytes, maxURLBytes: config.maxURLBytes, workers: config.workerThreads,
                             timeoutSeconds: config.connectionTimeoutSeconds)
        if let web = a.value("web") { options.webRoot = web }
        try ServeAccess.read(&a, host: config.host, into: &options)
        let quiet = a.flag("quiet")
        var timeModel = TimeModelSettings(demoCongestion: a.flag("demo-congestion"))
        if let v = try a.int("learn-min-observations", in: 1...10_000) { timeModel.minimumObservations = v }
        let replayPath = a.value("traffic-replay")
        var clockSpeed = 1.0
        if let text = a.value("clock-speed") {
            guard let v = Double(text), v >= 0.1, v <= 1000 else { throw UsageError("--clock-speed must be a number in 0.1...1000") }
            clockSpeed = v
        }
        try a.checkAllUsed()
        var replay: TrafficReplay?
        if let replayPath {
            do { replay = try TrafficReplay.load(path: replayPath) } catch { throw CommandFailure(error.description, exitCode: ExitCode.dataError) }
        }

        // Block the signals before any thread starts, so every thread inherits the mask.
        let signals = TerminationSignals.block([SIGINT, SIGTERM, SIGHUP])
        let path = a.positional[0]
        let clock = ServerClock.make(speed: clockSpeed, dataset: path)
        let serviceLimits = limits, serviceTimeModel = timeModel
        let open: @Sendable (String) throws -> MapsService = {
            try Commands.openService($0, clock: clock?.now, limits: serviceLimits, timeModel: serviceTimeModel)
        }
        // The files are checked in the background (a country's dataset takes seconds to read, a
        // minute from a cold disk), so the server listens at once; routing waits for the graph
        // file's check. A reload checks before it switches.
        let app = MapsApplication(service: try Commands.openService(path, clock: clock?.now, limits: serviceLimits, timeModel: timeModel,
                                                                    verify: false, graphsReady: BackgroundVerification.checkGraph),
                                  options: options)
        if let clock { FileHandle.standardError.write(Data("wayfinder: \(clock.description)\n".utf8)) }
        if timeModel.demoCongestion {
            FileHandle.standardError.write(Data("wayfinder: demo congestion on: invented weekly rush hours by road class, not traffic data\n".utf8))
        }
        FileHandle.standardError.write(Data((ServeAccess.announcement(options.access) + "\n").utf8))
        if let replay { app.timeToLeave.play(replay) }
        app.timeToLeave.start()
        config.cors = .allowAll
        config.accessLog = quiet ? nil : AccessLogEntry.standardError
        config.errorResponder = MapsApplication.errorResponder
        let server = MicroHTTPDServer(configuration: config, handler: app.handler())
        do { try server.start() } catch {
            throw CommandFailure("cannot serve on \(config.host):\(config.port): \(error)", exitCode: ExitCode.ioError)
        }
        let dataset = app.service.dataset.manifest
        print("wayfinder serving \(dataset.source.name) (\(dataset.profiles.joined(separator: ", "))) at http://\(config.host == "0.0.0.0" ? "127.0.0.1" : config.host):\(server.port)/")
        fflush(nil)

        BackgroundVerification.start(app: app, quiet: quiet)
        // Background upkeep: live traffic within a second, re-imported datasets within two.
        let watcher = DatasetWatcher(path: path, app: app, open: open)
        watcher.start()
        while true {
            let signal = signals.wait()
            if signal == SIGHUP {
                watcher.reload(reason: "SIGHUP")
                continue
            }
            FileHandle.standardError.write("wayfinder: stopping (finishing in-flight requests)\n".data(using: .utf8)!)
            watcher.stop()
            app.timeToLeave.stop()
            server.stop(gracePeriod: .seconds(10))
            return
        }
    }
}

/// Polls `state/traffic` and the manifest: live updates are applied within a second, and a new
/// import is opened and swapped in without dropping a request.
final class DatasetWatcher: @unchecked Sendable {
    let path: String
    let app: MapsApplication
    /// Opens a dataset the way the server was started (its clock and limits).
    let open: @Sendable (String) throws -> MapsService
    private let queue = DispatchQueue(label: "wayfinder.watcher")
    private var timer: (any DispatchSourceTimer)?
    private var manifestID: String
    /// A manifest that failed to open is not retried every half second (each try re-checks the
    /// whole dataset); only a newer manifest or SIGHUP tries again.
    private var failedManifestID: String?

    init(path: String, app: MapsApplication, open: @escaping @Sendable (String) throws -> MapsService) {
        self.path = path
        self.app = app
        self.open = open
        manifestID = app.service.dataset.manifest.id
    }

    func start() {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + 0.5, repeating: 0.5)
        t.setEventHandler { [weak self] in self?.tick() }
        t.resume()
        timer = t
    }

    func stop() { timer?.cancel() }

    func tick() {
        app.service.refreshTraffic()
        if let manifest = try? DatasetLayout(root: path).readManifest(), manifest.id != manifestID, manifest.id != failedManifestID {
            reloadNow(reason: "new import \(manifest.id)", manifestID: manifest.id)
        }
    }

    func reload(reason: String) { queue.async { self.reloadNow(reason: reason, manifestID: nil) } }

    private func reloadNow(reason: String, manifestID wanted: String?) {
        do {
            let service = try open(path)
            app.reload(service)
            manifestID = service.dataset.manifest.id
            failedManifestID = nil
            FileHandle.standardError.write("wayfinder: reloaded the dataset (\(reason))\n".data(using: .utf8)!)
        } catch {
            failedManifestID = wanted ?? (try? DatasetLayout(root: path).readManifest())?.id
            FileHandle.standardError.write("wayfinder: keeping the current dataset; reload failed (retried on SIGHUP or a newer import): \(error)\n".data(using: .utf8)!)
        }
    }
}

/// Checks the dataset a server started with against its checksums while it already serves: the
/// first profile's engine is made (after its columns are checked), then the graph file is checked
/// whole (the other profiles' first routes wait for their own columns only), then the other files. A damaged
/// file stops the server (status 65, with the file named), as it would have refused to start; a
/// places index or base map replaced meanwhile by a reload (which checks its own) is not judged.
/// A damaged graph stops it in any case: requests may be waiting to read it.
enum BackgroundVerification {
    static func start(app: MapsApplication, quiet: Bool) {
        let service = app.service
        let dataset = service.dataset
        DispatchQueue.global(qos: .utility).async {
            let start = DispatchTime.now()
            service.planning.warmUp()
            let ready = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            do {
                let graphMs = try dataset.checkGraph()
                let ms = try dataset.verifyFiles()
                if !quiet {
                    let modes = service.planning.preparedModes.map(\.rawValue).joined(separator: ", ")
                    FileHandle.standardError.write(Data("""
                        wayfinder: graph file verified in \(Int(graphMs)) ms, \(modes) routing ready after \(String(format: "%.1f", ready)) s; \
                        dataset files verified in \(Int(ms)) ms

                        """.utf8))
                }
            } catch {
                guard app.service.dataset === dataset else { return }
                stop(error)
            }
        }
    }

    /// Checks the graph file's columns of `mode` (once; later calls return at once), stopping the
    /// server when one is damaged. The whole file is checked after the first mode's engine is made.
    @Sendable static func checkGraph(_ dataset: Dataset, mode: TravelMode) {
        do { try dataset.checkGraph(for: mode) } catch { stop(error) }
    }

    static func stop(_ error: any Error) -> Never {
        FileHandle.standardError.write(Data("wayfinder: stopping: \(error)\n".utf8))
        exit(ExitCode.dataError)
    }
}

/// `--clock-speed`: a server clock that runs faster than real time from the moment the server
/// starts, so that end-to-end tests and demos of time to leave take seconds. Every time-related
/// decision reads it (routing's "now", live traffic expiry, watches, replays).
struct ServerClock: Sendable {
    let realStart: Date
    let speed: Double
    let zone: TimeZone

    /// Nil at speed 1 (the real clock).
    static func make(speed: Double, dataset path: String) -> ServerClock? {
        guard speed != 1 else { return nil }
        let zone = (try? DatasetLayout(root: path).readManifest()).flatMap { TimeZone(identifier: $0.timeZone) } ?? .current
        return ServerClock(realStart: Date(), speed: speed, zone: zone)
    }

    var now: @Sendable () -> Date {
        let realStart = realStart, speed = speed
        return { realStart.addingTimeInterval(Date().timeIntervalSince(realStart) * speed) }
    }

    var description: String {
        let speedText = speed == speed.rounded() ? String(Int(speed)) : String(speed)
        return "the clock runs at \(speedText)× real time from \(RFC3339.format(realStart, in: zone)) (--clock-speed)"
    }
}
