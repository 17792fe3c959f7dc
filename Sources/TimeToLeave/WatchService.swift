public import Foundation
public import MapsAPI
import RoadNetwork
public import RoutePlanning
import Synchronization

/// Time to leave: trips watched until the moment to set off, kept true as traffic changes.
///
/// A watch is planned at once (the latest departure that arrives by the requested time, on the
/// best route), then re-planned every `replanIntervalSeconds` and soon after any live traffic
/// update that touches its route. A re-plan re-times the watched route's own arcs; each produces
/// one event — `traffic-change` when the departure moved by at least `thresholdSeconds` since it
/// was last announced, `late` when the arrival can no longer be met, otherwise `no-change` — and
/// the clock alone produces `time-to-leave` and `expired` (`WatchTransitions`). A better route
/// found on re-planning is offered (`betterRoute`), never swapped in silently.
///
/// Time comes only from the planning engine's clock, so a test clock or a replay drives
/// everything. Work happens in `tick()`: bounded per call (`maxReplansPerTick`,
/// `tickBudgetSeconds`), the most overdue first, on one background thread once `start()`ed, so
/// a thousand watches cost one core at most and never more than that.
///
/// Watches and their recent events live in SQLite (`state/timetoleave.sqlite` by default), so a
/// restart or a re-import finds them again.
public final class WatchService: Sendable {
    public let configuration: WatchConfiguration
    /// Where watches are stored (`":memory:"` when they are not).
    public let storePath: String
    let engines: Mutex<(planning: PlanningEngine, places: PlaceLookup?)>
    let store: WatchStore
    let registry: Mutex<WatchRegistry>
    let bus = WatchEventBus()
    let presenter: WatchPresenter
    /// Serialises every change that emits events (commit, persist, deliver) and subscriptions.
    let writeLock = NSLock()
    /// One tick at a time.
    let tickLock = NSLock()
    let replayer = Mutex<TrafficReplayer?>(nil)
    let loop = Mutex<LoopControl?>(nil)

    /// The default store: `timetoleave.sqlite` in a dataset's `state/` folder (kept by re-imports).
    public static func defaultStorePath(stateFolder: String) -> String { stateFolder + "/timetoleave.sqlite" }

    /// Opens the watches stored at `storePath` (`":memory:"` for none); `places` resolves names
    /// (nil: only coordinates are accepted). Throws when the store cannot be opened.
    public init(planning: PlanningEngine, places: PlaceLookup?, configuration: WatchConfiguration = WatchConfiguration(),
                storePath: String) throws {
        self.configuration = configuration
        self.storePath = storePath
        engines = Mutex((planning, places))
        presenter = WatchPresenter(configuration: configuration)
        store = try WatchStore(path: storePath)
        var registry = WatchRegistry()
        // Edges are found when each watch is re-planned, at the first tick (all but the expired are
        // due): finding them here would wait for the graphs, which a server starting still checks.
        for record in try store.loadAll() {
            registry.entries[record.id] = .init(record: record, edges: nil, dirty: !record.expired)
        }
        registry.setTrafficBaseline(planning)
        self.registry = Mutex(registry)
    }

    /// Like `init` with the store in `stateFolder`, but never fails: a store that cannot be opened
    /// is replaced by memory, and `warning` says why.
    public static func opening(planning: PlanningEngine, places: PlaceLookup?, stateFolder: String,
                               configuration: WatchConfiguration = WatchConfiguration(), warning: (String) -> Void = { _ in }) -> WatchService {
        let path = defaultStorePath(stateFolder: stateFolder)
        do {
            return try WatchService(planning: planning, places: places, configuration: configuration, storePath: path)
        } catch {
            warning("time to leave: watches will not survive a restart: \(path) cannot be opened: \(error)")
            // An in-memory database always opens.
            return try! WatchService(planning: planning, places: places, configuration: configuration, storePath: ":memory:")
        }
    }

    deinit {
        // Possibly on the loop's own thread (it held the last reference): ask it to end, never wait.
        if let control = loop.withLock({ $0 }) {
            control.stopped.store(true, ordering: .relaxed)
            control.wake.signal()
        }
    }

    /// The planning engine plans are made with.
    public var planning: PlanningEngine { engines.withLock { $0.planning } }
    var places: PlaceLookup? { engines.withLock { $0.places } }

    /// Switches to a reloaded dataset (a re-import): watches stay, and all are re-planned on it.
    public func replacePlanning(_ planning: PlanningEngine, places: PlaceLookup?) {
        engines.withLock { $0 = (planning, places) }
        registry.withLock { reg in
            reg.setTrafficBaseline(planning)
            reg.invalidateRoutes()
        }
    }

