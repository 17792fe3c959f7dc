public import RoadNetwork

/// One leg's shortest-path problem on the turn-expanded graph: several start states with the
/// cost already spent to reach them, and several end positions.
public struct LegProblem: Sendable {
    /// An arc position to start from, with the cost accumulated before it (earlier legs).
    public struct Source: Sendable {
        public var position: ArcPosition
        public var cost: UInt32
        /// The part of `cost` that is not time spent driving (ordering extras of earlier legs:
        /// avoidance penalties, the restricted-entry charge): a time-dependent search starts the
        /// clock at `cost - extraMs`.
        public var extraMs: UInt32
        public init(position: ArcPosition, cost: UInt32, extraMs: UInt32 = 0) {
            self.position = position
            self.cost = cost
            self.extraMs = extraMs
        }

        /// Milliseconds driven before this source.
        public var elapsedMs: UInt32 { cost - min(cost, extraMs) }
    }

    public var sources: [Source]
    public var targets: [ArcPosition]
    /// How much costlier than the best target's a target may be and still be needed (nil: every
    /// target's best path is). A search may leave a target beyond that unanswered, which lets it
    /// prune with an upper bound of the best target's cost.
    public var slack: UInt32?

    public init(sources: [Source], targets: [ArcPosition], slack: UInt32? = nil) {
        self.sources = sources
        self.targets = targets
        self.slack = slack
    }
}

/// The best way found to each target of a `LegProblem` (nil where unreachable).
public struct LegSolution: Sendable {
    public struct Path: Sendable {
        /// Total cost at the target position, including the sources' costs.
        public var cost: UInt32
        /// Which source it started from.
        public var source: Int
        /// Arcs from the source's arc to the target's arc (a restriction copy stands for its original).
        public var arcs: [ArcID]
        /// The part of `cost` that is not time spent driving (time-dependent searches; 0 otherwise).
        public var extraMs: UInt32 = 0
    }

    public var paths: [Path?]
}

/// A shortest-path algorithm that can solve a leg: plain Dijkstra, the contraction hierarchy,
/// or a time-dependent search. The route planner only talks to this.
public protocol LegSearch {
    mutating func solve(_ problem: LegProblem) -> LegSolution
}

extension LegProblem {
    /// Paths that stay on one arc: start and end on the same arc with the end further along.
    func sameArcPaths(_ metric: Metric, originals: UnsafeBufferPointer<ArcID>) -> [LegSolution.Path?] {
        targets.map { target in
            var best: LegSolution.Path?
            for (s, source) in sources.enumerated()
            where originals[source.position.arc.index] == originals[target.arc.index] && source.position.fraction <= target.fraction
                && metric.arcWeight[target.arc.index] != Metric.infinite {
                let w = UInt32((Double(metric.arcWeight[target.arc.index]) * (target.fraction - source.position.fraction)).rounded())
                let cost = Metric.add(source.cost, w)
                if best.map({ cost < $0.cost }) ?? true {
                    best = .init(cost: cost, source: s, arcs: [source.position.arc])
                }
            }
            return best
        }
    }
}

extension LegSolution {
    /// Fills in the arcs and the source of each path a search found by relaxing (paths that stay
    /// on one arc have theirs already): from target j's last arc back through `lastFrom[j]` and
    /// the scratch's parents to a source arc.
    static func unpack(_ best: inout [Path?], lastFrom: [Int], lastArc: [ArcID], sourceOf: [Int: Int], parents: some ParentLinks) {
        for j in best.indices where lastFrom[j] >= 0 && best[j]?.arcs.isEmpty == true {
            var arcs = [lastArc[j]]
            var u = lastFrom[j]
            while true {
                arcs.append(ArcID(u))
                let p = parents.parentOf(u)
                if p == UInt32.max { break }
                u = Int(p)
            }
            arcs.reverse()
            best[j]!.arcs = arcs
            best[j]!.source = sourceOf[arcs[0].index] ?? 0
        }
    }
}

/// Where a search keeps each settled arc's parent (`UInt32.max` for none).
protocol ParentLinks {
    func parentOf(_ id: Int) -> UInt32
}

extension SearchScratch: ParentLinks {}
extension LabelHeap: ParentLinks {}
