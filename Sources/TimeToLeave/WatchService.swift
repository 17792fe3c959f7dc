public import Foundation
public import MapsService
public import MapsAPI
import RoadNetwork
import Traffic
import RoutePlanning
import Synchronization

/// Time to leave: trips watched until the moment to set off, kept true as traffic changes.
///
/// A watch is planned at once (the latest departure that arrives by the requested time, on the
/// best route), then re-planned every `replanIntervalSeconds` and soon after any live traffic
/// update that touches its route. Each re-plan produces one event — `traffic-change` when the
/// departure moved by at least `thresholdSeconds` since it was last announced, `late` when the
/// arrival can no longer be met, otherwise `no-change` — and the clock alone produces
/// `time-to-leave` and `expired`. A better route found on re-planning is offered
/// (`betterRoute`), never swapped in silently.
///
/// Time comes only from the maps service's clock, so a test clock or a replay drives
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
    private let mapsBox: Mutex<MapsService>
    private let store: WatchStore
    private let registry: Mutex<Registry>
    private let subscribers = Mutex<[String: [Subscriber]]>([:])
    private let nextSubscriberToken = Atomic<Int>(0)
    /// Serialises every change that emits events (commit, persist, deliver) and subscriptions.
    private let writeLock = NSLock()
    /// One tick at a time.
    private let tickLock = NSLock()
    private let replayer = Mutex<TrafficReplayer?>(nil)
    private let loop = Mutex<LoopControl?>(nil)

    struct Entry: Sendable {
        var record: WatchRecord
        /// The watched route's edges and pins on the current graph (nil: not computed yet).
        var trace: RouteTrace?
        /// Re-plan at the next tick (live traffic touched the route, or the dataset changed).
        var dirty = false
        /// Bumped on every change, so a re-plan computed meanwhile is not applied over a newer state.
        var version = 0
    }

    struct Registry: Sendable {
        var entries: [String: Entry] = [:]
        var lastGeneration: Int?
        var liveEdges: [TravelMode: Set<Int>] = [:]
        /// Live closures in force (segment → until), read when the traffic generation changes.
        var closures: [OSMSegment: Double] = [:]
    }

    /// The default store: `timetoleave.sqlite` in the dataset's `state/` folder (kept by re-imports).
    public static func defaultStorePath(_ maps: MapsService) -> String {
        maps.dataset.stateFolder + "/timetoleave.sqlite"
    }

    /// Opens the watches stored at `storePath` (default: the dataset's `state/timetoleave.sqlite`;
    /// `":memory:"` for none). Throws when the store cannot be opened.
    public init(maps: MapsService, configuration: WatchConfiguration = WatchConfiguration(), storePath: String? = nil) throws {
        let path = storePath ?? Self.defaultStorePath(maps)
        self.configuration = configuration
        self.storePath = path
        mapsBox = Mutex(maps)
        store = try WatchStore(path: path)
        var registry = Registry()
        for record in try store.loadAll() { registry.entries[record.id] = Entry(record: record, dirty: !record.expired) }
        Self.setTrafficBaseline(&registry, maps)
        self.registry = Mutex(registry)
    }

    /// What live traffic looks like now, so that the next change is seen as one.
    static func setTrafficBaseline(_ registry: inout Registry, _ maps: MapsService) {
        registry.lastGeneration = maps.planning.trafficGeneration
        registry.liveEdges = [:]
        for mode in maps.dataset.graphs.keys where mode.usesTraffic { registry.liveEdges[mode] = maps.planning.liveAffectedEdges(mode) }
        registry.closures = closures(maps)
    }

    /// The live closures in force now, from the traffic store.
    static func closures(_ maps: MapsService) -> [OSMSegment: Double] {
        var out: [OSMSegment: Double] = [:]
        for update in maps.planning.trafficStore.activeUpdates(now: maps.clock().timeIntervalSince1970) where update.kind == .closures {
            for e in update.entries {
                let key = OSMSegment(from: e.from, to: e.to)
                out[key] = max(out[key] ?? 0, update.expiresAt)
            }
        }
        return out
    }

    /// Like `init`, but never fails: a store that cannot be opened is replaced by memory, and `warning` says why.
    public static func opening(maps: MapsService, configuration: WatchConfiguration = WatchConfiguration(),
                               warning: (String) -> Void = { _ in }) -> WatchService {
        do {
            return try WatchService(maps: maps, configuration: configuration)
        } catch {
            warning("time to leave: watches will not survive a restart: \(defaultStorePath(maps)) cannot be opened: \(error)")
            // An in-memory database always opens.
            return try! WatchService(maps: maps, configuration: configuration, storePath: ":memory:")
        }
    }

    deinit {
        // Possibly on the loop's own thread (it held the last reference): ask it to end, never wait.
        if let control = loop.withLock({ $0 }) {
            control.stopped.store(true, ordering: .relaxed)
            control.wake.signal()
        }
    }

    /// The maps service plans are made with.
    public var maps: MapsService { mapsBox.withLock { $0 } }

    /// Switches to a reloaded dataset (a re-import): watches stay, and all are re-planned on it.
    public func replaceMaps(_ maps: MapsService) {
        mapsBox.withLock { $0 = maps }
        registry.withLock { reg in
            Self.setTrafficBaseline(&reg, maps)
            for id in reg.entries.keys {
                reg.entries[id]!.trace = nil
                reg.entries[id]!.dirty = !reg.entries[id]!.record.expired
                reg.entries[id]!.version += 1
            }
        }
    }

    /// Plays recorded traffic from `start` (default: now on the service's clock), applied by `tick()`.
    public func play(_ replay: TrafficReplay, start: Date? = nil, expiresInSeconds: Double = 6 * 3600) {
        let r = TrafficReplayer(replay, start: start ?? maps.clock(), expiresInSeconds: expiresInSeconds)
        replayer.withLock { $0 = r }
    }

    public var replay: TrafficReplayer? { replayer.withLock { $0 } }

    /// Watches held (expired ones included until they are removed).
    public var count: Int { registry.withLock { $0.entries.count } }

    // MARK: Watches

    /// Plans and stores a new watch. Refuses an arrival in the past or one no route can meet
    /// with the seed's message (code NO_ROUTE_FOUND).
    public func create(_ request: WatchRequest) throws(WatchError) -> WatchDocument {
        let maps = self.maps
        let nowDate = maps.clock()
        let now = nowDate.timeIntervalSince1970
        guard count < configuration.maxWatches else {
            throw WatchError(APIError(.unavailable, "this server already watches \(configuration.maxWatches) trips; try again later"))
        }
        let spec = try WatchSpec(request, maps: maps, now: nowDate, configuration: configuration)
        let zone = maps.timeZone
        guard spec.arriveAt > now else {
            throw WatchError(APIError(.noRouteFound, WatchMessages.noRouteSatisfiesTime, parameter: "arriveAt"),
                             detail: "the arrival time \(RFC3339.format(Date(timeIntervalSince1970: spec.arriveAt), in: zone)) has passed")
        }
        let planner = WatchPlanner(maps: maps, thresholdSeconds: configuration.thresholdSeconds)
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
        var record = WatchRecord(id: Self.makeID(), spec: spec, createdAt: now, plan: plan,
                                 nextPlanAt: now + configuration.replanIntervalSeconds)
        record.announcedDeparture = plan.departure
        record.lastPlannedAt = now
        record.planCount = 1
        let graph = maps.dataset.graphs[spec.travelMode]
        let trace = graph.map { RouteTrace(plan.route, graph: $0) }
        let event = emit(.plan, &record, now: now, zone: zone,
                         message: "Leave at \(WatchMessages.clockTime(plan.departure, zone)) to arrive by \(WatchMessages.clockTime(spec.arriveAt, zone))",
                         friendly: planSentence(record, zone: zone))
        writeLock.lock()
        defer { writeLock.unlock() }
        do {
            try store.commit(records: [record], events: [event], keepEvents: configuration.eventsKeptPerWatch, now: now)
        } catch {
            throw WatchError(APIError(.unavailable, "the watch could not be saved: \(error)"))
        }
        registry.withLock { $0.entries[record.id] = Entry(record: record, trace: trace) }
        return document(record, now: now, zone: zone)
    }

    /// The watch as it stands now, or nil when there is no such watch.
    public func watch(_ id: String) -> WatchDocument? {
        guard let record = registry.withLock({ $0.entries[id]?.record }) else { return nil }
        let maps = self.maps
        return document(record, now: maps.clock().timeIntervalSince1970, zone: maps.timeZone)
    }

    /// Every watch, oldest first, without routes (for operators).
    public func list() -> [WatchDocument] {
        let records = registry.withLock { $0.entries.values.map(\.record) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        let maps = self.maps
        let now = maps.clock().timeIntervalSince1970
        return records.map { r in
            var d = document(r, now: now, zone: maps.timeZone)
            d.route = nil
            d.betterRoute?.route.legs = []
            return d
        }
    }

    /// Stops and forgets a watch; its event streams end. False when there was none.
    @discardableResult
    public func delete(_ id: String) -> Bool {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard registry.withLock({ $0.entries.removeValue(forKey: id) }) != nil else { return false }
        try? store.delete([id])
        finishSubscribers([id])
        return true
    }

    /// Takes the offered better route as the watched one (a `plan` event announces it).
    public func acceptBetterRoute(_ id: String) throws(WatchError) -> WatchDocument {
        let maps = self.maps
        let now = maps.clock().timeIntervalSince1970
        let zone = maps.timeZone
        writeLock.lock()
        defer { writeLock.unlock() }
        guard var entry = registry.withLock({ $0.entries[id] }) else {
            throw WatchError(APIError(.notFound, "no watch \(id)"))
        }
        guard let offer = entry.record.offer, !entry.record.expired else {
            throw .badInput("no better route is offered for watch \(id) now", parameter: "id")
        }
        var r = entry.record
        r.plan = offer.plan
        r.offer = nil
        let late = WatchPlanner(maps: maps, thresholdSeconds: configuration.thresholdSeconds).lateness(offer.plan, r.spec)
        r.lateBySeconds = late > 0 ? late : nil
        r.announcedLateBy = r.lateBySeconds
        r.announcedDeparture = offer.plan.departure
        if offer.plan.departure > now { r.timeToLeaveAnnounced = false }
        let event = emit(.plan, &r, now: now, zone: zone, message: "Switched to the offered route",
                         friendly: planSentence(r, zone: zone), routeChanged: true)
        do {
            try store.commit(records: [r], events: [event], keepEvents: configuration.eventsKeptPerWatch, now: now)
        } catch {
            throw WatchError(APIError(.unavailable, "the watch could not be saved: \(error)"))
        }
        entry.record = r
        entry.trace = maps.dataset.graphs[r.spec.travelMode].map { RouteTrace(offer.plan.route, graph: $0) }
        entry.version += 1
        registry.withLock { $0.entries[id] = entry }
        deliver([event])
        return document(r, now: now, zone: zone)
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
    public func subscribe(_ id: String, after lastEventID: Int?, deliver: @escaping @Sendable (WatchEventMessage) -> Bool,
                          finish: @escaping @Sendable () -> Void) -> SubscribeOutcome {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard let record = registry.withLock({ $0.entries[id]?.record }) else { return .unknownWatch }
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
        let token = nextSubscriberToken.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id, default: []].append(Subscriber(token: token, deliver: deliver, finish: finish)) }
        return .subscribed(WatchSubscription { [weak self] in self?.unsubscribe(id, token: token) })
    }

    func registryEntries() -> [Entry] { registry.withLock { Array($0.entries.values) } }
    var storeFileBytes: Int { store.fileBytes }

    /// Open event streams across all watches.
    public var subscriberCount: Int { subscribers.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func unsubscribe(_ id: String, token: Int) {
        subscribers.withLock { all in
            all[id]?.removeAll { $0.token == token }
            if all[id]?.isEmpty == true { all[id] = nil }
        }
    }

    /// Sends events to their watches' subscribers (under `writeLock`, so order is kept), dropping the gone.
    func deliver(_ events: [StoredEvent]) {
        guard !events.isEmpty else { return }
        let all = subscribers.withLock { $0 }
        for e in events {
            let message = WatchEventMessage(id: e.id, type: e.type, data: e.data)
            for s in all[e.watchID] ?? [] where !s.deliver(message) { unsubscribe(e.watchID, token: s.token) }
        }
    }

    func finishSubscribers(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        let finished = subscribers.withLock { all in ids.flatMap { all.removeValue(forKey: $0) ?? [] } }
        for s in finished { s.finish() }
    }

    // MARK: Background loop

    /// Ticks every `tickIntervalSeconds` on a background thread until `stop()`.
    public func start() {
        loop.withLock { current in
            guard current == nil else { return }
            let control = LoopControl()
            let interval = configuration.tickIntervalSeconds
            let thread = Thread { [weak self] in
                while !control.stopped.load(ordering: .relaxed) {
                    self?.tick()
                    _ = control.wake.wait(timeout: .now() + interval)
                }
                control.done.signal()
            }
            thread.name = "wayfinder time-to-leave"
            thread.qualityOfService = .utility
            thread.start()
            current = control
        }
    }

    /// Stops the background loop (waits for a running tick to end).
    public func stop() {
        guard let control = loop.withLock({ c -> LoopControl? in defer { c = nil }; return c }) else { return }
        control.stopped.store(true, ordering: .relaxed)
        control.wake.signal()
        _ = control.done.wait(timeout: .now() + 30)
    }

    public var isRunning: Bool { loop.withLock { $0 != nil } }

    // MARK: Helpers

    static func makeID() -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "w" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Numbers the next event, records it on the watch, and renders the watch as its data.
    func emit(_ type: WatchEventType, _ record: inout WatchRecord, now: Double, zone: TimeZone, message: String, friendly: String,
              change: Int? = nil, previous: Double? = nil, lateBy: Int? = nil, routeChanged: Bool? = nil) -> StoredEvent {
        record.lastEventID += 1
        record.lastEvent = WatchEvent(id: record.lastEventID, type: type.rawValue, at: RFC3339.format(Date(timeIntervalSince1970: now), in: zone),
                                      message: message, friendlyMessage: friendly, departureChangeSeconds: change,
                                      previousDepartureTime: previous.map { RFC3339.format(Date(timeIntervalSince1970: $0), in: zone) },
                                      lateBySeconds: lateBy, routeChanged: routeChanged)
        let data = String(decoding: (try? WatchStore.encoder().encode(document(record, now: now, zone: zone))) ?? Data("{}".utf8), as: UTF8.self)
        return StoredEvent(watchID: record.id, id: record.lastEventID, type: type.rawValue, at: now, data: data)
    }

    /// "Get ready at 07:54, leave at 08:04 to arrive by 08:30 (25 min with traffic)."
    func planSentence(_ r: WatchRecord, zone: TimeZone) -> String {
        guard let plan = r.plan else { return "" }
        var s = ""
        if r.spec.preparationSeconds > 0 {
            s += "Get ready at \(WatchMessages.clockTime(plan.departure - Double(r.spec.preparationSeconds), zone)), leave at "
        } else {
            s += "Leave at "
        }
        s += "\(WatchMessages.clockTime(plan.departure, zone)) to arrive by \(WatchMessages.clockTime(r.spec.arriveAt, zone))"
        return s + " (\(WatchMessages.span(plan.travelTimeSeconds)) on the road)"
    }

    /// The API's view of a record at `now`.
    func document(_ r: WatchRecord, now: Double, zone: TimeZone) -> WatchDocument {
        func time(_ t: Double) -> String { RFC3339.format(Date(timeIntervalSince1970: t), in: zone) }
        let plan = r.plan
        let prepareBy = plan.map { $0.departure - Double(r.spec.preparationSeconds) }
        let status: String
        if r.expired || now >= r.spec.arriveAt {
            status = "expired"
        } else if r.lateBySeconds != nil {
            status = "late"
        } else if let plan, now >= plan.departure {
            status = "leaveNow"
        } else if let prepareBy, now >= prepareBy {
            status = "getReady"
        } else {
            status = "waiting"
        }
        let offer = r.offer.map { o in
            RouteOffer(departureTime: time(o.plan.departure), arrivalTime: time(o.plan.arrival), travelTimeInSeconds: o.plan.travelTimeSeconds,
                       trafficDelayInSeconds: o.plan.trafficDelaySeconds, lengthInMeters: o.plan.lengthMeters, gainSeconds: o.gainSeconds,
                       message: r.lateBySeconds == nil ? "Another route lets you leave \(WatchMessages.span(o.gainSeconds)) later"
                           : "Another route arrives \(WatchMessages.span(o.gainSeconds)) earlier",
                       route: o.plan.route)
        }
        return WatchDocument(
            id: r.id, status: status, now: time(now), createdAt: time(r.createdAt),
            origin: r.spec.origin, destination: r.spec.destination, waypoints: r.spec.waypoints, arriveAt: time(r.spec.arriveAt),
            travelMode: r.spec.travelMode.rawValue, routeType: r.spec.routeType.rawValue, avoid: r.spec.avoid.map(\.rawValue),
            preparationTime: r.spec.preparationSeconds, traffic: r.spec.traffic,
            departureTime: plan.map { time($0.departure) }, prepareBy: prepareBy.map(time), arrivalTime: plan.map { time($0.arrival) },
            secondsUntilDeparture: plan.map { Int(($0.departure - now).rounded(.down)) },
            secondsUntilPrepareBy: prepareBy.map { Int(($0 - now).rounded(.down)) },
            travelTimeInSeconds: plan?.travelTimeSeconds, noTrafficTravelTimeInSeconds: plan?.noTrafficSeconds,
            historicTrafficTravelTimeInSeconds: plan?.historicSeconds, trafficDelayInSeconds: plan?.trafficDelaySeconds,
            lengthInMeters: plan?.lengthMeters, lateBySeconds: r.lateBySeconds, route: plan?.route, betterRoute: offer,
            lastPlannedAt: r.lastPlannedAt.map(time), nextPlanAt: r.expired ? nil : time(r.nextPlanAt), planCount: r.planCount,
            replanIntervalSeconds: Int(configuration.replanIntervalSeconds), thresholdSeconds: Int(configuration.thresholdSeconds),
            lastError: r.lastError, lastEventId: r.lastEventID, event: r.lastEvent)
    }

    // MARK: Ticks

    /// What one tick did.
    public struct TickReport: Sendable, Equatable {
        public var replans = 0
        /// Re-plans that were due but left for the next tick (the per-tick bound).
        public var deferredReplans = 0
        public var events = 0
        public var replayedRows = 0
        public var removedWatches = 0
        public var errors: [String] = []
    }

    /// Does whatever is due at the clock's current time: plays due replay rows, notices traffic
    /// changes, re-plans (bounded), announces time to leave and expiry, removes old watches.
    @discardableResult
    public func tick() -> TickReport {
        tickLock.lock()
        defer { tickLock.unlock() }
        var report = TickReport()
        let maps = self.maps
        let nowDate = maps.clock()
        let now = nowDate.timeIntervalSince1970
        let zone = maps.timeZone
        if let replayer = replayer.withLock({ $0 }) {
            do { report.replayedRows = try replayer.applyDue(to: maps, now: nowDate) } catch { report.errors.append("traffic replay: \(error)") }
        }
        maps.refreshTraffic()
        noteTrafficChanges(maps)

        // Re-plans: the traffic-touched first, then the most overdue; bounded in count and time.
        struct Due { var id: String; var version: Int; var spec: WatchSpec; var route: RouteBody?; var trace: RouteTrace? }
        let (due, waiting) = registry.withLock { reg -> ([Due], Int) in
            let candidates = reg.entries.values.filter { e in
                !e.record.expired && now < e.record.spec.arriveAt && (e.dirty || e.record.nextPlanAt <= now)
            }.sorted { a, b in
                (a.dirty ? 0 : 1, a.record.nextPlanAt, a.record.id) < (b.dirty ? 0 : 1, b.record.nextPlanAt, b.record.id)
            }
            let chosen = candidates.prefix(configuration.maxReplansPerTick).map { e in
                Due(id: e.record.id, version: e.version, spec: e.record.spec, route: e.record.plan?.route, trace: e.trace)
            }
            return (Array(chosen), candidates.count - chosen.count)
        }
        var planner = WatchPlanner(maps: maps, thresholdSeconds: configuration.thresholdSeconds)
        planner.closures = registry.withLock { $0.closures }
        let started = ContinuousClock.now
        let budget = Duration.milliseconds(Int64(configuration.tickBudgetSeconds * 1000))
        var results: [(due: Due, evaluation: WatchPlanner.Evaluation, trace: RouteTrace?)] = []
        for item in due {
            if !results.isEmpty && ContinuousClock.now - started > budget { break }
            let graph = maps.dataset.graphs[item.spec.travelMode]
            var trace = item.trace
            if trace == nil, let route = item.route, let graph { trace = RouteTrace(route, graph: graph) }
            let evaluation = planner.evaluate(item.spec, current: item.route, trace: trace, now: now)
            var newTrace = trace
            switch evaluation {
            case .onTime(let plan, _, let changed), .late(let plan, _, _, let changed):
                if changed || trace == nil { newTrace = graph.map { RouteTrace(plan.route, graph: $0) } }
            case .failed:
                break
            }
            results.append((item, evaluation, newTrace))
        }
        report.replans = results.count
        report.deferredReplans = waiting + (due.count - results.count)

        writeLock.lock()
        defer { writeLock.unlock() }
        var events: [StoredEvent] = []
        var changed: [WatchRecord] = []
        var ended: [String] = []
        var removed: [String] = []
        registry.withLock { reg in
            for result in results {
                guard var entry = reg.entries[result.due.id], entry.version == result.due.version else { continue }
                events += apply(result.evaluation, to: &entry.record, now: now, zone: zone)
                entry.trace = result.trace
                entry.dirty = false
                entry.version += 1
                reg.entries[result.due.id] = entry
                changed.append(entry.record)
            }
            // The clock's own events.
            for id in reg.entries.keys {
                var r = reg.entries[id]!.record
                if r.expired {
                    if now >= r.spec.arriveAt + configuration.retentionAfterArrivalSeconds { removed.append(id) }
                    continue
                }
                var event: StoredEvent?
                if now >= r.spec.arriveAt {
                    r.expired = true
                    r.offer = nil
                    event = emit(.expired, &r, now: now, zone: zone, message: "The arrival time has passed",
                                 friendly: "It is past \(WatchMessages.clockTime(r.spec.arriveAt, zone)); this watch has ended")
                    ended.append(id)
                } else if let plan = r.plan, r.lateBySeconds == nil, !r.timeToLeaveAnnounced, now >= plan.departure {
                    r.timeToLeaveAnnounced = true
                    event = emit(.timeToLeave, &r, now: now, zone: zone, message: WatchMessages.timeToLeave,
                                 friendly: "Leave now to arrive by \(WatchMessages.clockTime(r.spec.arriveAt, zone))")
                }
                guard let event else { continue }
                events.append(event)
                reg.entries[id]!.record = r
                reg.entries[id]!.version += 1
                changed.removeAll { $0.id == id }
                changed.append(r)
            }
            for id in removed { reg.entries[id] = nil }
        }
        do {
            try store.commit(records: changed, events: events, keepEvents: configuration.eventsKeptPerWatch, now: now)
            try store.delete(removed)
        } catch {
            report.errors.append("time to leave: saving watches failed: \(error)")
        }
        deliver(events)
        finishSubscribers(ended + removed)
        report.events = events.count
        report.removedWatches = removed.count
        return report
    }

    /// Marks for re-planning the watches whose route a traffic change touched. A change is seen
    /// through the traffic generation; the edges with live data before or after it are the ones
    /// that may have changed.
    private func noteTrafficChanges(_ maps: MapsService) {
        let generation = maps.planning.trafficGeneration
        let (previous, modes) = registry.withLock { reg in
            (reg.lastGeneration, Set(reg.entries.values.filter { $0.record.spec.traffic && !$0.record.expired }.map(\.record.spec.travelMode)))
        }
        guard previous != generation else { return }
        var live: [TravelMode: Set<Int>] = [:]
        for mode in modes where mode.usesTraffic { live[mode] = maps.planning.liveAffectedEdges(mode) }
        let closures = Self.closures(maps)
        registry.withLock { reg in
            reg.lastGeneration = generation
            reg.closures = closures
            for (mode, edges) in live {
                let touched = edges.union(reg.liveEdges[mode] ?? [])
                reg.liveEdges[mode] = edges
                guard !touched.isEmpty else { continue }
                for id in reg.entries.keys {
                    let e = reg.entries[id]!
                    guard e.record.spec.travelMode == mode, e.record.spec.traffic, !e.record.expired else { continue }
                    if e.trace.map({ !$0.edgeSet.isDisjoint(with: touched) }) ?? true { reg.entries[id]!.dirty = true }
                }
            }
        }
    }

    /// Applies a re-plan to a record; returns the event it makes.
    func apply(_ evaluation: WatchPlanner.Evaluation, to r: inout WatchRecord, now: Double, zone: TimeZone) -> [StoredEvent] {
        r.lastPlannedAt = now
        r.nextPlanAt = now + configuration.replanIntervalSeconds
        r.planCount += 1
        let threshold = configuration.thresholdSeconds
        switch evaluation {
        case .failed(let error):
            r.lastError = error.message
            return []
        case .onTime(let plan, let offer, let routeChanged):
            r.lastError = nil
            let wasLate = r.lateBySeconds != nil
            r.plan = plan
            r.offer = offer
            r.lateBySeconds = nil
            r.announcedLateBy = nil
            let previous = r.announcedDeparture ?? plan.departure
            // The seed's N: previous departure minus the new one.
            let n = Int((previous - plan.departure).rounded())
            let offerNote = offer.map { ". Another route lets you leave \(WatchMessages.span($0.gainSeconds)) later" } ?? ""
            if Double(abs(n)) >= threshold || routeChanged || wasLate {
                r.announcedDeparture = plan.departure
                if plan.departure > now { r.timeToLeaveAnnounced = false }
                let at = WatchMessages.clockTime(plan.departure, zone)
                var friendly = n == 0 ? "Leave at \(at)" : WatchMessages.friendlyChange(n) + ": leave at \(at)"
                if routeChanged { friendly += " on a new route (the watched one can no longer be driven as planned)" }
                if wasLate { friendly += "; you can arrive on time again" }
                return [emit(.trafficChange, &r, now: now, zone: zone, message: WatchMessages.trafficChange(n), friendly: friendly + offerNote,
                             change: n, previous: previous, routeChanged: routeChanged ? true : nil)]
            }
            return [emit(.noChange, &r, now: now, zone: zone, message: "No change in traffic",
                         friendly: "Still leave at \(WatchMessages.clockTime(plan.departure, zone))" + offerNote)]
        case .late(let plan, let lateBy, let offer, let routeChanged):
            r.lastError = nil
            r.plan = plan
            r.offer = offer
            r.lateBySeconds = lateBy
            let offerNote = offer.map { ". Another route arrives \(WatchMessages.span($0.gainSeconds)) earlier" } ?? ""
            if r.announcedLateBy.map({ Double(abs(lateBy - $0)) >= threshold }) ?? true || routeChanged {
                r.announcedLateBy = lateBy
                // What the client was last told to do is leave now: a recovery is measured from here.
                r.announcedDeparture = plan.departure
                return [emit(.late, &r, now: now, zone: zone, message: "You will arrive \(WatchMessages.span(lateBy)) late",
                             friendly: "Leaving now arrives at \(WatchMessages.clockTime(plan.arrival, zone)), \(WatchMessages.span(lateBy)) after "
                                + "\(WatchMessages.clockTime(r.spec.arriveAt, zone))" + offerNote,
                             lateBy: lateBy, routeChanged: routeChanged ? true : nil)]
            }
            return [emit(.noChange, &r, now: now, zone: zone, message: "No change in traffic",
                         friendly: "Still \(WatchMessages.span(lateBy)) late if you leave now" + offerNote, lateBy: lateBy)]
        }
    }
}

/// A live event stream's registration; `cancel()` ends it (idempotent).
public final class WatchSubscription: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) { action = Mutex(cancel) }

    public func cancel() {
        let a = action.withLock { a -> (@Sendable () -> Void)? in defer { a = nil }; return a }
        a?()
    }
}

final class Subscriber: Sendable {
    let token: Int
    let deliver: @Sendable (WatchEventMessage) -> Bool
    let finish: @Sendable () -> Void
    init(token: Int, deliver: @escaping @Sendable (WatchEventMessage) -> Bool, finish: @escaping @Sendable () -> Void) {
        self.token = token
        self.deliver = deliver
        self.finish = finish
    }
}

final class LoopControl: Sendable {
    let stopped = Atomic<Bool>(false)
    let wake = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
}
