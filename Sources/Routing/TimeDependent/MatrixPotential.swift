public import RoadNetwork

/// A* potentials for the rows (or columns) of one time-dependent matrix: for every arc a lower
/// bound on the time between it and the nearest of the matrix's other ends, from one plain
/// Dijkstra over lower-bound weights, made once per matrix and shared by all its rows.
///
/// Forward (rows), the milliseconds from the end of an arc to the nearest destination point;
/// backward (columns), from the nearest origin point to the start of an arc. On the ends' own
/// arcs the value is 0, so that they are settled whatever lies beyond them. An arc from (or to)
/// which no end can be reached is `unreachable`: the search never labels it.
///
/// Consistent: across a turn u → v (cost c ≥ turn + lb(v)) the bound drops by at most c, which is
/// what keeps the label-setting searches exact. One bound for the whole matrix rather than one
/// per row keeps it cheap (one pass over the graph per matrix, one more column read per
/// relaxation). What it prunes are the labels whose time plus their bound passes the row's
/// farthest cell: much of the map when the ends are few or close together (a few points on a
/// country's graph, deliveries within one town), little when they are spread like the roads
/// themselves (100 random points on Porto: every row still reaches most of the map before its
/// farthest cell, so there the rows cost about what plain Dijkstras cost).
public final class MatrixPotential: @unchecked Sendable {
    public static let unreachable = UInt32.max
    /// Milliseconds per arc (read-only once made; a pointer, so that the searches' inner loop reads
    /// it without an array's checks).
    let ms: UnsafeMutablePointer<UInt32>
    let count: Int

    init(_ values: [UInt32]) {
        count = values.count
        ms = .allocate(capacity: max(1, count))
        values.withUnsafeBufferPointer { if let base = $0.baseAddress { ms.initialize(from: base, count: count) } }
    }

    deinit { ms.deallocate() }

    /// The bound of one arc.
    public subscript(arc: Int) -> UInt32 { ms[arc] }

    /// Rows: to the nearest of `destinations` (on any restriction copy of their arcs).
    public static func towards(_ destinations: [[ArcPosition]], graph: RoadGraph, bound: LowerBound, heap: LabelHeap) -> MatrixPotential {
        var pi = [UInt32](repeating: unreachable, count: graph.arcCount)
        heap.reset()
        for q in destinations.joined() {
            let original = graph.arcOriginal[q.arc.index]
            for arc in [original] + (graph.restrictionCopies[original] ?? []) {
                pi[arc.index] = 0
                heap.push(arc.index, key: UInt32((Double(bound.arcWeight[arc.index]) * q.fraction).rounded(.down)), label: 0, parent: LabelHeap.noParent)
            }
        }
        let first = graph.turnReverseFirst, turns = graph.turnReverseTurn, source = graph.turnSource, duration = graph.turnDurationMs
        // Popped in order of the bound from an arc's start; an arc's own value (from its end) is the
        // least over the turns leaving it, which are all popped before the search runs dry.
        while let (x, fromStart) = heap.popMin() {
            for i in Int(first[x])..<Int(first[x + 1]) {
                let t = Int(turns[i]), v = source[t].index
                let candidate = Metric.add(fromStart, duration[t])
                guard candidate < pi[v] else { continue }
                pi[v] = candidate
                if !heap.isSettled(v) { heap.push(v, key: key(candidate, bound.arcWeight[v]), label: 0, parent: LabelHeap.noParent) }
            }
        }
        return MatrixPotential(pi)
    }

    /// Columns: from the nearest of `origins`.
    public static func from(_ origins: [[ArcPosition]], graph: RoadGraph, bound: LowerBound, heap: LabelHeap) -> MatrixPotential {
        var sigma = [UInt32](repeating: unreachable, count: graph.arcCount)
        heap.reset()
        for p in origins.joined() {
            let a = p.arc.index
            sigma[a] = 0
            heap.push(a, key: UInt32((Double(bound.arcWeight[a]) * (1 - p.fraction)).rounded(.down)), label: 0, parent: LabelHeap.noParent)
        }
        let first = graph.turnFirstOut, target = graph.turnTarget, duration = graph.turnDurationMs
        // Popped in order of the bound to an arc's end; an arc's own value (to its start) is the
        // least over the turns entering it.
        while let (u, toEnd) = heap.popMin() {
            for t in Int(first[u])..<Int(first[u + 1]) {
                let v = target[t].index
                let candidate = Metric.add(toEnd, duration[t])
                guard candidate < sigma[v] else { continue }
                sigma[v] = candidate
                if !heap.isSettled(v) { heap.push(v, key: key(candidate, bound.arcWeight[v]), label: 0, parent: LabelHeap.noParent) }
            }
        }
        return MatrixPotential(sigma)
    }

    /// A heap key below the heap's mark for settled entries.
    @inline(__always) static func key(_ a: UInt32, _ b: UInt32) -> UInt32 { min(UInt32.max - 1, Metric.add(a, b)) }
}
