public import RoadNetwork

/// Turns per-segment historical speeds into per-arc weekly factor profiles (what
/// `TravelTimeTable` reads), sharing identical profiles.
///
/// An arc's factor in a slot is the time its profiled segments take at their speeds plus the rest
/// at the arc's default factor, over its free-flow time. Segments come from OSM node pairs, so
/// this is one pass over the file's lines (binary search in the segment keys) and one over the
/// arcs; an arc whose segments all share one profile costs one lookup, not 672 sums. A speed of 0
/// means "no data in this slot": the arc keeps its default factor there (learned profiles have
/// data only in the slots enough observations reached).
struct HistoricalProfileMatch {
    var profileOfArc: [UInt16]
    var profileFactors: [UInt16]
    /// Lines that matched a segment of this graph.
    var matchedLines = 0
    var profiledArcs = 0
    /// Arcs left on their default profile because the table of distinct profiles was full.
    var arcsOverLimit = 0

    /// - Parameter minimumFactor: the smallest factor a profile may give (learned profiles are never
    ///   faster than free flow, so that the lower bounds made at start stay bounds).
    init(graph: RoadGraph, segments: SegmentProfiles, defaultProfileOfArc: [UInt16], defaultFactors: [UInt16], minimumFactor: Double = 0) {
        let slots = TravelTimeTable.slotsPerWeek
        profileOfArc = defaultProfileOfArc
        profileFactors = defaultFactors
        let keys = graph.segmentKeys
        let none = UInt32.max
        var keyProfile = [UInt32](repeating: none, count: keys.count)
        for i in 0..<segments.count {
            let range = keys.keys(from: segments.from[i], to: segments.to[i])
            if !range.isEmpty { matchedLines += 1 }
            for k in range { keyProfile[k] = segments.profile[i] }
        }
        // The keys of each arc (counting sort by arc).
        let n = graph.arcCount
        var first = [UInt32](repeating: 0, count: n + 1)
        for k in 0..<keys.count { first[keys.arc[k].index + 1] += 1 }
        for a in 0..<n { first[a + 1] += first[a] }
        var fill = first
        var arcKeys = [UInt32](repeating: 0, count: keys.count)
        for k in 0..<keys.count {
            let a = keys.arc[k].index
            arcKeys[Int(fill[a])] = UInt32(k)
            fill[a] += 1
        }
        var unique: [[UInt16]: UInt16] = [:]
        var byUniformProfile: [UniformKey: UInt16] = [:]
        let factorScale = Double(TravelTimeTable.factorScale)
        func intern(_ vector: [UInt16]) -> UInt16? {
            if let id = unique[vector] { return id }
            let id = profileFactors.count / slots
            guard id < Int(UInt16.max) else { return nil }
            profileFactors.append(contentsOf: vector)
            unique[vector] = UInt16(id)
            return UInt16(id)
        }
        func quantized(_ factor: Double) -> UInt16 { UInt16(min(60_000, max(1, (max(minimumFactor, factor) * factorScale).rounded()))) }
        func defaultFactor(_ a: Int, _ s: Int) -> Double { Double(defaultFactors[Int(defaultProfileOfArc[a]) * slots + s]) / factorScale }
        for a in 0..<n {
            let range = Int(first[a])..<Int(first[a + 1])
            guard range.contains(where: { keyProfile[Int(arcKeys[$0])] != none }) else { continue }
            let ffSeconds = max(0.001, Double(graph.arcDurationMs[a]) / 1000)
            var totalMeters = 0.0, coveredMeters = 0.0
            var uniform: UInt32? = keyProfile[Int(arcKeys[range.lowerBound])]
            for i in range {
                let k = Int(arcKeys[i])
                let m = max(0.01, Double(keys.lengthCm(k)) / 100)
                totalMeters += m
                if keyProfile[k] != none { coveredMeters += m }
                if keyProfile[k] != uniform { uniform = nil }
            }
            var id: UInt16?
            if let p = uniform, p != none {
                // Every segment has profile p: factor = free-flow speed / speed. Arcs of one road
                // share the vector: their free-flow speeds differ only by rounding (to 1 cm/s here).
                let ffSpeed = (totalMeters / ffSeconds * 100).rounded() / 100
                // (The default profile is part of the key where a slot may fall back to it.)
                let cacheKey = UniformKey(profile: p, speedCms: UInt32(min(4e9, ffSpeed * 100)), fallback: defaultProfileOfArc[a])
                if let known = byUniformProfile[cacheKey] {
                    id = known
                } else {
                    let vector = (0..<slots).map { s in
                        let speed = segments.speed(Int(p), slot: s)
                        return quantized(speed > 0 ? ffSpeed / (speed / 3.6) : defaultFactor(a, s))
                    }
                    id = intern(vector)
                    if let id { byUniformProfile[cacheKey] = id }
                }
            } else {
                let defaultProfile = Int(defaultProfileOfArc[a])
                let rest = max(0, totalMeters - coveredMeters) / totalMeters * ffSeconds
                var vector = [UInt16](repeating: 0, count: slots)
                for s in 0..<slots {
                    var seconds = rest * Double(defaultFactors[defaultProfile * slots + s]) / factorScale
                    for i in range {
                        let k = Int(arcKeys[i])
                        guard keyProfile[k] != none else { continue }
                        let meters = max(0.01, Double(keys.lengthCm(k)) / 100), speed = segments.speed(Int(keyProfile[k]), slot: s)
                        seconds += speed > 0 ? meters / (speed / 3.6) : meters / totalMeters * ffSeconds * defaultFactor(a, s)
                    }
                    vector[s] = quantized(seconds / ffSeconds)
                }
                id = intern(vector)
            }
            if let id { profileOfArc[a] = id; profiledArcs += 1 } else { arcsOverLimit += 1 }
        }
        // Restriction copies drive like their originals.
        for a in 0..<n where graph.arcOriginal[a].index != a { profileOfArc[a] = profileOfArc[graph.arcOriginal[a].index] }
    }
}

/// Arcs whose segments all have one profile share a factor vector when their free-flow speeds
/// (to 1 cm/s) and the default profile they fall back to are the same.
private struct UniformKey: Hashable {
    var profile: UInt32
    var speedCms: UInt32
    var fallback: UInt16
}
