public import RoadNetwork

/// Exact depart-at and arrive-by routes through any number of waypoints: time-dependent A* with
/// the tightest potentials `TimeDependentPotentials` has for the trip's hours.
///
/// A first search guesses the trip's hours from a lower bound of its length (half as long again,
/// plus two minutes, covers most trips); if its route ends outside the hours its potentials hold
/// for, a second search uses bounds that cover that route's whole span. The first route's end is
/// an upper bound of the best one's, so the second search is exact; most trips need one.
public struct TimeDependentRouting {
    public let graph: RoadGraph
    public let planner: RoutePlanner
    public let potentials: TimeDependentPotentials
    public let table: TravelTimeTable
    /// A band's bounds (nil: the week's) lowered where the table's live speeds are faster, for
    /// searches that may enter arcs while live data is in force; nil when no live speed is
    /// faster (made on first use by the caller, which keeps them with its live data).
    public let liveBound: (Int?) -> LowerBoundHierarchy?
    /// The first search's guess of the trip's span: its lower bound times `spanFactor`, plus
    /// `spanMargin` seconds.
    public var spanFactor = 1.5
    public var spanMargin = 120.0

    public init(graph: RoadGraph, planner: RoutePlanner, potentials: TimeDependentPotentials, table: TravelTimeTable,
                liveBound: @escaping (Int?) -> LowerBoundHierarchy?) {
        self.graph = graph
        self.planner = planner
        self.potentials = potentials
        self.table = table
        self.liveBound = liveBound
    }

    /// How many searches the last calls needed (for statistics).
    public struct Statistics: Sendable {
        public var searches = 0
        public var secondSearches = 0
        public init() {}
    }

    /// The best route leaving the first waypoint at `departure` (seconds since 1970), with
    /// `penaltyMs` added (to the ordering, not the clock) on entering arcs, and `usedRoads`
    /// (`alreadyUsedRoads`) penalizing, leg after leg, the roads earlier legs drove.
    public func departAt(_ endpoints: [RouteEndpoint], departure: Double, penaltyMs: [UInt32] = [], usedRoads: UsedRoads = .allowed,
                         scratch: TimeDependentScratch, statistics: inout Statistics) -> RouteOutcome {
        let guess = departure + estimate(endpoints) * spanFactor + spanMargin
        var (hierarchy, validUntil) = forwardBound(from: departure, to: guess)
        var outcome = search(endpoints, departure: departure, penaltyMs: penaltyMs, usedRoads: usedRoads, hierarchy: hierarchy, scratch: scratch)
        statistics.searches += 1
        guard let route = outcome.route else { return outcome }
        let arrival = departure + (RouteTiming.timed(route, graph: graph, table: table, departure: departure)?.durationSeconds ?? .infinity)
        if arrival <= validUntil { return outcome }
        (hierarchy, validUntil) = arrival.isFinite ? forwardBound(from: departure, to: arrival) : (potentials.week, .infinity)
        outcome = search(endpoints, departure: departure, penaltyMs: penaltyMs, usedRoads: usedRoads, hierarchy: hierarchy, scratch: scratch)
        statistics.searches += 1
        statistics.secondSearches += 1
        return outcome
    }

    /// The latest departure that reaches the last waypoint by `arrival`, and its route (pieces
    /// with free-flow durations; time it with `RouteTiming`).
    public func arriveBy(_ endpoints: [RouteEndpoint], arrival: Double, scratch: TimeDependentScratch,
                         statistics: inout Statistics) -> (outcome: RouteOutcome, departure: Double?) {
        let guess = arrival - estimate(endpoints) * spanFactor - spanMargin
        var (hierarchy, validFrom) = backwardBound(from: guess, to: arrival)
        var result = searchBackward(endpoints, arrival: arrival, hierarchy: hierarchy, scratch: scratch)
        statistics.searches += 1
        guard let departure = result.departure, departure < validFrom else { return result }
        (hierarchy, validFrom) = backwardBound(from: departure, to: arrival)
        result = searchBackward(endpoints, arrival: arrival, hierarchy: hierarchy, scratch: scratch)
        statistics.searches += 1
        statistics.secondSearches += 1
        return result
    }

    /// A lower bound of the trip's duration in seconds (the week's bounds, leg by leg).
    func estimate(_ endpoints: [RouteEndpoint]) -> Double {
        let week = potentials.week
        var total: UInt64 = 0
        for leg in 0..<(endpoints.count - 1) {
            let targets = endpoints[leg + 1].positions
            let best = week.hierarchy.withPotential(towardsTargets: true) { potential -> UInt32 in
                potential.prepare(targets.flatMap { target in targetStarts(target, bound: week.bound) })
                return endpoints[leg].positions.map { source -> UInt32 in
                    let p = potential.value(source.arc)
                    return p == CCHPotential.infinity ? p : Metric.add(p, week.bound.remaining(source))
                }.min() ?? CCHPotential.infinity
            }
            if best == CCHPotential.infinity { return 0 }
            total += UInt64(best)
        }
        return Double(total) / 1000
    }

    /// Where a potential towards `target` starts: the arcs turning into it, with the cost from
    /// their end to the target point.
    func targetStarts(_ target: ArcPosition, bound: LowerBound) -> [(arc: ArcID, offset: UInt32)] {
        let original = graph.arcOriginal[target.arc.index]
        var starts: [(arc: ArcID, offset: UInt32)] = []
        for arc in [original] + (graph.restrictionCopies[original] ?? []) {
            for i in graph.turns(into: arc) {
                let t = Int(graph.turnReverseTurn[i])
                starts.append((graph.turnSource[t], Metric.add(graph.turnDurationMs[t], bound.covered(target))))
            }
        }
        return starts
    }

    func forwardBound(from start: Double, to end: Double) -> (LowerBoundHierarchy, Double) {
        let (band, validUntil) = potentials.forward(from: start, to: end, table: table)
        if let until = table.liveUntil, start < until, let live = liveBound(band) { return (live, validUntil) }
        return (potentials.hierarchy(band), validUntil)
    }

    func backwardBound(from start: Double, to end: Double) -> (LowerBoundHierarchy, Double) {
        let (band, validFrom) = potentials.backward(from: start, to: end, table: table)
        if let until = table.liveUntil, start < until, let live = liveBound(band) { return (live, validFrom) }
        return (potentials.hierarchy(band), validFrom)
    }

    func search(_ endpoints: [RouteEndpoint], departure: Double, penaltyMs: [UInt32], usedRoads: UsedRoads, hierarchy: LowerBoundHierarchy,
                scratch: TimeDependentScratch) -> RouteOutcome {
        hierarchy.hierarchy.withPotential(towardsTargets: true) { potential in
            var inner = TimeDependentLegSearch(graph: graph, table: table, departure: departure, potential: potential,
                                               lowerBound: hierarchy.bound, scratch: scratch)
            inner.penaltyMs = penaltyMs
            var search = UsedRoadsSearch(inner: inner, penalizeUsed: usedRoads != .allowed, strict: usedRoads == .forbidden)
            return planner.route(endpoints, using: &search)
        }
    }

    func searchBackward(_ endpoints: [RouteEndpoint], arrival: Double, hierarchy: LowerBoundHierarchy,
                        scratch: TimeDependentScratch) -> (outcome: RouteOutcome, departure: Double?) {
        hierarchy.hierarchy.withPotential(towardsTargets: false) { potential in
            var search = ArriveBySearch(graph: graph, table: table, potential: potential, lowerBound: hierarchy.bound, scratch: scratch)
            return planner.routeArrivingBy(endpoints, arrival: arrival, using: &search)
        }
    }
}
