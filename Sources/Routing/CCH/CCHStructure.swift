public import RoadNetwork
public import BinaryIO

/// The metric-independent part of the Customizable Contraction Hierarchy: the order and the
/// chordal supergraph ("upward" arcs) that contracting the turn graph in that order produces.
///
/// Nodes are addressed by rank. Each CCH arc joins a lower rank to a higher one and carries two
/// weights after customization (up: low → high, down: high → low). `turnArc` maps every turn
/// of the road graph to the CCH arc it lies on, so customization starts with one flat loop.
public struct CCHStructure: @unchecked Sendable {
    public let rank: UnsafeBufferPointer<UInt32>
    public let order: UnsafeBufferPointer<ArcID>
    public let upFirstOut: UnsafeBufferPointer<UInt32>
    public let upHead: UnsafeBufferPointer<UInt32>
    /// `cchArc << 1 | 1` when the turn runs from the higher-ranked arc to the lower one.
    public let turnArc: UnsafeBufferPointer<UInt32>
    let store: ColumnSet
    /// The same arcs listed by their higher end (for finding a shortcut's middle node).
    public let downward: DownwardArcs

    public var nodeCount: Int { order.count }
    public var arcCount: Int { upHead.count }

    public init(store: ColumnSet, mode: TravelMode) throws(ColumnSetError) {
        self.store = store
        let p = mode.rawValue + ".cch."
        rank = try store.column(p + "rank")
        order = try store.column(p + "order")
        upFirstOut = try store.column(p + "upFirstOut")
        upHead = try store.column(p + "upHead")
        turnArc = try store.column(p + "turnArc")
        downward = DownwardArcs(upFirstOut: upFirstOut, upHead: upHead)
    }

    public static func hasColumns(_ store: ColumnSet, mode: TravelMode) -> Bool {
        store.contains(mode.rawValue + ".cch.rank")
    }

    /// The parent in the elimination tree (the lowest upward neighbour), or nil at a root.
    @inlinable
    public func parent(_ v: Int) -> Int? {
        let first = Int(upFirstOut[v])
        return first < Int(upFirstOut[v + 1]) ? Int(upHead[first]) : nil
    }

    /// The CCH arc from `lower` to `higher` (binary search in `lower`'s sorted upward arcs).
    @inlinable
    public func arc(from lower: Int, to higher: Int) -> Int? {
        var lo = Int(upFirstOut[lower]), hi = Int(upFirstOut[lower + 1])
        let target = UInt32(higher)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if upHead[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo < Int(upFirstOut[lower + 1]) && upHead[lo] == target ? lo : nil
    }

    /// Contracts the turn graph in `order` and adds the result's columns to `out`.
    ///
    /// Each node's upward neighbours are final once every lower node is done; they are merged into
    /// its elimination-tree parent (the lowest of them), which is all chordal completion needs.
    /// - Complexity: O(m' log m') for m' CCH arcs.
    public static func build(graph: RoadGraph, order: [ArcID], into out: inout ColumnSetBuilder) {
        let n = graph.arcCount
        var rank = [UInt32](repeating: 0, count: n)
        for (r, a) in order.enumerated() { rank[a.index] = UInt32(r) }
        var up = [[UInt32]](repeating: [], count: n)
        for a in 0..<n {
            let ra = rank[a]
            for t in graph.turns(from: ArcID(a)) {
                let rb = rank[graph.turnTarget[t].index]
                if ra < rb { up[Int(ra)].append(rb) } else if rb < ra { up[Int(rb)].append(ra) }
            }
        }
        var firstOut = [UInt32](repeating: 0, count: n + 1)
        var heads: [UInt32] = []
        heads.reserveCapacity(n * 4)
        for v in 0..<n {
            var list = up[v]
            up[v] = []
            list.sort()
            var unique: [UInt32] = []
            unique.reserveCapacity(list.count)
            for x in list where unique.last != x { unique.append(x) }
            if let parent = unique.first {
                up[Int(parent)].append(contentsOf: unique.dropFirst())
            }
            heads.append(contentsOf: unique)
            firstOut[v + 1] = UInt32(heads.count)
        }
        var turnArc = [UInt32](repeating: 0, count: graph.turnCount)
        for a in 0..<n {
            let ra = Int(rank[a])
            for t in graph.turns(from: ArcID(a)) {
                let rb = Int(rank[graph.turnTarget[t].index])
                let (lo, hi, down) = ra < rb ? (ra, rb, 0) : (rb, ra, 1)
                var l = Int(firstOut[lo]), h = Int(firstOut[lo + 1])
                while l < h {
                    let mid = (l + h) >> 1
                    if heads[mid] < UInt32(hi) { l = mid + 1 } else { h = mid }
                }
                turnArc[t] = ra == rb ? UInt32.max : UInt32(l) << 1 | UInt32(down)
            }
        }
        let p = graph.mode.rawValue + ".cch."
        out.add(p + "rank", rank)
        out.add(p + "order", order)
        out.add(p + "upFirstOut", firstOut)
        out.add(p + "upHead", heads)
        out.add(p + "turnArc", turnArc)
    }
}

/// The CCH arcs by their higher end: for each node, its lower neighbours in increasing rank with
/// the arc to each. Built when a hierarchy is opened (a counting sort, a few milliseconds) rather
/// than stored, so datasets need not change.
public final class DownwardArcs: @unchecked Sendable {
    let firstIn: UnsafeMutableBufferPointer<UInt32>
    /// The lower end of each listed arc, and the arc's index among the upward arcs.
    let tail: UnsafeMutableBufferPointer<UInt32>
    let arc: UnsafeMutableBufferPointer<UInt32>

