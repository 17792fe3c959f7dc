public import Foundation
public import Dataset
public import MapsAPI
public import RoadNetwork
import Routing
public import Traffic
public import Places
import GeoCore
import Synchronization

/// The application layer shared by the CLI and the HTTP server: dataset in, API documents out.
/// It knows nothing of HTTP; handlers and commands translate their inputs into its queries.
public final class MapsService: @unchecked Sendable {
    public let dataset: Dataset
    public let trafficStore: TrafficStore
    let engines: RoutingEngines
    /// The places index, when the dataset has one.
    public let places: (any PlaceStore)?
    /// The clock every time-related decision reads (replaceable for tests and replays).
    public let clock: @Sendable () -> Date
    private let lastFingerprint = Mutex<String>("")
    private let lastRefresh = Mutex<Date>(.distantPast)
    /// One refresh at a time (the dataset watcher, the time-to-leave loop and POSTs all refresh),
    /// so snapshots are published in the order their updates were read: an older one never
    /// replaces a newer one.
    private let refreshLock = NSLock()

    /// What one request may ask for.
    public let limits: ServiceLimits

    public init(dataset: Dataset, clock: @escaping @Sendable () -> Date = { Date() }, limits: ServiceLimits = ServiceLimits()) {
        self.dataset = dataset
        self.clock = clock
        self.limits = limits
        trafficStore = TrafficStore(stateFolder: dataset.stateFolder)
        let now = clock()
        let fingerprint = trafficStore.fingerprint()
        let historical = trafficStore.historicalProfiles()
        let updates = trafficStore.activeUpdates(now: now.timeIntervalSince1970)
        engines = RoutingEngines(dataset: dataset, historical: historical)
        // The first profile (car when there is one) is ready before the first request; the others
        // are made on first use, so a server asked only for car routes holds only car's memory.
        if let mode = Self.firstMode(dataset) { engines.make(mode, now: now, updates: updates) }
        if let entry = dataset.manifest.files["places.sqlite"] {
            places = try? SQLitePlaceStore(path: dataset.layout.root + "/" + entry.path)
        } else {
            places = nil
        }
        lastFingerprint.withLock { $0 = fingerprint }
        lastRefresh.withLock { $0 = now }
    }

    public var timeZone: TimeZone { dataset.timeZone }

    static func firstMode(_ dataset: Dataset) -> TravelMode? {
        dataset.graphs[.car] != nil ? .car : dataset.manifest.profiles.lazy.compactMap { TravelMode(rawValue: $0) }.first
    }

    /// The engine of `mode`, made now if this is its first use (under the refresh lock, so that it
    /// starts from the traffic in force and no refresh runs past it).
    func existingOrNewEngine(_ mode: TravelMode) -> RoutingEngine? {
        if let e = engines.existing(mode) { return e }
        guard dataset.graphs[mode] != nil else { return nil }
        refreshLock.lock()
        defer { refreshLock.unlock() }
        if let e = engines.existing(mode) { return e }
        let now = clock()
        return engines.make(mode, now: now, updates: trafficStore.activeUpdates(now: now.timeIntervalSince1970))
    }

    func engine(_ mode: TravelMode) throws(APIError) -> RoutingEngine {
        guard let e = existingOrNewEngine(mode) else {
            throw .badInput("this dataset has no \(mode.rawValue) graph (it has: \(dataset.manifest.profiles.joined(separator: ", ")))",
                            parameter: "travelMode")
        }
        return e
    }

    static func waypointName(_ index: Int, of count: Int) -> String {
        index == 0 ? "the origin" : index == count - 1 ? "the destination" : "waypoint \(index)"
    }

    // MARK: Routing

    /// TomTom Calculate Route.
    public func calculateRoute(_ query: RouteQuery) throws(APIError) -> CalculateRouteResponse {
        try validate(query)
        let engine = try engine(query.mode)
        let snapshot = engine.snapshot
        let calculation = RouteCalculation(engine: engine, snapshot: snapshot, query: query, now: clock())
        let outcome = try calculation.run()
        return RouteDocument(calculation: calculation, outcome: outcome, timeZone: timeZone).response()
    }

