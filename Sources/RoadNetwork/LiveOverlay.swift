/// The live speeds and closures in force, kept sparse: even a feed that covers every road leaves
/// most of a country's arcs without live data, and a new update must not copy per-arc columns
/// of the whole map (80 MB at 5M nodes) to take effect.
///
/// A bit per arc says whether it has a live speed or a closure (searches test it first, from a
/// column small enough to stay in cache: 0.5 MB at 5M nodes); the values are in arrays sorted by
/// arc, found by binary search only for arcs whose bit is set.
public struct LiveOverlay: Sendable {
    public let arcCount: Int
    @usableFromInline let speedBits: [UInt64]
    @usableFromInline let closureBits: [UInt64]
    /// Arcs with a live travel time, ascending, with it (ms) and when it expires (s since 1970).
    public let speedArcs: [UInt32]
    public let speedMs: [UInt32]
    public let speedExpiry: [Double]
    /// Closed arcs, ascending, and until when (s since 1970).
    public let closedArcs: [UInt32]
    public let closedUntil: [Double]

    /// One arc's live state.
    public struct Entry: Sendable {
        public var arc: Int
        /// Live travel time (ms), 0 = none.
        public var ms: UInt32
        public var expiry: Double
        /// Closed until (s since 1970), 0 = not closed.
        public var closedUntil: Double
        public init(arc: Int, ms: UInt32, expiry: Double, closedUntil: Double) {
            self.arc = arc
            self.ms = ms
            self.expiry = expiry
            self.closedUntil = closedUntil
        }
    }

    /// - Parameter entries: at most one per arc, in any order.
    public init(arcCount: Int, entries: [Entry]) {
        self.arcCount = arcCount
        let sorted = entries.sorted { $0.arc < $1.arc }
        var speedBits = [UInt64](repeating: 0, count: (arcCount + 63) / 64), closureBits = speedBits
        var speedArcs: [UInt32] = [], speedMs: [UInt32] = [], speedExpiry: [Double] = []
        var closedArcs: [UInt32] = [], closedUntil: [Double] = []
        for e in sorted {
            if e.ms != 0 {
                speedBits[e.arc >> 6] |= 1 << UInt64(e.arc & 63)
                speedArcs.append(UInt32(e.arc)); speedMs.append(e.ms); speedExpiry.append(e.expiry)
            }
            if e.closedUntil > 0 {
                closureBits[e.arc >> 6] |= 1 << UInt64(e.arc & 63)
                closedArcs.append(UInt32(e.arc)); closedUntil.append(e.closedUntil)
            }
        }
        (self.speedBits, self.closureBits) = (speedBits, closureBits)
        (self.speedArcs, self.speedMs, self.speedExpiry) = (speedArcs, speedMs, speedExpiry)
        (self.closedArcs, self.closedUntil) = (closedArcs, closedUntil)
    }

    /// From per-arc columns (0 = no live time, no closure).
    public init(liveMs: [UInt32], liveExpiry: [Double], closedUntil: [Double]) {
        var entries: [Entry] = []
        for a in 0..<liveMs.count where liveMs[a] != 0 || closedUntil[a] > 0 {
            entries.append(Entry(arc: a, ms: liveMs[a], expiry: liveExpiry[a], closedUntil: closedUntil[a]))
        }
        self.init(arcCount: liveMs.count, entries: entries)
    }

    public static func empty(arcCount: Int) -> LiveOverlay { LiveOverlay(arcCount: arcCount, entries: []) }

    @inlinable public var isEmpty: Bool { speedArcs.isEmpty && closedArcs.isEmpty }

    @inlinable
    public func hasSpeed(_ arc: Int) -> Bool { speedBits[arc >> 6] & (1 << UInt64(arc & 63)) != 0 }

    @inlinable
    public func hasClosure(_ arc: Int) -> Bool { closureBits[arc >> 6] & (1 << UInt64(arc & 63)) != 0 }

    /// The position of `arc` in a sorted list that contains it.
    @inlinable
    static func position(of arc: Int, in list: [UInt32]) -> Int {
        var lo = 0, hi = list.count
        let key = UInt32(arc)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if list[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Live travel time (ms) and its expiry, or nil.
    @inlinable
    public func speed(_ arc: Int) -> (ms: UInt32, expiry: Double)? {
        guard hasSpeed(arc) else { return nil }
        let i = Self.position(of: arc, in: speedArcs)
        return (speedMs[i], speedExpiry[i])
    }

    /// Until when the arc is closed (0 when it is not).
    @inlinable
    public func closure(_ arc: Int) -> Double {
        guard hasClosure(arc) else { return 0 }
        return closedUntil[Self.position(of: arc, in: closedArcs)]
    }

    /// Every arc with live data.
    public var entries: [Entry] {
        var out: [Entry] = []
        var i = 0, j = 0
        while i < speedArcs.count || j < closedArcs.count {
            let a = i < speedArcs.count ? Int(speedArcs[i]) : Int.max, b = j < closedArcs.count ? Int(closedArcs[j]) : Int.max
            let arc = min(a, b)
            var e = Entry(arc: arc, ms: 0, expiry: 0, closedUntil: 0)
            if a == arc { e.ms = speedMs[i]; e.expiry = speedExpiry[i]; i += 1 }
            if b == arc { e.closedUntil = closedUntil[j]; j += 1 }
            out.append(e)
        }
        return out
    }
}