    /// Plays recorded traffic from `start` (default: now on the planning clock), applied by `tick()`.
    public func play(_ replay: TrafficReplay, start: Date? = nil, expiresInSeconds: Double = 6 * 3600) {
        let r = TrafficReplayer(replay, start: start ?? planning.clock(), expiresInSeconds: expiresInSeconds)
        replayer.withLock { $0 = r }
    }

    public var replay: TrafficReplayer? { replayer.withLock { $0 } }

    /// Watches held (expired ones included until they are removed).
    public var count: Int { registry.withLock { $0.entries.count } }

    func planner(_ planning: PlanningEngine) -> WatchPlanner {
        WatchPlanner(planning: planning, thresholdSeconds: configuration.thresholdSeconds)
    }

    // MARK: Watches

    /// Plans and stores a new watch. Refuses an arrival in the past or one no route can meet
    /// with the seed's message (code NO_ROUTE_FOUND).
    /// `owner` is who may see it later (see `WatchOwner`).
    public func create(_ request: WatchRequest, owner: String = WatchOwner.anonymous) throws(WatchError) -> WatchDocument {
        let (planning, places) = engines.withLock { $0 }
        let nowDate = planning.clock()
        let now = nowDate.timeIntervalSince1970
        let (all, owned) = registry.withLock { reg in
            (reg.entries.count, reg.entries.values.reduce(0) { $0 + ($1.record.ownedBy(owner) && !$1.record.expired ? 1 : 0) })
        }
        guard all < configuration.maxWatches else {
            throw WatchError(APIError(.unavailable, "this server already watches \(configuration.maxWatches) trips; try again later"),
                             retryAfterSeconds: 60)
        }
        guard owned < configuration.maxWatchesPerOwner else {
            throw WatchError(APIError(.rateLimited, "this client already has \(configuration.maxWatchesPerOwner) open watches, its most; "
                                      + "delete one or wait for one to expire"), retryAfterSeconds: 60)
        }
        let spec = try WatchSpec(request, planning: planning, places: places, now: nowDate, configuration: configuration)
        let zone = planning.timeZone
        guard spec.arriveAt > now else {
            throw WatchError(APIError(.noRouteFound, WatchMessages.noRouteSatisfiesTime, parameter: "arriveAt"),
                             detail: "the arrival time \(RFC3339.format(Date(timeIntervalSince1970: spec.arriveAt), in: zone)) has passed")
        }
        let planner = planner(planning)
        let plan: PlanState
        switch planner.arriveBy(spec) {
        case .success(let p):
            plan = p
        case .failure(let error) where error.code == .noRouteFound:
            // Unmeetable, or no route at all? Leaving now tells which, and by how much.
            guard case .success(let now) = planner.departNow(spec, now: now) else { throw WatchError(error) }
            let late = planner.lateness(now, spec)
            throw WatchError(APIError(.noRouteFound, WatchMessages.noRouteSatisfiesTime, parameter: "arriveAt"),
                             detail: "the trip takes \(WatchMessages.span(now.travelTimeSeconds)); leaving now arrives at "
                                + "\(WatchMessages.clockTime(now.arrival, zone)), \(WatchMessages.span(late)) after "
                                + "\(WatchMessages.clockTime(spec.arriveAt, zone))")
        case .failure(let error):
            throw WatchError(error)
        }
        var record = WatchRecord(id: Self.makeID(), owner: owner, spec: spec, createdAt: now, plan: plan, nextPlanAt: now + configuration.replanIntervalSeconds)
        record.announcedDeparture = plan.departure
        record.lastPlannedAt = now
        record.planCount = 1
        let event = presenter.emit(WatchTransitions.created(record, zone: zone), &record, now: now, zone: zone)
        writeLock.lock()
        defer { writeLock.unlock() }
        do {
            try store.commit(records: [record], events: [event], keepEvents: configuration.eventsKeptPerWatch, now: now)
        } catch {
            throw WatchError(APIError(.unavailable, "the watch could not be saved: \(error)"))
        }
        let edges = plan.edges(on: planning)
        registry.withLock { $0.entries[record.id] = .init(record: record, edges: edges) }
        return presenter.document(record, now: now, zone: zone)
    }

    /// The record of `id` when `owner` may see it (nil: anyone may).
    func record(_ id: String, owner: String?) -> WatchRecord? {
        guard let record = registry.withLock({ $0.entries[id]?.record }), owner.map(record.ownedBy) ?? true else { return nil }
        return record
    }

    /// The watch as it stands now, or nil when there is no such watch or `owner` (nil: anyone)
    /// does not own it: another's watch is as good as absent, so ids do not leak.
    public func watch(_ id: String, owner: String? = nil) -> WatchDocument? {
        guard let record = record(id, owner: owner) else { return nil }
        let planning = self.planning
        return presenter.document(record, now: planning.clock().timeIntervalSince1970, zone: planning.timeZone)
    }

