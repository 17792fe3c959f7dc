public import RoadNetwork
public import BinaryIO
import Deflate

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
    /// The free-flow fastest metric, customized at import (nil in datasets without it).
    public let storedWeights: StoredWeights?

    public var nodeCount: Int { order.count }
    public var arcCount: Int { upHead.count }

    public let mode: TravelMode

    public init(store: ColumnSet, mode: TravelMode) throws(ColumnSetError) {
        self.store = store
        self.mode = mode
        let p = mode.rawValue + ".cch."
        rank = try store.column(p + "rank")
        order = try store.column(p + "order")
        upFirstOut = try store.column(p + "upFirstOut")
        upHead = try store.column(p + "upHead")
        turnArc = try store.column(p + "turnArc")
        downward = try DownwardArcs(store: store, prefix: p)
        storedWeights = try StoredWeights(store: store, prefix: p, arcCount: upHead.count)
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
    /// Each node's upward neighbours are final once every lower node is done: they are its own
    /// upward turns plus the upward neighbours of its children in the elimination tree (the nodes
    /// whose lowest upward neighbour it is), which is all chordal completion needs. Lists are read
    /// from the finished part of the flat result, so no node holds a list of its own.
    /// - Complexity: O(m' log m') for m' CCH arcs; memory: the result plus O(n + turns).
    public static func build(graph: RoadGraph, order: [ArcID], into out: inout some ColumnSink) {
        let n = graph.arcCount
        var rank = [UInt32](repeating: 0, count: n)
        for (r, a) in order.enumerated() { rank[a.index] = UInt32(r) }
        // Each turn once, at its lower end (CSR by rank).
        var turnFirst = [UInt32](repeating: 0, count: n + 1)
        for a in 0..<n {
            let ra = rank[a]
            for t in graph.turns(from: ArcID(a)) {
                let rb = rank[graph.turnTarget[t].index]
                if ra != rb { turnFirst[Int(min(ra, rb)) + 1] += 1 }
            }
        }
        for v in 0..<n { turnFirst[v + 1] += turnFirst[v] }
        var fill = turnFirst
        var turnHigher = [UInt32](repeating: 0, count: Int(turnFirst[n]))
        for a in 0..<n {
            let ra = rank[a]
            for t in graph.turns(from: ArcID(a)) {
                let rb = rank[graph.turnTarget[t].index]
                guard ra != rb else { continue }
                let lo = Int(min(ra, rb))
                turnHigher[Int(fill[lo])] = max(ra, rb)
                fill[lo] += 1
            }
        }
        fill = []
        // Children in the elimination tree, as linked lists (first child, next sibling).
        var firstChild = [Int32](repeating: -1, count: n), nextSibling = [Int32](repeating: -1, count: n)
        var firstOut = [UInt32](repeating: 0, count: n + 1)
        var heads: [UInt32] = []
        heads.reserveCapacity(n * 4)
        var list: [UInt32] = []
        for v in 0..<n {
            list.removeAll(keepingCapacity: true)
            list.append(contentsOf: turnHigher[Int(turnFirst[v])..<Int(turnFirst[v + 1])])
            var c = firstChild[v]
            while c >= 0 {
                // A child's neighbours above v (its first one is v itself).
                list.append(contentsOf: heads[(Int(firstOut[Int(c)]) + 1)..<Int(firstOut[Int(c) + 1])])
                c = nextSibling[Int(c)]
            }
            list.sort()
            var last = UInt32.max
            for x in list where x != last {
                heads.append(x)
                last = x
            }
            firstOut[v + 1] = UInt32(heads.count)
            if firstOut[v + 1] > firstOut[v] {
                let parent = Int(heads[Int(firstOut[v])])
                nextSibling[v] = firstChild[parent]
                firstChild[parent] = Int32(v)
            }
        }
        turnFirst = []
        turnHigher = []
        firstChild = []
        nextSibling = []
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
        rank = []
        out.add(p + "order", order)
        out.add(p + "turnArc", turnArc)
        turnArc = []
        DownwardArcs.columns(upFirstOut: firstOut, upHead: heads, into: &out, prefix: p)
        out.add(p + "upFirstOut", firstOut)
        out.add(p + "upHead", heads)
    }
}

/// Customized weights kept with a hierarchy, and the checksum of the turn weights they were
/// customized from: a metric uses them only when its own turn weights have the same checksum.
public struct StoredWeights: @unchecked Sendable {
    let up: UnsafeBufferPointer<UInt32>
    let down: UnsafeBufferPointer<UInt32>
    /// [turn count, CRC-32 of the turn weights]
    let source: UnsafeBufferPointer<UInt32>

