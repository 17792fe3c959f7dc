public import Foundation
public import RoadNetwork
import GeoCore
import Dispatch
import Synchronization

/// Builds `TravelTimeTable`s for one graph: default profiles by road class, operator-supplied
/// per-segment profiles, and live updates, matched to arcs through their OSM node pairs.
public final class TrafficModel: @unchecked Sendable {
    public let graph: RoadGraph
    public let timeZone: TimeZone
    /// Profile per arc and the deduplicated profile table (default profiles first).
    public private(set) var profileOfArc: [UInt16]
    public private(set) var profileFactors: [UInt16]
    /// Extra memory the per-segment profiles take (profile table + per-arc ids beyond the defaults).
    public private(set) var customProfileBytes = 0
    public private(set) var customProfileSegments = 0
    /// Each live update in force matched to segment keys once (updates never change): a refresh
    /// after a new upload matches only that upload's lines.
    private let resolved = Mutex<[String: Resolution]>([:])

    /// Per CSV line of an update: its first segment key and how many keys it has (0 = unmatched).
    struct Resolution: Sendable {
        var firstKey: [Int32]
        var keyCount: [UInt8]
        var matched: Int
    }

    public init(graph: RoadGraph, timeZone: TimeZone, historical: [(from: Int64, to: Int64, speedsKmh: [Double])] = []) {
        self.graph = graph
        self.timeZone = timeZone
        var factors: [UInt16] = []
        for p in HistoricalProfiles.all { factors.append(contentsOf: HistoricalProfiles.slots(p)) }
        profileFactors = factors
        profileOfArc = (0..<graph.arcCount).map { a in
            UInt16(HistoricalProfiles.profile(for: graph.wayClass[graph.way(of: ArcID(a)).index]).id)
        }
        if !historical.isEmpty { applyHistorical(historical) }
    }

    /// Per-segment weekly speeds: each arc touched gets the length-weighted factors of its
    /// segments (untouched segments keep the arc's default profile); identical profiles are shared.
    private func applyHistorical(_ rows: [(from: Int64, to: Int64, speedsKmh: [Double])]) {
        var perArc: [Int: [(segmentMeters: Double, speeds: [Double])]] = [:]
        var lengthOf: [Int: [Double]] = [:]
        for row in rows {
            for arc in graph.segmentKeys.arcs(from: row.from, to: row.to) {
                let a = arc.index
                if lengthOf[a] == nil { lengthOf[a] = segmentLengths(a) }
                guard let meters = segmentLength(a, row.from, row.to) else { continue }
                perArc[a, default: []].append((meters, row.speedsKmh))
                customProfileSegments += 1
            }
        }
        var unique: [[UInt16]: UInt16] = [:]
        let baseProfiles = HistoricalProfiles.all.count
        for (a, segments) in perArc {
            let total = (lengthOf[a] ?? []).reduce(0, +)
            guard total > 0 else { continue }
            let freeFlowSeconds = Double(graph.arcDurationMs[a]) / 1000
            let defaultProfile = Int(profileOfArc[a])
            let covered = segments.reduce(0) { $0 + $1.segmentMeters }
            var slots = [UInt16](repeating: 0, count: TravelTimeTable.slotsPerWeek)
            for s in 0..<TravelTimeTable.slotsPerWeek {
                // Time on the covered segments at their speeds, the rest at the default factor.
                var seconds = 0.0
                for seg in segments { seconds += seg.segmentMeters / (seg.speeds[s] / 3.6) }
                let rest = max(0, total - covered) / total * freeFlowSeconds
                    * Double(profileFactors[defaultProfile * TravelTimeTable.slotsPerWeek + s]) / Double(TravelTimeTable.factorScale)
                let factor = (seconds + rest) / max(0.001, freeFlowSeconds)
                slots[s] = UInt16(min(60_000, max(1, (factor * Double(TravelTimeTable.factorScale)).rounded())))
            }
            if let id = unique[slots] { profileOfArc[a] = id; continue }
            let id = UInt16(profileFactors.count / TravelTimeTable.slotsPerWeek)
            guard Int(id) < Int(UInt16.max) else { continue }
            profileFactors.append(contentsOf: slots)
            unique[slots] = id
            profileOfArc[a] = id
        }
        customProfileBytes = (profileFactors.count / TravelTimeTable.slotsPerWeek - baseProfiles) * TravelTimeTable.slotsPerWeek * 2
    }

