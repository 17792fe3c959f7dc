public import Foundation
public import RoadNetwork
public import Routing
public import Traffic
import GeoCore
import Synchronization
import Dispatch

/// One dataset's route planning, beneath every surface (TomTom and OSRM endpoints, the CLI,
/// time to leave): per travel mode the graph, its hierarchy and the traffic snapshot in force,
/// swapped atomically when live traffic changes. It speaks in routes (`TimedRoute`), not in
/// documents.
public final class PlanningEngine: @unchecked Sendable {
    /// The most alternatives a plan may ask for (TomTom's own limit).
    public static let maxAlternatives = 5

    public let timeZone: TimeZone
    public let trafficStore: TrafficStore
    /// Historical speeds learned from the live speeds received (uploads and probes).
    public let learner: SpeedLearner
    public let timeModel: TimeModelSettings
    /// Where live updates are learned from, one at a time and in order, at a lower priority than
    /// the updates and queries themselves.
    let learning = BackgroundQueue(name: "wayfinder.speed-learning")
    /// The clock every time-related decision reads (replaceable for tests and replays).
    public let clock: @Sendable () -> Date
    let engines: RoutingEngines
    let traffic: TrafficRefresh
    /// Run once per mode before that mode's columns are first read (see `init`); nil: readable at once.
    private let graphsReady: (@Sendable (TravelMode) -> Void)?
    private let graphsConfirmed = Mutex<Set<TravelMode>>([])

    /// - Parameters:
    ///   - hierarchies: the CCH of each mode that has one (the others are searched with Dijkstra).
    ///   - stateFolder: where live traffic and historical profiles are kept (`state/` of a dataset).
    ///   - timeModel: demo congestion (off by default) and what learned speeds need.
    ///   - graphsReady: for graphs whose file is still being checked (a server starting): called
    ///     with a mode, and waited for, before anything reads that mode's columns (so the first car
    ///     route waits for the car's columns only); it does not return unless they may be read.
    ///     With it, no engine is made here: `warmUp()` makes the first one. Without, the first
    ///     mode's engine is made before `init` returns.
    public init(graphs: [TravelMode: RoadGraph], hierarchies: [TravelMode: CCHStructure], timeZone: TimeZone, stateFolder: String,
                timeModel: TimeModelSettings = TimeModelSettings(), clock: @escaping @Sendable () -> Date = { Date() },
                graphsReady: (@Sendable (TravelMode) -> Void)? = nil) {
        self.timeZone = timeZone
        self.clock = clock
        self.timeModel = timeModel
        trafficStore = TrafficStore(stateFolder: stateFolder)
        learner = SpeedLearner(stateFolder: stateFolder, timeZone: timeZone, minimumObservations: timeModel.minimumObservations)
        let now = clock()
        let fingerprint = trafficStore.fingerprint()
        let historical = trafficStore.historicalProfiles()
        let updates = trafficStore.activeUpdates(now: now.timeIntervalSince1970)
        engines = RoutingEngines(graphs: graphs, hierarchies: hierarchies, timeZone: timeZone, historical: historical, learner: learner,
                                 demoCongestion: timeModel.demoCongestion)
        self.graphsReady = graphsReady
        if graphsReady == nil, let first = engines.firstMode { engines.make(first, now: now, updates: updates) }
        traffic = TrafficRefresh(fingerprint: fingerprint, at: now, learnedVersion: learner.version)
    }

    /// Makes the first mode's engine (car when there is one), so that it is ready before the first
    /// request; the others are made on first use. `init` does this itself unless given `graphsReady`.
    public func warmUp() {
        if let first = engines.firstMode { _ = engine(first) }
    }

    /// Waits, the first time for each mode, for its columns to be readable (`graphsReady`).
    private func awaitGraphs(_ mode: TravelMode) {
        guard let graphsReady, !graphsConfirmed.withLock({ $0.contains(mode) }) else { return }
        graphsReady(mode)
        graphsConfirmed.withLock { _ = $0.insert(mode) }
    }

    /// The travel modes this dataset can route.
    public var modes: [TravelMode] { TravelMode.allCases.filter { engines.graphs[$0] != nil } }

    public func graph(_ mode: TravelMode) -> RoadGraph? {
        awaitGraphs(mode)
        return engines.graphs[mode]
    }

    /// The modes whose engine has been made (the first mode at start, the others on first use).
    public var preparedModes: [TravelMode] { engines.made.map(\.mode) }

