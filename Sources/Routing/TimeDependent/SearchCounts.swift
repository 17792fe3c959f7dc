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

    public static func += (a: inout SearchCounts, b: SearchCounts) {
        a.settled += b.settled
        a.relaxed += b.relaxed
        a.potentialCalls += b.potentialCalls
        a.pruned += b.pruned
    }

    public static func - (a: SearchCounts, b: SearchCounts) -> SearchCounts {
        var d = a
        d.settled -= b.settled
        d.relaxed -= b.relaxed
        d.potentialCalls -= b.potentialCalls
        d.pruned -= b.pruned
        return d
    }
}