    func validate(_ q: RouteQuery) throws(APIError) {
        guard q.waypoints.count >= 2 else { throw .badInput("a route needs at least two locations", parameter: "locations") }
        guard q.waypoints.count <= limits.maxWaypoints else {
            throw .badInput("at most \(limits.maxWaypoints) locations are allowed, \(q.waypoints.count) were given", parameter: "locations")
        }
        guard q.departAt == nil || q.arriveAt == nil else {
            throw .badInput("departAt and arriveAt cannot be combined; give one of them", parameter: "arriveAt")
        }
        // Travel times are kept in seconds since 1970 (before it every road would read as closed).
        for (name, time) in [("departAt", q.departAt), ("arriveAt", q.arriveAt)] {
            if let time, !RouteQuery.timeRange.contains(time) {
                throw .badInput("\(name) must be between 1970-01-01 and 9999-12-31", parameter: name)
            }
        }
        guard (0...limits.maxAlternatives).contains(q.maxAlternatives) else {
            throw .badInput("maxAlternatives must be an integer in 0...\(limits.maxAlternatives)", parameter: "maxAlternatives")
        }
        if q.computeBestOrder && q.maxAlternatives > 0 {
            throw .badInput("computeBestOrder cannot be combined with maxAlternatives > 0", parameter: "computeBestOrder")
        }
        if q.computeBestOrder && q.arriveAt != nil {
            throw .badInput("computeBestOrder cannot be combined with arriveAt", parameter: "computeBestOrder")
        }
        if let heading = q.vehicleHeading, !(0..<360).contains(heading) {
            throw .badInput("vehicleHeading must be in 0...359 degrees", parameter: "vehicleHeading")
        }
        if q.instructions != nil, InstructionTextCheck.unsupported(q.language) {
            throw .badInput("language \(q.language) is not supported; supported: en-GB, en-US", parameter: "language")
        }
    }

    // MARK: Traffic

