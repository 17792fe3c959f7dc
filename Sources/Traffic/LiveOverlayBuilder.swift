public import RoadNetwork

/// Turns the live updates in force into a `LiveOverlay` in time proportional to their lines, not
/// to the map: per-key and per-arc stamps say what this build has seen (reset in O(1) by a new
/// generation), and only the arcs that some line touches get accumulators. The stamps are kept
/// between builds (4 bytes per segment key and per arc), so a build allocates nothing map-sized.
struct LiveOverlayBuilder {
    private var keyStamp: [UInt32]
    private var arcStamp: [UInt32]
    /// Index of an arc's accumulator in this build (valid when its stamp is current).
    private var arcSlot: [UInt32]
    private var generation: UInt32 = 0

    private struct Accumulator {
        var arc: Int
        var coveredMeters = 0.0
        var liveSeconds = 0.0
        var expiry = Double.infinity
        var closedUntil = 0.0
    }

    init(keyCount: Int, arcCount: Int) {
        keyStamp = [UInt32](repeating: 0, count: keyCount)
        arcStamp = [UInt32](repeating: 0, count: arcCount)
        arcSlot = [UInt32](repeating: 0, count: arcCount)
    }

    /// The newest update wins segment by segment; an arc's live time is its live segments at their
    /// speeds plus the rest at free flow; a closure (or a speed of 0, as OSRM reads it) holds
    /// until the latest expiry that closes the arc. Restriction copies carry their original's state.
    mutating func build(graph: RoadGraph, updates: [LiveUpdate], resolutions: [TrafficModel.Resolution],
                        report: inout TrafficModel.MatchReport) -> LiveOverlay {
        generation &+= 1
        if generation == 0 {
            for i in keyStamp.indices { keyStamp[i] = 0 }
            for i in arcStamp.indices { arcStamp[i] = 0 }
            generation = 1
        }
        let g = generation
        let keys = graph.segmentKeys
        var accumulators: [Accumulator] = []
        for (u, update) in updates.enumerated().reversed() {
            let resolution = resolutions[u]
            let speeds = update.kind == .speeds
            for (i, e) in update.entries.enumerated() {
                report.entries += 1
                let first = Int(resolution.firstKey[i])
                let range = first..<(first + Int(resolution.keyCount[i]))
                if range.isEmpty { report.unmatchedSegments += 1; continue }
                report.matchedSegments += 1
                for k in range where keyStamp[k] != g {
                    keyStamp[k] = g
                    let a = keys.arc[k].index
                    if arcStamp[a] != g {
                        arcStamp[a] = g
                        arcSlot[a] = UInt32(accumulators.count)
                        accumulators.append(Accumulator(arc: a))
                    }
                    let slot = Int(arcSlot[a])
                    guard speeds, let speed = e.speedKmh, speed > 0 else {
                        accumulators[slot].closedUntil = max(accumulators[slot].closedUntil, update.expiresAt)
                        continue
                    }
                    let meters = max(0.01, Double(keys.lengthCm(k)) / 100)
                    accumulators[slot].coveredMeters += meters
                    accumulators[slot].liveSeconds += meters / (speed / 3.6)
                    accumulators[slot].expiry = min(accumulators[slot].expiry, update.expiresAt)
                }
            }
        }
        var entries: [LiveOverlay.Entry] = []
        entries.reserveCapacity(accumulators.count)
        var speeds = 0, closures = 0
        for acc in accumulators {
            let a = acc.arc
            var entry = LiveOverlay.Entry(arc: a, ms: 0, expiry: 0, closedUntil: acc.closedUntil)
            if acc.coveredMeters > 0 {
                let total = Double(graph.lengthCm(of: ArcID(a))) / 100
                let rest = max(0, total - acc.coveredMeters) / max(0.01, total) * Double(graph.arcDurationMs[a]) / 1000
                entry.ms = UInt32(min(Double(UInt32.max - 1), max(1, ((acc.liveSeconds + rest) * 1000).rounded())))
                entry.expiry = acc.expiry
                speeds += 1
            }
            if entry.closedUntil > 0 { closures += 1 }
            entries.append(entry)
            if !graph.restrictionCopies.isEmpty, let copies = graph.restrictionCopies[ArcID(a)] {
                for copy in copies {
                    var e = entry
                    e.arc = copy.index
                    entries.append(e)
                }
            }
        }
        report.arcs = speeds + closures
        return LiveOverlay(arcCount: graph.arcCount, entries: entries)
    }
}
