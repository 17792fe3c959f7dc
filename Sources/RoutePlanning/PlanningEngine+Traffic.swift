public import Foundation
public import RoadNetwork
public import Traffic
import Synchronization

/// When the snapshots were last rebuilt, so that a refresh happens only when `state/traffic`
/// changed or time moved on.
final class TrafficRefresh: Sendable {
    let lastFingerprint: Mutex<String>
    let lastRefresh: Mutex<Date>
    /// The learner's version the engines' profiles were last made from.
    let learnedVersion: Mutex<Int>
    /// One refresh at a time (the dataset watcher, the time-to-leave loop and uploads all refresh),
    /// so snapshots are published in the order their updates were read: an older one never
    /// replaces a newer one.
    let lock = NSLock()

    init(fingerprint: String, at date: Date, learnedVersion: Int) {
        lastFingerprint = Mutex(fingerprint)
        lastRefresh = Mutex(date)
        self.learnedVersion = Mutex(learnedVersion)
    }
}

/// A live upload the engine could not take.
public enum TrafficUploadError: Error, Sendable {
    /// `expiresInSeconds` is not within 1 second … 7 days.
    case expiryOutOfRange
    /// A line of the CSV is wrong (the message names it).
    case malformed(String)
    /// The update could not be written to `state/traffic`.
    case notSaved(String)
}

/// What one live upload did.
public struct TrafficApplication: Sendable {
    public var update: LiveUpdate
    /// Lines of this upload found on the road network (the car graph's, or the first that takes traffic).
    public var matchedLines: Int
    public var parseMilliseconds: Double
    public var applyMilliseconds: Double
}

/// The traffic in force: the live updates and each traffic mode's snapshot.
public struct TrafficState: Sendable {
    public struct Mode: Sendable {
        public var generation: Int
        public var liveArcs: Int
        public var closedArcs: Int
        public var snapshotAt: Date
    }

    public var updates: [LiveUpdate]
    public var modes: [TravelMode: Mode]
}

extension PlanningEngine {
    /// The longest an upload may stay in force.
    public static let maxTrafficExpirySeconds = 7 * 86_400.0

    /// Applies a live update (OSRM segment speed CSV, or closures) in process: saved to `state/`
    /// for other replicas and restarts, and published to queries atomically.
    public func applyTraffic(_ bytes: [UInt8], kind: LiveUpdate.Kind, expiresInSeconds: Double, source: String) throws(TrafficUploadError) -> TrafficApplication {
        guard expiresInSeconds > 0, expiresInSeconds <= Self.maxTrafficExpirySeconds else { throw .expiryOutOfRange }
        let started = DispatchTime.now().uptimeNanoseconds
        let entries: [SegmentSpeedCSV.Entry]
        do {
            entries = kind == .speeds ? try SegmentSpeedCSV.parseSpeeds(bytes, source: source) : try SegmentSpeedCSV.parseClosures(bytes, source: source)
        } catch {
            throw .malformed(error.description)
        }
        let parsed = DispatchTime.now().uptimeNanoseconds
        let now = clock().timeIntervalSince1970
        let update = LiveUpdate(id: TrafficStore.makeID(createdAt: now), kind: kind, createdAt: now, expiresAt: now + expiresInSeconds,
                                source: source, entries: entries)
        do { try trafficStore.save(update) } catch { throw .notSaved("\(error)") }
        refreshTraffic(force: true)
        let finished = DispatchTime.now().uptimeNanoseconds
        // This upload's own segments (the refresh reports every update in force), on the car
        // graph or the first graph that takes traffic.
        let modes = [TravelMode.car] + TravelMode.allCases.filter { $0 != .car && $0.usesTraffic }
        let model = modes.lazy.compactMap { self.engine($0)?.core.model }.first
        let matched = model?.matchedLines(of: update) ?? 0
        // Learned in the background once the update is in force, on a thread of lower priority,
        // so that it never takes the cores from an update being applied; routes take the learned
        // speeds once `refreshLearned` has put them in force. Not required: an update that could
        // not be learned from still applies live.
        learning.async { [self] in
            if (try? learner.observe(update)) == true { refreshLearned() }
        }
        return TrafficApplication(update: update, matchedLines: matched,
                                  parseMilliseconds: Double(parsed - started) / 1e6, applyMilliseconds: Double(finished - parsed) / 1e6)
    }