    /// Applies a live update (OSRM segment speed CSV, or closures) in process: saved to `state/`
    /// for other replicas and restarts, and published to queries atomically.
    public func applyTraffic(_ bytes: [UInt8], kind: LiveUpdate.Kind, expiresInSeconds: Double, source: String) throws -> TrafficApplyReport {
        guard expiresInSeconds > 0, expiresInSeconds <= 7 * 86_400 else {
            throw APIError.badInput("expiresIn must be between 1 second and 7 days", parameter: "expiresIn")
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let entries: [SegmentSpeedCSV.Entry]
        do {
            entries = kind == .speeds ? try SegmentSpeedCSV.parseSpeeds(bytes, source: source) : try SegmentSpeedCSV.parseClosures(bytes, source: source)
        } catch {
            throw APIError.badInput(error.description, parameter: "body")
        }
        let parsed = DispatchTime.now().uptimeNanoseconds
        let now = clock()
        let update = LiveUpdate(id: TrafficStore.makeID(createdAt: now.timeIntervalSince1970), kind: kind,
                                createdAt: now.timeIntervalSince1970, expiresAt: now.timeIntervalSince1970 + expiresInSeconds,
                                source: source, entries: entries)
        try trafficStore.save(update)
        refreshTraffic(force: true)
        let finished = DispatchTime.now().uptimeNanoseconds
        // This upload's own segments (the refresh reports every update in force), on the car
        // graph or the first graph that takes traffic.
        let modes = [TravelMode.car] + TravelMode.allCases.filter { $0 != .car && $0.usesTraffic }
        let model = modes.lazy.compactMap { self.existingOrNewEngine($0)?.core.model }.first
        let matched = model?.matchedLines(of: update) ?? 0
        return TrafficApplyReport(id: update.id, kind: kind.rawValue, entries: entries.count,
                                  matchedSegments: matched, unmatchedSegments: entries.count - matched,
                                  expiresAt: RFC3339.format(Date(timeIntervalSince1970: update.expiresAt), in: timeZone),
                                  parseMilliseconds: Double(parsed - started) / 1e6, applyMilliseconds: Double(finished - parsed) / 1e6)
    }

    /// Rebuilds the traffic snapshots when `state/traffic` changed (or `force`), or when time has
    /// moved on enough that "now" weights differ (every 5 minutes). Returns the car graph's match
    /// report when it rebuilt.
    @discardableResult
    public func refreshTraffic(force: Bool = false) -> TrafficModel.MatchReport? {
        refreshLock.lock()
        defer { refreshLock.unlock() }
        let now = clock()
        let fingerprint = trafficStore.fingerprint()
        let changed = lastFingerprint.withLock { $0 != fingerprint }
        let stale = lastRefresh.withLock { now.timeIntervalSince($0) >= 300 }
        guard force || changed || stale else { return nil }
        let updates = trafficStore.activeUpdates(now: now.timeIntervalSince1970)
        var report: TrafficModel.MatchReport?
        // Only motor traffic uses traffic; walking and cycling snapshots never change.
        for (mode, engine) in engines.made where mode.usesTraffic {
            let snapshot = engine.refresh(now: now, updates: updates)
            if mode == .car || report == nil { report = snapshot.report }
        }
        // The fingerprint read before the updates: a file written meanwhile is seen by the next refresh.
        lastFingerprint.withLock { $0 = fingerprint }
        lastRefresh.withLock { $0 = now }
        return report
    }

    /// Changes every time any mode's traffic snapshot is rebuilt (live update, expiry, time passing):
    /// watchers compare it to decide when to re-plan.
    public var trafficGeneration: Int {
        engines.made.reduce(0) { $0 + $1.engine.snapshot.generation }
    }

    /// OSM node pairs of the live updates applied since `generation`-th rebuild are not tracked;
    /// this tells which arcs of a mode are affected by live data now (for "does this update touch
    /// my route?").
    public func liveAffectedEdges(_ mode: TravelMode) -> Set<Int> {
        guard let engine = existingOrNewEngine(mode) else { return [] }
        let t = engine.snapshot.table
        var edges = Set<Int>()
        for a in 0..<engine.graph.arcCount where t.liveMs[a] != 0 || t.closedUntil[a] > 0 {
            edges.insert(engine.graph.edge(of: ArcID(a)).index)
        }
        return edges
    }

    public func trafficStatus() -> TrafficStatus {
        let now = clock()
        let updates = trafficStore.activeUpdates(now: now.timeIntervalSince1970)
        var perMode: [String: TrafficStatus.Mode] = [:]
        for (mode, engine) in engines.made where mode.usesTraffic {
            let s = engine.snapshot
            perMode[mode.rawValue] = .init(generation: s.generation, liveArcs: s.liveArcCount, closedArcs: s.closedArcCount,
                                           snapshotAt: RFC3339.format(s.createdAt, in: timeZone))
        }
        return TrafficStatus(updates: updates.map { u in
            .init(id: u.id, kind: u.kind.rawValue, entries: u.entries.count, source: u.source,
                  createdAt: RFC3339.format(Date(timeIntervalSince1970: u.createdAt), in: timeZone),
                  expiresAt: RFC3339.format(Date(timeIntervalSince1970: u.expiresAt), in: timeZone))
        }, modes: perMode)
    }
}

public struct TrafficApplyReport: Codable, Sendable {
    public var id: String
    public var kind: String
    public var entries: Int
    public var matchedSegments: Int
    public var unmatchedSegments: Int
    public var expiresAt: String
    public var parseMilliseconds: Double
    public var applyMilliseconds: Double
}

public struct TrafficStatus: Codable, Sendable {
    public struct Update: Codable, Sendable {
        public var id: String, kind: String, entries: Int, source: String, createdAt: String, expiresAt: String
    }
    public struct Mode: Codable, Sendable {
        public var generation: Int, liveArcs: Int, closedArcs: Int, snapshotAt: String
    }
    public var updates: [Update]
    public var modes: [String: Mode]
}

enum InstructionTextCheck {
    static func unsupported(_ language: String) -> Bool {
        !["en-gb", "en-us", "en"].contains(language.lowercased())
    }
}