    init?(store: ColumnSet, prefix p: String, arcCount: Int) throws(ColumnSetError) {
        guard store.contains(p + "stored.up") else { return nil }
        up = try store.column(p + "stored.up")
        down = try store.column(p + "stored.down")
        source = try store.column(p + "stored.source")
        guard up.count == arcCount, down.count == arcCount, source.count == 2 else {
            throw .damaged(p + "stored", "stored weights do not fit the hierarchy")
        }
    }

    func matches(_ turnWeight: [UInt32]) -> Bool {
        turnWeight.count == Int(source[0]) && Self.checksum(turnWeight) == source[1]
    }

    static func checksum(_ turnWeight: [UInt32]) -> UInt32 {
        turnWeight.withUnsafeBytes { CRC32.checksum($0) }
    }

    /// Writes `metric`'s weights as the stored ones of its hierarchy.
    public static func columns(_ metric: CCHMetric, turnWeight: [UInt32], into out: inout some ColumnSink) {
        let p = metric.structure.mode.rawValue + ".cch."
        let m = metric.structure.arcCount
        out.add(p + "stored.up", UnsafeBufferPointer(rebasing: metric.up[0..<m]))
        out.add(p + "stored.down", UnsafeBufferPointer(rebasing: metric.down[0..<m]))
        out.add(p + "stored.source", [UInt32(turnWeight.count), checksum(turnWeight)])
    }
}

/// The CCH arcs by their higher end: for each node, its lower neighbours in increasing rank (for
/// finding a shortcut's middle). Made at import and memory-mapped, so a server holds only the
/// pages its unpacking touches; the arc to a listed neighbour is found again in that neighbour's
/// sorted upward list, which costs a binary search and saves 4 bytes per arc.
public struct DownwardArcs: @unchecked Sendable {
    let firstIn: UnsafeBufferPointer<UInt32>
    /// The lower end of each listed arc.
    let tail: UnsafeBufferPointer<UInt32>

    init(store: ColumnSet, prefix p: String) throws(ColumnSetError) {
        firstIn = try store.column(p + "downFirstIn")
        tail = try store.column(p + "downTail")
    }

    static func columns(upFirstOut: [UInt32], upHead: [UInt32], into out: inout some ColumnSink, prefix p: String) {
        let n = max(0, upFirstOut.count - 1), m = upHead.count
        var firstIn = [UInt32](repeating: 0, count: n + 1)
        for k in 0..<m { firstIn[Int(upHead[k]) + 1] += 1 }
        for v in 0..<n { firstIn[v + 1] += firstIn[v] }
        var fill = firstIn
        var tail = [UInt32](repeating: 0, count: m)
        // Tails come in increasing order, so every list ends up sorted.
        for v in 0..<n {
            for k in Int(upFirstOut[v])..<Int(upFirstOut[v + 1]) {
                let h = Int(upHead[k])
                tail[Int(fill[h])] = UInt32(v)
                fill[h] += 1
            }
        }
        out.add(p + "downFirstIn", firstIn)
        out.add(p + "downTail", tail)
    }

    /// Positions in `tail` of the arcs into `v`.
    @inline(__always)
    func arcs(into v: Int) -> Range<Int> { Int(firstIn[v])..<Int(firstIn[v + 1]) }
}

extension CCHStructure {
    /// Calls `body(u, arc u–lower, arc u–higher)` for every common lower neighbour u of two nodes
    /// (the lower triangles of the arc between them), in increasing rank, until it returns false.
    /// The arcs are found again in u's upward list (binary searches; no arc column is stored).
    /// Merges the two sorted lists, galloping through the higher node's, which is often far longer.
    @inline(__always)
    func forEachCommonTail(_ lower: Int, _ higher: Int, _ body: (Int, Int, Int) -> Bool) {
        let lowerArcs = downward.arcs(into: lower), higherArcs = downward.arcs(into: higher)
        let tail = downward.tail
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
            // a is a lower neighbour of both ends, so both arcs are in its sorted upward list.
            let toLower = arc(from: Int(a), to: lower)!, toHigher = arc(from: Int(a), to: higher)!
            if !body(Int(a), toLower, toHigher) { return }
            i += 1; j += 1
        }
    }

    /// Orders, contracts and freezes a hierarchy for `graph` in memory (tests, small maps).
    public static func make(for graph: RoadGraph) -> CCHStructure {
        var out = ColumnSetBuilder()
        build(graph: graph, order: NestedDissection.order(graph), into: &out)
        // The columns were just built, so reading them back cannot fail.
        return try! CCHStructure(store: out.freeze(), mode: graph.mode)
    }
}
