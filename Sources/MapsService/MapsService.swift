public import Foundation
public import Dataset
public import MapsAPI
public import RoadNetwork
import Routing
public import Traffic
public import Places
import GeoCore
public import Directions
import Synchronization

/// The application layer shared by the CLI and the HTTP server: dataset in, API documents out.
/// It knows nothing of HTTP; handlers and commands translate their inputs into its queries.
public final class MapsService: @unchecked Sendable {
    public let dataset: Dataset
    public let trafficStore: TrafficStore
    let engines: [TravelMode: RoutingEngine]
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
        var engines: [TravelMode: RoutingEngine] = [:]
        for (mode, graph) in dataset.graphs {
            let core = RoutingEngineCore(graph: graph, structure: dataset.hierarchies[mode], timeZone: dataset.timeZone, historical: historical)
            engines[mode] = RoutingEngine(core: core, now: now, updates: updates)
        }
        self.engines = engines
        if let entry = dataset.manifest.files["places.sqlite"] {
            places = try? SQLitePlaceStore(path: dataset.layout.root + "/" + entry.path)
        } else {
            places = nil
        }
        lastFingerprint.withLock { $0 = fingerprint }
        lastRefresh.withLock { $0 = now }
    }

    public var timeZone: TimeZone { dataset.timeZone }

    func engine(_ mode: TravelMode) throws(APIError) -> RoutingEngine {
        guard let e = engines[mode] else {
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
        try planRoutes(query).response
    }

    /// Calculate Route with the guidance its instructions come from (OSRM's steps are made of it).
    public func planRoutes(_ query: RouteQuery) throws(APIError) -> PlannedRoutes {
        try validate(query)
        let engine = try engine(query.mode)
        let snapshot = engine.snapshot
        let calculation = RouteCalculation(engine: engine, snapshot: snapshot, query: query, now: clock())
        let outcome = try calculation.run()
        return RouteDocument(calculation: calculation, outcome: outcome, timeZone: timeZone, drivingSide: drivingSide).response()
    }

    /// The side traffic keeps to in the dataset's country (from its country code when the import
    /// found one, else from its time zone).
    public var drivingSide: DrivingSide {
        dataset.manifest.drivingSide.flatMap(DrivingSide.init(rawValue:)) ?? DrivingSide(timeZoneIdentifier: timeZone.identifier)
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
        if q.instructions != nil, InstructionText(language: q.language, units: .metric) == nil {
            throw .badInput("language \(q.language) is not supported; supported: \(InstructionText.supportedLanguages.joined(separator: ", ")) (any region, e.g. de-AT)",
                            parameter: "language")
        }
    }

    // MARK: Traffic

    /// Applies a live update (OSRM segment speed CSV, or closures) in process: saved to `state/`
    /// for other replicas and restarts, and published to queries atomically.
    public func applyTraffic(_ bytes: [UInt8], kind: LiveUpdate.Kind, expiresInSeconds: Double, source: String) throws -> TrafficUpdateReport {
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
        let model = modes.lazy.compactMap { self.engines[$0]?.core.model }.first
        let matched = model?.matchedLines(of: update) ?? 0
        return TrafficUpdateReport(id: update.id, kind: kind.rawValue, entries: entries.count,
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
        for (mode, engine) in engines.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where mode.usesTraffic {
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
        engines.values.reduce(0) { $0 + $1.snapshot.generation }
    }

    /// OSM node pairs of the live updates applied since `generation`-th rebuild are not tracked;
    /// this tells which arcs of a mode are affected by live data now (for "does this update touch
    /// my route?").
    public func liveAffectedEdges(_ mode: TravelMode) -> Set<Int> {
        guard let engine = engines[mode] else { return [] }
        let t = engine.snapshot.table
        var edges = Set<Int>()
        for a in 0..<engine.graph.arcCount where t.liveMs[a] != 0 || t.closedUntil[a] > 0 {
            edges.insert(engine.graph.edge(of: ArcID(a)).index)
        }
        return edges
    }

    public func trafficStatus() -> TrafficStatusReport {
        let now = clock()
        let updates = trafficStore.activeUpdates(now: now.timeIntervalSince1970)
        var perMode: [String: TrafficStatusReport.Mode] = [:]
        for (mode, engine) in engines where mode.usesTraffic {
            let s = engine.snapshot
            perMode[mode.rawValue] = .init(generation: s.generation, liveArcs: s.liveArcCount, closedArcs: s.closedArcCount,
                                           snapshotAt: RFC3339.format(s.createdAt, in: timeZone))
        }
        return TrafficStatusReport(updates: updates.map { u in
            .init(id: u.id, kind: u.kind.rawValue, entries: u.entries.count, source: u.source,
                  createdAt: RFC3339.format(Date(timeIntervalSince1970: u.createdAt), in: timeZone),
                  expiresAt: RFC3339.format(Date(timeIntervalSince1970: u.expiresAt), in: timeZone))
        }, modes: perMode)
    }
}

/// A Calculate Route answer and, for each route, the guidance its instructions were made of.
public struct PlannedRoutes: Sendable {
    public var response: CalculateRouteResponse
    public var guidance: [Directions.Guidance?]
}
