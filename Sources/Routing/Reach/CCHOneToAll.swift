public import RoadNetwork

/// Memory for one-to-all sweeps over a hierarchy (one per thread): a metric label and a measure
/// label per node, and the selection of nodes a restricted sweep visits.
public final class OneToAllScratch: @unchecked Sendable {
    let n: Int
    let primary: UnsafeMutablePointer<UInt32>
    let measure: UnsafeMutablePointer<UInt32>
    let selected: UnsafeMutablePointer<UInt8>
    /// The selected nodes in decreasing rank (the sweep order) and how many there are.
    let sweep: UnsafeMutablePointer<Int32>
    var sweepCount = 0
    let chain: UnsafeMutablePointer<Int32>

    public init(nodeCount: Int) {
        n = max(1, nodeCount)
        primary = .allocate(capacity: n)
        measure = .allocate(capacity: n)
        selected = .allocate(capacity: n)
        selected.initialize(repeating: 0, count: n)
        sweep = .allocate(capacity: n)
        chain = .allocate(capacity: n)
    }

    deinit {
        primary.deallocate(); measure.deallocate(); selected.deallocate(); sweep.deallocate(); chain.deallocate()
    }
}

/// One-to-all shortest paths on a customized hierarchy: PHAST (Delling, Goldberg, Nowatzyk,
/// Werneck). An upward search from the start walks its elimination-tree ancestors; a sweep over
/// the nodes in decreasing rank then settles every node from its upward neighbours, which are
/// already final — one linear pass, no priority queue. RPHAST restricts the sweep to a set of
/// target nodes and their ancestors (in a CCH a node's upward neighbours are all its ancestors,
/// so that set is closed).
///
/// Labels are compared lexicographically (metric, measure), so the measure of each node is that
/// of the route the metric chooses. Forward sweeps give, per node (= graph arc), the cost from
/// the start to the arc's end; backward sweeps the cost from the arc's end to the target.
public struct CCHOneToAll {
    public let measure: CCHMeasure
    let scratch: OneToAllScratch
    static let unreached = CCHScratch.unreached

    public init(measure: CCHMeasure, scratch: OneToAllScratch? = nil) {
        self.measure = measure
        self.scratch = scratch ?? OneToAllScratch(nodeCount: measure.metric.structure.nodeCount)
    }

    public struct Start: Sendable {
        /// The graph arc (a node of the hierarchy) and its labels.
        public var arc: ArcID
        public var primary: UInt32
        public var measure: UInt32
        public init(arc: ArcID, primary: UInt32, measure: UInt32) { self.arc = arc; self.primary = primary; self.measure = measure }
    }

    /// Selects the nodes to settle: `arcs` and all their ancestors (nil selects every node).
    public mutating func select(_ arcs: [ArcID]?) {
        let s = scratch, st = measure.metric.structure
        let n = st.nodeCount
        s.selected.update(repeating: 0, count: s.n)
        guard let arcs else {
            for i in 0..<n { s.sweep[i] = Int32(n - 1 - i) }
            s.sweepCount = n
            s.selected.update(repeating: 1, count: n)
            return
        }
        let firstOut = st.upFirstOut, head = st.upHead
        var count = 0
        for arc in arcs {
            var v = Int(st.rank[arc.index])
            while s.selected[v] == 0 {
                s.selected[v] = 1
                count += 1
                let first = Int(firstOut[v])
                guard first < Int(firstOut[v + 1]) else { break }
                v = Int(head[first])
            }
        }
        var i = 0
        for v in stride(from: n - 1, through: 0, by: -1) where s.selected[v] != 0 {
            s.sweep[i] = Int32(v)
            i += 1
        }
        s.sweepCount = count
    }

    /// Runs the sweep from `starts` over the selected nodes (select first); `forward` false runs it
    /// towards the starts (costs to reach them).
    public mutating func run(_ starts: [Start], forward: Bool) {
        let s = scratch, st = measure.metric.structure, cch = measure.metric
        let unreached = Self.unreached
        let p = s.primary, m = s.measure
        for i in 0..<s.sweepCount {
            let v = Int(s.sweep[i])
            p[v] = unreached
            m[v] = unreached
        }
        let firstOut = st.upFirstOut, head = st.upHead
        // Upward: the starts' chains, in increasing rank, with the weights leaving upwards. Each
        // node joins the chain once (marked in `selected`'s second bit while the chains are
        // walked): chains of several starts share their upper part, and on a small hierarchy their
        // lengths together can exceed the node count the chain's memory holds.
        var chainCount = 0
        for start in starts {
            let v = Int(st.rank[start.arc.index])
            precondition(s.selected[v] != 0, "a start must be selected")
            let pv = min(start.primary, unreached - 1)
            if pv < p[v] || (pv == p[v] && start.measure < m[v]) {
                p[v] = pv
                m[v] = min(start.measure, unreached - 1)
            }
            var u = v
            while s.selected[u] & 2 == 0 {
                s.selected[u] |= 2
                s.chain[chainCount] = Int32(u)
                chainCount += 1
                let first = Int(firstOut[u])
                guard first < Int(firstOut[u + 1]) else { break }
                u = Int(head[first])
            }
        }
        var chain = UnsafeMutableBufferPointer(start: s.chain, count: chainCount)
        for v in chain { s.selected[Int(v)] &= 1 }
        chain.sort()
        let upP = forward ? cch.up : cch.down, upM = forward ? measure.up : measure.down
        for v32 in chain {
            let v = Int(v32)
            let d = p[v], dm = m[v]
            if d >= unreached { continue }
            for k in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                let h = Int(head[k])
                let nd = d &+ min(upP[k], unreached), nm = dm &+ min(upM[k], unreached)
                if nd < p[h] || (nd == p[h] && nm < m[h]) { p[h] = nd; m[h] = nm }
            }
        }
        // Downward: every selected node from its (already final) upward neighbours.
        let downP = forward ? cch.down : cch.up, downM = forward ? measure.down : measure.up
        for i in 0..<s.sweepCount {
            let v = Int(s.sweep[i])
            var bp = p[v], bm = m[v]
            for k in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                let u = Int(head[k])
                let nd = p[u] &+ min(downP[k], unreached)
                if nd <= bp {
                    let nm = m[u] &+ min(downM[k], unreached)
                    if nd < bp || nm < bm { bp = nd; bm = nm }
                }
            }
            p[v] = bp
            m[v] = bm
        }
    }

    /// The labels of a graph arc after `run`: (metric, measure), nil when not reached or not selected.
    @inline(__always)
    public func label(_ arc: ArcID) -> (primary: UInt32, measure: UInt32)? {
        let v = Int(measure.metric.structure.rank[arc.index])
        guard scratch.selected[v] != 0, scratch.primary[v] < Self.unreached else { return nil }
        return (scratch.primary[v], scratch.measure[v])
    }

    /// Calls `body` for every reached graph arc with its labels.
    public func forEachReached(_ body: (ArcID, UInt32, UInt32) -> Void) {
        let s = scratch, order = measure.metric.structure.order
        for i in 0..<s.sweepCount {
            let v = Int(s.sweep[i])
            if s.primary[v] < Self.unreached { body(order[v], s.primary[v], s.measure[v]) }
        }
    }
}
