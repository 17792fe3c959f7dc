public import Foundation
public import RoadNetwork
import GeoCore
import Dispatch
import Synchronization

/// Builds `TravelTimeTable`s for one graph: free flow, the weekly profiles that come from data
/// (an operator's per-segment profile file, speeds learned from live traffic) or, for demos only,
/// invented congestion by road class; and live updates, matched to arcs through OSM node pairs.
public final class TrafficModel: @unchecked Sendable {
    public let graph: RoadGraph
    public let timeZone: TimeZone
    /// Extra memory the per-segment profiles take (profile table + per-arc ids beyond the defaults).
    public private(set) var customProfileBytes = 0
    public private(set) var customProfileSegments = 0
    public private(set) var customProfileArcs = 0
    /// Arcs that kept their default profile because the table of distinct profiles (65,535) was full.
    public private(set) var customProfileArcsOverLimit = 0
    /// The defaults and the imported profiles; the learned ones go on top of them.
    private let base: Profiles
    private let current: Mutex<Profiles>
    /// Each live update in force matched to segment keys once (updates never change): a refresh
    /// after a new upload matches only that upload's lines.
    private let resolved = Mutex<[String: Resolution]>([:])
    /// Made on the first table with live data (its stamps are map-sized).
    private let overlayBuilder = Mutex<LiveOverlayBuilder?>(nil)

    /// Profile per arc, the deduplicated factor table, and where each profile comes from.
    struct Profiles: Sendable {
        var ofArc: [UInt16]
        var factors: [UInt16]
        var origins: [TravelTimeTable.ProfileOrigin]
    }

    /// Per CSV line of an update: its first segment key and how many keys it has (0 = unmatched).
    struct Resolution: Sendable {
        var firstKey: [Int32]
        var keyCount: [UInt8]
        var matched: Int
    }

    /// - Parameter demoCongestion: the invented weekly congestion by road class
    ///   (`HistoricalProfiles`) is the default profile (`--demo-congestion`); otherwise free flow.
    public init(graph: RoadGraph, timeZone: TimeZone, historical: SegmentProfiles? = nil, learned: SegmentProfiles? = nil,
                demoCongestion: Bool = false) {
        self.graph = graph
        self.timeZone = timeZone
        var defaults: Profiles
        if demoCongestion {
            var factors: [UInt16] = []
            for p in HistoricalProfiles.all { factors.append(contentsOf: HistoricalProfiles.slots(p)) }
            defaults = Profiles(ofArc: (0..<graph.arcCount).map { a in
                UInt16(HistoricalProfiles.profile(for: graph.wayClass[graph.way(of: ArcID(a)).index]).id)
            }, factors: factors, origins: HistoricalProfiles.all.map { $0.id == 0 ? [] : .demo })
        } else {
            defaults = Profiles(ofArc: [UInt16](repeating: 0, count: graph.arcCount),
                                factors: [UInt16](repeating: UInt16(TravelTimeTable.factorScale), count: TravelTimeTable.slotsPerWeek),
                                origins: [[]])
        }
        let defaultFactorCount = defaults.factors.count
        if let historical, !historical.isEmpty {
            let match = HistoricalProfileMatch(graph: graph, segments: historical, defaultProfileOfArc: defaults.ofArc,
                                               defaultFactors: defaults.factors)
            defaults = Self.layered(defaults, match, origin: .imported)
            customProfileSegments = match.matchedLines
            customProfileArcs = match.profiledArcs
            customProfileArcsOverLimit = match.arcsOverLimit
            customProfileBytes = (defaults.factors.count - defaultFactorCount) * 2
        }
        base = defaults
        current = Mutex(defaults)
        if let learned { install(layering(learned)) }
    }

    /// Profiles with learned ones on top of the defaults and the imported ones, made by
    /// `layering` and put in force by `install`: the matching is the slow part, so a caller can
    /// make it without holding a lock that live updates wait for.
    public struct LearnedLayer: Sendable {
        let profiles: Profiles
    }

    /// The learned profiles (nil: none yet) on top of the defaults and the imported ones; nothing
    /// changes until `install`. A learned slot is never faster than free flow.
    public func layering(_ learned: SegmentProfiles?) -> LearnedLayer {
        guard let learned, !learned.isEmpty else { return LearnedLayer(profiles: base) }
        let match = HistoricalProfileMatch(graph: graph, segments: learned, defaultProfileOfArc: base.ofArc,
                                           defaultFactors: base.factors, minimumFactor: 1)
        return LearnedLayer(profiles: Self.layered(base, match, origin: .learned))
    }

    /// Tables made afterwards use `layer`'s profiles.
    public func install(_ layer: LearnedLayer) {
        current.withLock { $0 = layer.profiles }
    }