    init(upFirstOut: UnsafeBufferPointer<UInt32>, upHead: UnsafeBufferPointer<UInt32>) {
        let n = max(0, upFirstOut.count - 1), m = upHead.count
        firstIn = .allocate(capacity: n + 1)
        firstIn.initialize(repeating: 0)
        tail = .allocate(capacity: max(1, m))
        arc = .allocate(capacity: max(1, m))
        for k in 0..<m { firstIn[Int(upHead[k]) + 1] += 1 }
        if n > 0 { for v in 0..<n { firstIn[v + 1] += firstIn[v] } }
        var fill = Array(firstIn)
        // Tails come in increasing order, so every list ends up sorted.
        for v in 0..<n {
            for k in Int(upFirstOut[v])..<Int(upFirstOut[v + 1]) {
                let h = Int(upHead[k])
                let slot = Int(fill[h])
                tail[slot] = UInt32(v)
                arc[slot] = UInt32(k)
                fill[h] += 1
            }
        }
    }

    deinit { firstIn.deallocate(); tail.deallocate(); arc.deallocate() }

    /// Positions in `tail`/`arc` of the arcs into `v`.
    @inline(__always)
    func arcs(into v: Int) -> Range<Int> { Int(firstIn[v])..<Int(firstIn[v + 1]) }

    /// Calls `body(u, arc u–lower, arc u–higher)` for every common lower neighbour u of two nodes
    /// (the lower triangles of the arc between them), in increasing rank, until it returns false.
    /// Merges the two sorted lists, galloping through the higher node's, which is often far longer.
    @inline(__always)
    func forEachCommonTail(_ lower: Int, _ higher: Int, _ body: (Int, Int, Int) -> Bool) {
        let lowerArcs = arcs(into: lower), higherArcs = arcs(into: higher)
        var i = lowerArcs.lowerBound, j = higherArcs.lowerBound
        while i < lowerArcs.upperBound && j < higherArcs.upperBound {
            let a = tail[i], b = tail[j]
            if a < b { i += 1; continue }
            if b < a {
                var step = 1, hi = j + 1
                while hi < higherArcs.upperBound && tail[hi] < a { j = hi; step <<= 1; hi = j + step }
                hi = min(hi, higherArcs.upperBound)
                var lo = j + 1
                while lo < hi { let mid = (lo + hi) >> 1; if tail[mid] < a { lo = mid + 1 } else { hi = mid } }
                j = lo
                continue
            }
            if !body(Int(a), Int(arc[i]), Int(arc[j])) { return }
            i += 1; j += 1
        }
    }
}

extension CCHStructure {
    /// Orders, contracts and freezes a hierarchy for `graph` in memory (tests, small maps).
    public static func make(for graph: RoadGraph) -> CCHStructure {
        var out = ColumnSetBuilder()
        build(graph: graph, order: NestedDissection.order(graph), into: &out)
        // The columns were just built, so reading them back cannot fail.
        return try! CCHStructure(store: out.freeze(), mode: graph.mode)
    }
}