    /// How far from a road a waypoint may be.
    public var maxSnapDistanceMeters: Double { engines.made.first?.engine.core.planner.maxSnapDistanceMeters ?? 1000 }

    /// The engine of `mode`, made now on its first use (under the refresh lock, so that it starts
    /// from the traffic in force and no refresh runs past it); nil when the dataset lacks the mode.
    func engine(_ mode: TravelMode) -> RoutingEngine? {
        if let e = engines.existing(mode) { return e }
        guard engines.graphs[mode] != nil else { return nil }
        awaitGraphs(mode)
        traffic.lock.lock()
        defer { traffic.lock.unlock() }
        let now = clock()
        return engines.make(mode, now: now, updates: trafficStore.activeUpdates(now: now.timeIntervalSince1970))
    }

    /// What the time-dependent searches of `mode` did since its engine was made (nil before).
    public func timeDependentStatistics(_ mode: TravelMode) -> TimeDependentRouting.Statistics? {
        engines.existing(mode)?.timeDependentTotals.withLock { $0 }
    }

    /// Plans a trip on the traffic snapshot in force now.
    public func plan(_ request: PlanRequest) -> PlanOutcome {
        precondition(request.waypoints.count >= 2, "a plan needs at least two waypoints")
        guard let engine = engine(request.mode) else { return .noSegment(waypoint: 0) }
        let snapshot = engine.snapshot
        let now = clock().timeIntervalSince1970
        let calculation = RouteCalculation(engine: engine, snapshot: snapshot, request: request, now: now)
        let outcome: RouteCalculation.Outcome
        do {
            outcome = try calculation.run()
        } catch {
            return error.outcome
        }
        let builder = TimedRouteBuilder(engine: engine, snapshot: snapshot, live: calculation.key.live, now: now, speedCap: calculation.speedCap)
        let routes = outcome.routes.enumerated().map { i, route in
            builder.build(route, departure: outcome.departures[i], usedAvoidances: i == 0 ? outcome.usedAvoided : [])
        }
        return .found(Plan(routes: routes, waypointOrder: outcome.order))
    }

    // MARK: Known routes

    /// Whether a stored path still describes a route on this graph: every arc exists, consecutive
    /// arcs are joined by a turn, and the length is what it was (a re-import may renumber arcs).
    public func fits(_ path: RoutePath) -> Bool {
        guard let engine = engine(path.mode) else { return false }
        return engine.route(path) != nil
    }

    /// The route of `path` timed from `departure` (seconds since 1970) on the traffic in force
    /// (live traffic counting when `traffic`); nil when it no longer fits the graph or is closed
    /// on the way (a closure of its first or last arc counts unless its own point lies inside it).
    public func time(_ path: RoutePath, departingAt departure: Double, traffic: Bool = true) -> TimedRoute? {
        guard let engine = engine(path.mode), let route = engine.route(path) else { return nil }
        let snapshot = engine.snapshot
        let live = traffic && path.mode.usesTraffic
        let clock = RouteClock(graph: engine.graph, table: live ? snapshot.table : snapshot.historicalTable)
        guard let timed = clock.timed(route, departure: departure, ends: .whenInside) else { return nil }
        var result = TimedRouteBuilder(engine: engine, snapshot: snapshot, live: live, now: self.clock().timeIntervalSince1970)
            .build(timed, departure: departure)
        result.placeWaypointsOnLegEnds(graph: engine.graph)
        return result
    }

    /// The latest departure (seconds since 1970) that drives `path` and arrives by `arrival`;
    /// nil when it no longer fits the graph or is closed on the way.
    public func latestDeparture(_ path: RoutePath, arrivingBy arrival: Double, traffic: Bool = true) -> Double? {
        guard let engine = engine(path.mode), let route = engine.route(path) else { return nil }
        let snapshot = engine.snapshot
        let live = traffic && path.mode.usesTraffic
        return RouteClock(graph: engine.graph, table: live ? snapshot.table : snapshot.historicalTable)
            .latestDeparture(route, arrival: arrival, ends: .whenInside)
    }

    /// Edge indices of a path (for "does this traffic change touch my route?").
    public func edges(of path: RoutePath) -> Set<Int> {
        guard let graph = graph(path.mode) else { return [] }
        var edges = Set<Int>()
        for leg in path.legs {
            for piece in leg where (0..<graph.arcCount).contains(piece.arc) { edges.insert(graph.edge(of: ArcID(piece.arc)).index) }
        }
        return edges
    }
}