    /// `under` with the profiles `match` made from it; a new profile's origin is `origin` and
    /// whatever it falls back to.
    static func layered(_ under: Profiles, _ match: HistoricalProfileMatch, origin: TravelTimeTable.ProfileOrigin) -> Profiles {
        var result = Profiles(ofArc: match.profileOfArc, factors: match.profileFactors, origins: under.origins)
        let count = match.profileFactors.count / TravelTimeTable.slotsPerWeek
        result.origins += [TravelTimeTable.ProfileOrigin](repeating: origin, count: count - under.origins.count)
        for a in result.ofArc.indices where Int(result.ofArc[a]) >= under.origins.count {
            result.origins[Int(result.ofArc[a])].formUnion(under.origins[Int(under.ofArc[a])])
        }
        return result
    }

    /// Whether some arc has a profile besides the learned ones (demo congestion or an imported file).
    public var hasBaseProfiles: Bool { base.origins.count > 1 }

    public struct MatchReport: Sendable {
        public var entries = 0
        public var matchedSegments = 0
        public var unmatchedSegments = 0
        public var arcs = 0
    }

    /// A table for queries made at `referenceTime`, with the live updates in force then.
    ///
    /// Each update's lines are matched to segment keys once, when it is first seen; the overlay
    /// of live speeds and closures is then built in time proportional to the lines in force.
    /// - Complexity: O(entries in force), plus O(new entries × log segments).
    /// - Parameter layer: profiles to use instead of the ones in force (not yet installed).
    public func table(referenceTime: Date, updates: [LiveUpdate], layer: LearnedLayer? = nil) -> (TravelTimeTable, MatchReport) {
        var report = MatchReport()
        let resolutions = resolve(updates, inForce: true)
        let overlay = updates.isEmpty ? LiveOverlay.empty(arcCount: graph.arcCount) : overlayBuilder.withLock { builder -> LiveOverlay in
            if builder == nil { builder = LiveOverlayBuilder(keyCount: graph.segmentKeys.count, arcCount: graph.arcCount) }
            return builder!.build(graph: graph, updates: updates, resolutions: resolutions, report: &report)
        }
        let time = referenceTime.timeIntervalSince1970
        let profiles = layer?.profiles ?? current.withLock { $0 }
        var table = TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: profiles.ofArc, profileFactors: profiles.factors,
                                    live: overlay, referenceTime: time, utcOffsetSeconds: timeZone.secondsFromGMT(for: referenceTime))
        table.profileOrigins = profiles.origins
        return (table, report)
    }

    /// How many lines of `update` match a segment of this graph (resolved once, then cached while
    /// the update is in force).
    public func matchedLines(of update: LiveUpdate) -> Int {
        resolve([update], inForce: false)[0].matched
    }

    /// The resolutions of `updates`, matching the ones not seen yet on both cores; when they are
    /// all the updates `inForce`, forgets the others.
    func resolve(_ updates: [LiveUpdate], inForce: Bool) -> [Resolution] {
        let known = resolved.withLock { cache in updates.map { cache[$0.id] } }
        var result: [Resolution] = []
        var fresh: [String: Resolution] = [:]
        for (i, update) in updates.enumerated() {
            if let r = known[i] { result.append(r); continue }
            let r = Self.match(update.entries, keys: graph.segmentKeys)
            fresh[update.id] = r
            result.append(r)
        }
        let ids = Set(updates.map(\.id))
        resolved.withLock { cache in
            cache.merge(fresh) { _, new in new }
            if inForce { cache = cache.filter { ids.contains($0.key) } }
        }
        return result
    }

    static func match(_ entries: [SegmentSpeedCSV.Entry], keys: SegmentKeys) -> Resolution {
        var first = [Int32](repeating: 0, count: entries.count)
        var count = [UInt8](repeating: 0, count: entries.count)
        let chunks = max(1, min(8, entries.count / 50_000))
        let matched = Atomic<Int>(0)
        first.withUnsafeMutableBufferPointer { f in
            count.withUnsafeMutableBufferPointer { c in
                nonisolated(unsafe) let (f, c) = (f, c)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let lo = entries.count * chunk / chunks, hi = entries.count * (chunk + 1) / chunks
                    var local = 0
                    for i in lo..<hi {
                        let range = keys.keys(from: entries[i].from, to: entries[i].to)
                        f[i] = Int32(truncatingIfNeeded: range.lowerBound)
                        c[i] = UInt8(min(255, range.count))
                        if !range.isEmpty { local += 1 }
                    }
                    matched.add(local, ordering: .relaxed)
                }
            }
        }
        return Resolution(firstKey: first, keyCount: count, matched: matched.load(ordering: .relaxed))
    }
}