    /// Rebuilds the traffic snapshots when `state/traffic` changed (or `force`), or when time has
    /// moved on enough that "now" weights differ (every 5 minutes). Returns the car graph's match
    /// report when it rebuilt.
    @discardableResult
    public func refreshTraffic(force: Bool = false) -> TrafficModel.MatchReport? {
        traffic.lock.lock()
        defer { traffic.lock.unlock() }
        let now = clock()
        let fingerprint = trafficStore.fingerprint()
        let changed = traffic.lastFingerprint.withLock { $0 != fingerprint }
        let stale = traffic.lastRefresh.withLock { now.timeIntervalSince($0) >= 300 }
        guard force || changed || stale else { return nil }
        return rebuildSnapshots(now: now, fingerprint: fingerprint)
    }

    /// Puts what the learner knows now into the engines' profiles and rebuilds the snapshots.
    /// Matching the learned speeds to arcs and bounding them again takes a few hundred
    /// milliseconds on a city and grows with the map, so it runs before the refresh lock is
    /// taken: a live update waits at most for the snapshot rebuild, never for the learning.
    /// Called on the learning queue, so stagings never overlap.
    func refreshLearned() {
        let version = learner.version
        guard traffic.learnedVersion.withLock({ $0 != version }) else { return }
        let learned = learner.profiles()
        let staged = engines.made.compactMap { made in made.engine.core.stageLearned(learned).map { (made.engine, $0) } }
        traffic.lock.lock()
        defer { traffic.lock.unlock() }
        for (engine, s) in staged { engine.core.install(s) }
        traffic.learnedVersion.withLock { $0 = version }
        let now = clock()
        rebuildSnapshots(now: now, fingerprint: trafficStore.fingerprint())
    }

    /// New snapshots of every mode that takes traffic, from the updates in force `now` (the
    /// refresh lock held). Returns the car graph's match report.
    @discardableResult
    private func rebuildSnapshots(now: Date, fingerprint: String) -> TrafficModel.MatchReport? {
        let updates = trafficStore.activeUpdates(now: now.timeIntervalSince1970)
        var report: TrafficModel.MatchReport?
        // Only motor traffic uses traffic; walking and cycling snapshots never change.
        for (mode, engine) in engines.made where mode.usesTraffic {
            let snapshot = engine.refresh(now: now, updates: updates)
            if mode == .car || report == nil { report = snapshot.report }
        }
        // The fingerprint read before the updates: a file written meanwhile is seen by the next refresh.
        traffic.lastFingerprint.withLock { $0 = fingerprint }
        traffic.lastRefresh.withLock { $0 = now }
        return report
    }

    /// Changes every time any mode's traffic snapshot is rebuilt (live update, expiry, time passing):
    /// watchers compare it to decide when to re-plan.
    public var trafficGeneration: Int {
        engines.made.reduce(0) { $0 + $1.engine.snapshot.generation }
    }

    /// The edges of a mode with live data or a closure now (for "does this update touch my route?").
    public func liveAffectedEdges(_ mode: TravelMode) -> Set<Int> {
        guard let engine = engine(mode) else { return [] }
        let t = engine.snapshot.table
        var edges = Set<Int>()
        for entry in t.live.entries { edges.insert(engine.graph.edge(of: ArcID(entry.arc)).index) }
        return edges
    }

    public func trafficState() -> TrafficState {
        let updates = trafficStore.activeUpdates(now: clock().timeIntervalSince1970)
        var modes: [TravelMode: TrafficState.Mode] = [:]
        for (mode, engine) in engines.made where mode.usesTraffic {
            let s = engine.snapshot
            modes[mode] = .init(generation: s.generation, liveArcs: s.liveArcCount, closedArcs: s.closedArcCount, snapshotAt: s.createdAt)
        }
        return TrafficState(updates: updates, modes: modes)
    }
}

/// What travel times are made of beyond free flow and live traffic.
public struct TimeModelState: Sendable {
    public var settings: TimeModelSettings
    /// Lines of the imported speed-profile file found on the road network (the car graph's, or
    /// the first that takes traffic).
    public var importedSegments: Int
    public var learned: SpeedLearner.Summary
}

extension PlanningEngine {
    /// Waits until the live updates applied so far have been learned from (and routes use what
    /// was learned).
    public func waitForLearning() { learning.wait() }

    public func timeModelState() -> TimeModelState {
        let modes = [TravelMode.car] + TravelMode.allCases.filter { $0 != .car && $0.usesTraffic }
        let model = modes.lazy.compactMap { self.engines.existing($0)?.core.model }.first
        return TimeModelState(settings: timeModel, importedSegments: model?.customProfileSegments ?? 0, learned: learner.summary)
    }
}
