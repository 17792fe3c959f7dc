import Foundation
import RoadNetwork
import RoutePlanning
import Synchronization

extension WatchService {
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
        let planning = self.planning
        let nowDate = planning.clock()
        let now = nowDate.timeIntervalSince1970
        let zone = planning.timeZone
        if let replayer = replayer.withLock({ $0 }) {
            do { report.replayedRows = try replayer.applyDue(to: planning, now: nowDate) } catch { report.errors.append("traffic replay: \(error)") }
        }
        planning.refreshTraffic()
        noteTrafficChanges(planning)

        // Re-plans: the traffic-touched first, then the most overdue; bounded in count and time.
        struct Due { var id: String; var version: Int; var spec: WatchSpec; var plan: PlanState? }
        let (due, waiting) = registry.withLock { reg -> ([Due], Int) in
            let candidates = reg.entries.values.filter { e in
                !e.record.expired && now < e.record.spec.arriveAt && (e.dirty || e.record.nextPlanAt <= now)
            }.sorted { a, b in
                (a.dirty ? 0 : 1, a.record.nextPlanAt, a.record.id) < (b.dirty ? 0 : 1, b.record.nextPlanAt, b.record.id)
            }
            let chosen = candidates.prefix(configuration.maxReplansPerTick).map { e in
                Due(id: e.record.id, version: e.version, spec: e.record.spec, plan: e.record.plan)
            }
            return (Array(chosen), candidates.count - chosen.count)
        }
        let planner = planner(planning)
        let started = ContinuousClock.now
        let budget = Duration.milliseconds(Int64(configuration.tickBudgetSeconds * 1000))
        var results: [(due: Due, evaluation: WatchPlanner.Evaluation, edges: Set<Int>?)] = []
        for item in due {
            if !results.isEmpty && ContinuousClock.now - started > budget { break }
            let evaluation = planner.evaluate(item.spec, current: item.plan, now: now)
            var edges: Set<Int>?
            switch evaluation {
            case .onTime(let plan, _, _), .late(let plan, _, _, _): edges = plan.edges(on: planning)
            case .failed: edges = item.plan?.edges(on: planning)
            }
            results.append((item, evaluation, edges))
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
                if let a = WatchTransitions.replanned(&entry.record, result.evaluation, now: now, zone: zone, configuration: configuration) {
                    events.append(presenter.emit(a, &entry.record, now: now, zone: zone))
                }
                entry.edges = result.edges
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
                guard let a = WatchTransitions.clockTicked(&r, now: now, zone: zone) else { continue }
                if a.type == .expired { ended.append(id) }
                events.append(presenter.emit(a, &r, now: now, zone: zone))
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
        bus.deliver(events)
        bus.finish(ended + removed)
        report.events = events.count
        report.removedWatches = removed.count
        return report
    }

    /// Marks for re-planning the watches whose route a traffic change touched. A change is seen
    /// through the traffic generation.
    private func noteTrafficChanges(_ planning: PlanningEngine) {
        let generation = planning.trafficGeneration
        let (previous, modes) = registry.withLock { $0.trafficWatch }
        guard previous != generation else { return }
        var live: [TravelMode: Set<Int>] = [:]
        for mode in modes where mode.usesTraffic { live[mode] = planning.liveAffectedEdges(mode) }
        registry.withLock { $0.noteTrafficChange(generation: generation, live: live) }
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
}

final class LoopControl: Sendable {
    let stopped = Atomic<Bool>(false)
    let wake = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
}
