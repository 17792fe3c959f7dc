public import RoadNetwork

/// Exact lower-bound distances to (or from) a set of targets, evaluated lazily on a CCH
/// customized with lower-bound weights: CH-Potentials (Strasser & Zeitz 2021).
///
/// `prepare` runs one elimination-tree search from the targets; `value(arc)` then follows upward
/// arcs with memoization: π(v) = min(b(v), min over upward arcs v→y of w(v, y) + π(y)).
/// Used as A* potentials, these make time-dependent searches settle only the corridor of the
/// route instead of a whole disc.
public final class CCHPotential: @unchecked Sendable {
    public let metric: CCHMetric
    /// True: distances *to* the targets (forward searches). False: distances *from* the sources
    /// (backward searches), using the opposite arc weights.
    public let towardsTargets: Bool
    let base: UnsafeMutablePointer<UInt32>, baseStamp: UnsafeMutablePointer<UInt32>
    let memo: UnsafeMutablePointer<UInt32>, memoStamp: UnsafeMutablePointer<UInt32>
    var generation: UInt32 = 0
    var chain: [Int32] = []
    let n: Int
    // The hierarchy's columns, held directly so the recursion touches no reference counts.
    let rank: UnsafeBufferPointer<UInt32>
    let upFirstOut: UnsafeBufferPointer<UInt32>
    let upHead: UnsafeBufferPointer<UInt32>
    /// Weights used when climbing from a node (`up` towards targets, `down` from sources).
    let climb: UnsafeMutableBufferPointer<UInt32>
    static let infinity = UInt32.max

    public init(metric: CCHMetric, towardsTargets: Bool) {
        self.metric = metric
        self.towardsTargets = towardsTargets
        n = max(1, metric.structure.nodeCount)
        base = .allocate(capacity: n); baseStamp = .allocate(capacity: n)
        memo = .allocate(capacity: n); memoStamp = .allocate(capacity: n)
        baseStamp.initialize(repeating: 0, count: n)
        memoStamp.initialize(repeating: 0, count: n)
        rank = metric.structure.rank
        upFirstOut = metric.structure.upFirstOut
        upHead = metric.structure.upHead
        climb = towardsTargets ? metric.up : metric.down
    }

    deinit { base.deallocate(); baseStamp.deallocate(); memo.deallocate(); memoStamp.deallocate() }

    /// Starts a new set of targets: `starts` are (arc, lower-bound offset) pairs — for forward
    /// searches the arcs whose end leads into a target with the cost still to go; for backward
    /// searches the source arcs with their lower-bound cost to reach their end.
    public func prepare(_ starts: [(arc: ArcID, offset: UInt32)]) {
        generation &+= 1
        if generation == 0 {
            baseStamp.update(repeating: 0, count: n)
            memoStamp.update(repeating: 0, count: n)
            generation = 1
        }
        let s = metric.structure
        var nodes: [Int] = []
        for (arc, offset) in starts {
            let v = Int(s.rank[arc.index])
            if baseStamp[v] != generation { baseStamp[v] = generation; base[v] = offset; nodes.append(v) } else if offset < base[v] { base[v] = offset }
        }
        // Elimination-tree search from the starts, in rank order.
        chain.removeAll(keepingCapacity: true)
        nodes.sort()
        for start in nodes {
            var v = start
            while true {
                if baseStamp[v] != generation { baseStamp[v] = generation; base[v] = Self.infinity }
                if memoStamp[v] == generation { break }
                memoStamp[v] = generation  // temporarily: "on chain"
                chain.append(Int32(v))
                guard let p = s.parent(v) else { break }
                v = p
            }
        }
        chain.sort()
        let firstOut = s.upFirstOut, head = s.upHead
        for v32 in chain {
            let v = Int(v32)
            let d = base[v]
            if d == Self.infinity { continue }
            for k in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                let w = towardsTargets ? metric.down[k] : metric.up[k]
                if w == CCHMetric.infinity { continue }
                let y = Int(head[k])
                let nd = CCHMetric.sum(d, w)
                if nd < base[y] { base[y] = nd }
            }
        }
        // Now start the memo afresh (the chain marks used memoStamp).
        generation &+= 1
        if generation == 0 { baseStamp.update(repeating: 0, count: n); memoStamp.update(repeating: 0, count: n); generation = 1 }
        for v32 in chain { baseStamp[Int(v32)] = generation }
        for (arc, _) in starts { baseStamp[Int(s.rank[arc.index])] = generation }
    }

    /// The lower bound for `arc` (infinity when no target can be reached).
    @inline(__always)
    public func value(_ arc: ArcID) -> UInt32 {
        // The generation is read once here: a class's `var` costs a dynamic exclusivity check on
        // every access, and the recursion below makes millions per query.
        let g = generation
        let v = Int(rank[arc.index])
        if memoStamp[v] == g { return memo[v] }
        return Self.value(rank: v, generation: g, memo: memo, memoStamp: memoStamp, base: base, baseStamp: baseStamp,
                          firstOut: upFirstOut, head: upHead, climb: climb)
    }

    static func value(rank v: Int, generation g: UInt32, memo: UnsafeMutablePointer<UInt32>, memoStamp: UnsafeMutablePointer<UInt32>,
                      base: UnsafeMutablePointer<UInt32>, baseStamp: UnsafeMutablePointer<UInt32>, firstOut: UnsafeBufferPointer<UInt32>,
                      head: UnsafeBufferPointer<UInt32>, climb: UnsafeMutableBufferPointer<UInt32>) -> UInt32 {
        if memoStamp[v] == g { return memo[v] }
        var result = baseStamp[v] == g ? base[v] : Self.infinity
        let end = Int(firstOut[v + 1])
        var k = Int(firstOut[v])
        while k < end {
            let w = climb[k]
            if w != CCHMetric.infinity {
                let y = Int(head[k])
                let p = memoStamp[y] == g ? memo[y] : value(rank: y, generation: g, memo: memo, memoStamp: memoStamp, base: base,
                                                          baseStamp: baseStamp, firstOut: firstOut, head: head, climb: climb)
                if p != Self.infinity {
                    let (sum, overflow) = w.addingReportingOverflow(p)
                    if !overflow && sum < result { result = sum }
                }
            }
            k += 1
        }
        memoStamp[v] = g
        memo[v] = result
        return result
    }
}