    /// The watched route's arcs (for tools that act on the route itself, such as a jam replay).
    public func watchedPath(_ id: String) -> RoutePath? { registry.withLock { $0.entries[id]?.record.plan?.path } }

    /// Every watch of `owner` (nil: everyone's, for operators), oldest first, without routes.
    public func list(owner: String? = nil) -> [WatchDocument] {
        let records = registry.withLock { $0.entries.values.map(\.record) }.filter { owner.map($0.ownedBy) ?? true }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        let planning = self.planning
        let now = planning.clock().timeIntervalSince1970
        return records.map { r in
            var d = presenter.document(r, now: now, zone: planning.timeZone)
            d.route = nil
            d.betterRoute?.route.legs = []
            return d
        }
    }

    /// Stops and forgets a watch; its event streams end. False when there was none.
    @discardableResult
    public func delete(_ id: String, owner: String? = nil) -> Bool {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard record(id, owner: owner) != nil, registry.withLock({ $0.entries.removeValue(forKey: id) }) != nil else { return false }
        try? store.delete([id])
        bus.finish([id])
        return true
    }

    /// Takes the offered better route as the watched one (a `plan` event announces it).
    public func acceptBetterRoute(_ id: String, owner: String? = nil) throws(WatchError) -> WatchDocument {
        let planning = self.planning
        let now = planning.clock().timeIntervalSince1970
        let zone = planning.timeZone
        writeLock.lock()
        defer { writeLock.unlock() }
        guard var entry = registry.withLock({ $0.entries[id] }), owner.map(entry.record.ownedBy) ?? true else {
            throw WatchError(APIError(.notFound, "no watch \(id)"))
        }
        guard let offer = entry.record.offer, !entry.record.expired else {
            throw .badInput("no better route is offered for watch \(id) now", parameter: "id")
        }
        var r = entry.record
        let late = planner(planning).lateness(offer.plan, r.spec)
        let event = presenter.emit(WatchTransitions.accept(&r, offer: offer, lateBy: late, now: now, zone: zone), &r, now: now, zone: zone)
        do {
            try store.commit(records: [r], events: [event], keepEvents: configuration.eventsKeptPerWatch, now: now)
        } catch {
            throw WatchError(APIError(.unavailable, "the watch could not be saved: \(error)"))
        }
        entry.record = r
        entry.edges = offer.plan.edges(on: planning)
        entry.version += 1
        registry.withLock { $0.entries[id] = entry }
        bus.deliver([event])
        return presenter.document(r, now: now, zone: zone)
    }

    /// The kept events of a watch after `after` (all kept ones for nil), oldest first; nil for an unknown watch.
    public func events(_ id: String, after: Int? = nil) -> [WatchEventMessage]? {
        guard registry.withLock({ $0.entries[id] != nil }) else { return nil }
        return ((try? store.events(id, after: after ?? 0)) ?? []).map { WatchEventMessage(id: $0.id, type: $0.type, data: $0.data) }
    }

    // MARK: Event streams

    /// What `subscribe` found.
    public enum SubscribeOutcome: Sendable {
        case subscribed(WatchSubscription)
        case unknownWatch
        /// The watch has expired and the client has seen its last event: tell it to stop (HTTP 204).
        case finished
    }

    /// Streams a watch's events to `deliver` (which returns false once its client is gone):
    /// first the kept events after `lastEventID` (without one: the newest event, i.e. the current
    /// state), then every new one as it happens. `finish` is called when the watch ends (expired,
    /// deleted or removed). Delivery happens on the thread that made the event: keep it short.
    public func subscribe(_ id: String, owner: String? = nil, after lastEventID: Int?, deliver: @escaping @Sendable (WatchEventMessage) -> Bool,
                          finish: @escaping @Sendable () -> Void) -> SubscribeOutcome {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard let record = record(id, owner: owner) else { return .unknownWatch }
        let seen = lastEventID ?? max(0, record.lastEventID - 1)
        if record.expired && seen >= record.lastEventID { return .finished }
        let backlog = (try? store.events(id, after: min(seen, record.lastEventID))) ?? []
        for e in backlog {
            // A client gone already: nothing to register.
            guard deliver(WatchEventMessage(id: e.id, type: e.type, data: e.data)) else { return .subscribed(WatchSubscription {}) }
        }
        if record.expired {
            finish()
            return .subscribed(WatchSubscription {})
        }
        return .subscribed(bus.add(id, deliver: deliver, finish: finish))
    }

    /// Open event streams across all watches.
    public var subscriberCount: Int { bus.count }

    func registryEntries() -> [WatchRegistry.Entry] { registry.withLock { Array($0.entries.values) } }
    /// The store's size on disk, in bytes.
    public var storeFileBytes: Int { store.fileBytes }

    static func makeID() -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "w" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
