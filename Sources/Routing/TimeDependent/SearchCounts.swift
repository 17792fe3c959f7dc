/// What time-dependent searches did, summed over their solves: enough to tell why one query
/// took longer than another (more labels settled, more arcs relaxed, more potentials asked).
public struct SearchCounts: Sendable, Equatable {
    /// Labels taken off the heap.
    public var settled = 0
    /// Turns followed out of settled labels (each one a travel-time evaluation unless skipped).
    public var relaxed = 0
    /// Lower-bound potentials asked for (each may climb the hierarchy on a memo miss).
    public var potentialCalls = 0
    /// Labels not queued because their key reached the upper bound.
    public var pruned = 0

    public init() {}

    /// Sums of running totals, and what was done between two readings of them.
    public static func += (a: inout SearchCounts, b: SearchCounts) { a = a.combined(with: b, +) }
    public static func - (a: SearchCounts, b: SearchCounts) -> SearchCounts { a.combined(with: b, -) }

    /// Every count of this and `b` put together by `op`.
    func combined(with b: SearchCounts, _ op: (Int, Int) -> Int) -> SearchCounts {
        var c = SearchCounts()
        c.settled = op(settled, b.settled)
        c.relaxed = op(relaxed, b.relaxed)
        c.potentialCalls = op(potentialCalls, b.potentialCalls)
        c.pruned = op(pruned, b.pruned)
        return c
    }
}