    func segmentLengths(_ a: Int) -> [Double] {
        let shape = graph.shape(of: ArcID(a))
        return zip(shape, shape.dropFirst()).map { Geodesy.distanceMeters($0, $1) }
    }

    /// Metres of the segment `from → to` on arc `a`.
    func segmentLength(_ a: Int, _ from: Int64, _ to: Int64) -> Double? {
        let ids = graph.shapeOSMIDs(of: ArcID(a))
        let shape = graph.shape(of: ArcID(a))
        for i in 0..<(ids.count - 1) where ids[i] == from && ids[i + 1] == to {
            return Geodesy.distanceMeters(shape[i], shape[i + 1])
        }
        return nil
    }

    public struct MatchReport: Sendable {
        public var entries = 0
        public var matchedSegments = 0
        public var unmatchedSegments = 0
        public var arcs = 0
    }

    /// A table for queries made at `referenceTime`, with the live updates in force then.
    ///
    /// The newest update wins segment by segment; an arc's live time is its live segments at their
    /// speeds plus the rest at free flow. Flat per-arc arrays; each update's lines are matched to
    /// segment keys once, when it is first seen.
    /// - Complexity: O(entries + arcs), plus O(new entries × log segments).
    public func table(referenceTime: Date, updates: [LiveUpdate]) -> (TravelTimeTable, MatchReport) {
        let n = graph.arcCount
        var liveMs = [UInt32](repeating: 0, count: n)
        var liveExpiry = [Double](repeating: 0, count: n)
        var closedUntil = [Double](repeating: 0, count: n)
        var report = MatchReport()
        let keys = graph.segmentKeys
        var seen = [Bool](repeating: false, count: keys.count)
        var coveredMeters = [Double](repeating: 0, count: n)
        var liveSeconds = [Double](repeating: 0, count: n)
        var expiry = [Double](repeating: .infinity, count: n)
        var touched: [Int] = []
        let resolutions = resolve(updates, inForce: true)
        for (u, update) in updates.enumerated().reversed() {
            let resolution = resolutions[u]
            for (i, e) in update.entries.enumerated() {
                report.entries += 1
                let first = Int(resolution.firstKey[i])
                let range = first..<(first + Int(resolution.keyCount[i]))
                if range.isEmpty { report.unmatchedSegments += 1; continue }
                report.matchedSegments += 1
                for k in range where !seen[k] {
                    seen[k] = true
                    let a = keys.arc[k].index
                    // A speed of 0 closes the segment (OSRM treats 0 as impassable); closure files close it outright.
                    guard update.kind == .speeds, let speed = e.speedKmh, speed > 0 else {
                        closedUntil[a] = max(closedUntil[a], update.expiresAt)
                        continue
                    }
                    if coveredMeters[a] == 0 { touched.append(a) }
                    let meters = max(0.01, Double(keys.lengthCm(k)) / 100)
                    coveredMeters[a] += meters
                    liveSeconds[a] += meters / (speed / 3.6)
                    expiry[a] = min(expiry[a], update.expiresAt)
                }
            }
        }
        for a in touched {
            let total = Double(graph.lengthCm(of: ArcID(a))) / 100
            let rest = max(0, total - coveredMeters[a]) / max(0.01, total) * Double(graph.arcDurationMs[a]) / 1000
            liveMs[a] = UInt32(min(Double(UInt32.max - 1), max(1, ((liveSeconds[a] + rest) * 1000).rounded())))
            liveExpiry[a] = expiry[a]
        }
        // Restriction copies carry their original's live state.
        for a in 0..<n where graph.arcOriginal[a].index != a {
            let o = graph.arcOriginal[a].index
            liveMs[a] = liveMs[o]
            liveExpiry[a] = liveExpiry[o]
            closedUntil[a] = closedUntil[o]
        }
        report.arcs = touched.count + closedUntil.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        let time = referenceTime.timeIntervalSince1970
        let table = TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: profileOfArc, profileFactors: profileFactors,
                                    liveMs: liveMs, liveExpiry: liveExpiry, closedUntil: closedUntil, referenceTime: time,
                                    utcOffsetSeconds: timeZone.secondsFromGMT(for: referenceTime))
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

    func segmentIndex(_ a: Int, _ from: Int64, _ to: Int64) -> Int? {
        let ids = graph.shapeOSMIDs(of: ArcID(a))
        for i in 0..<(ids.count - 1) where ids[i] == from && ids[i + 1] == to { return i }
        return nil
    }
}
