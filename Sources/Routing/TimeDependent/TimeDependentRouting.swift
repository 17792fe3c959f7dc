public import RoadNetwork

/// Exact depart-at and arrive-by routes through any number of waypoints: time-dependent A* with
/// the tightest potentials `TimeDependentPotentials` has for the trip's hours.
///
/// A depart-at trip's hours come from a feasible route (`FeasibleRoute`, driven at the trip's
/// time): the best route ends no later, so a band that covers them holds for all of it. An
/// arrive-by trip's are guessed from a lower bound of its length (half as long again, plus two
/// minutes). Where a band's hours still run out before a route ends, the week's bounds take over
/// (`PotentialExpiry`), so one search is exact for every trip.
public struct TimeDependentRouting {
    public let graph: RoadGraph
    public let planner: RoutePlanner
    public let potentials: TimeDependentPotentials
    public let table: TravelTimeTable
    /// A band's bounds (nil: the week's) lowered where the table's live speeds are faster, for
    /// searches that may enter arcs while live data is in force; nil when no live speed is
    /// faster (made on first use by the caller, which keeps them with its live data).
    public let liveBound: (Int?) -> LowerBoundHierarchy?
    /// A depart-at trip's span is that of a feasible route (`FeasibleRoute`: the best one ends no
    /// later); without one (or with this off), and for arrive-by, it is guessed: its lower bound
    /// times `spanFactor`, plus `spanMargin` seconds.
    public var spanFromFeasibleRoute = true
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

    /// What the last calls did (for statistics).
    public struct Statistics: Sendable {
        public var searches = 0
        /// Searches whose route outlasted its band's hours (the week's bounds took over on the way).
        public var outlasted = 0
        /// Searches that began with a band's bounds (the others had the week's).
        public var banded = 0
        /// Searches whose bounds were lowered for live speeds.
        public var live = 0
        /// Labels, arcs and potentials of all those searches.
        public var counts = SearchCounts()
        public init() {}

        public static func += (a: inout Statistics, b: Statistics) { a = a.combined(with: b, +) }

        /// Every count of this and `b` put together by `op`.
        func combined(with b: Statistics, _ op: (Int, Int) -> Int) -> Statistics {
            var c = Statistics()
            c.searches = op(searches, b.searches)
            c.outlasted = op(outlasted, b.outlasted)
            c.banded = op(banded, b.banded)
            c.live = op(live, b.live)
            c.counts = counts.combined(with: b.counts, op)
            return c
        }
    }

    /// The best route leaving the first waypoint at `departure` (seconds since 1970), with
    /// `penaltyMs` added (to the ordering, not the clock) on entering arcs, and `usedRoads`
    /// (`alreadyUsedRoads`) penalizing, leg after leg, the roads earlier legs drove.
    public func departAt(_ endpoints: [RouteEndpoint], departure: Double, penaltyMs: [UInt32] = [], usedRoads: UsedRoads = .allowed,
                         scratch: TimeDependentScratch, statistics: inout Statistics) -> RouteOutcome {
        let (lower, legs) = estimate(endpoints)
        // The best route ends no later than a feasible one: its end closes the span the bounds must cover.
        let feasible = spanFromFeasibleRoute ? legs.flatMap { arrival($0, leaving: departure) } : nil
        let guess = feasible ?? departure + lower * spanFactor + spanMargin
        var (band, validUntil) = potentials.forward(from: departure, to: guess, table: table)
        // No band covers the guess: one that holds at the departure still beats the week's.
        if band == nil { (band, validUntil) = potentials.forward(from: departure, to: departure, table: table) }
        // Live speeds hold for arcs entered before `liveUntil`: the band's bounds cover arcs from the
        // departure on, the week's those after the band's hours.
        let until = table.liveUntil ?? -.infinity
        let live = (band: departure < until, week: validUntil < until)
        let (outcome, counts) = search(endpoints, departure: departure, penaltyMs: penaltyMs, usedRoads: usedRoads, band: band,
                                       validUntil: validUntil, live: live, scratch: scratch)
        statistics.record(band: band, live: live.band, counts: counts)
        // The route's cost is its arrival in ms after the departure (plus any ordering penalties).
        if validUntil.isFinite, let route = outcome.route, departure + Double(route.cost) / 1000 > validUntil { statistics.outlasted += 1 }
        return outcome
    }

    /// The latest departure that reaches the last waypoint by `arrival`, and its route (pieces
    /// with free-flow durations; time it with `RouteTiming`).
    public func arriveBy(_ endpoints: [RouteEndpoint], arrival: Double, scratch: TimeDependentScratch,
                         statistics: inout Statistics) -> (outcome: RouteOutcome, departure: Double?) {
        let guess = arrival - estimate(endpoints).seconds * spanFactor - spanMargin
        var (band, validFrom) = potentials.backward(from: guess, to: arrival, table: table)
        if band == nil { (band, validFrom) = potentials.backward(from: arrival, to: arrival, table: table) }
        // Going back in time, the band's bounds cover arcs entered after its start, the week's any before.
        let until = table.liveUntil ?? -.infinity
        let live = (band: validFrom < until, week: table.liveUntil != nil)
        let (result, counts) = searchBackward(endpoints, arrival: arrival, band: band, validFrom: validFrom, live: live, scratch: scratch)
        statistics.record(band: band, live: live.band, counts: counts)
        if validFrom.isFinite, let departure = result.departure, departure < validFrom { statistics.outlasted += 1 }
        return result
    }

    /// A lower bound of the trip's duration in seconds (the week's bounds, leg by leg), and a
    /// feasible route for each leg (nil when a walk got stuck), chained at the waypoints.
    func estimate(_ endpoints: [RouteEndpoint]) -> (seconds: Double, legs: [FeasibleRoute]?) {
        let week = potentials.week
        var total: UInt64 = 0
        var legs: [FeasibleRoute]? = []
        var start: Int?
        for leg in 0..<(endpoints.count - 1) {
            let targets = endpoints[leg + 1].positions
            let best = week.hierarchy.withPotential(towardsTargets: true) { potential -> UInt32 in
                potential.prepare(graph.potentialStarts(towards: targets, bound: week.bound))
                let candidates = endpoints[leg].positions.map { source -> UInt32 in
                    let p = potential.value(source.arc)
                    return p == CCHPotential.infinity ? p : Metric.add(p, week.bound.remaining(source))
                }
                let first = start ?? candidates.indices.min { candidates[$0] < candidates[$1] } ?? 0
                if legs != nil, first < endpoints[leg].positions.count,
                   let walk = FeasibleRoute.descend(from: endpoints[leg].positions[first], to: targets, graph: graph, potential: potential,
                                                    bound: week.bound) {
                    legs?.append(walk)
                    start = walk.reached
                } else {
                    legs = nil
                }
                return candidates.min() ?? CCHPotential.infinity
            }
            if best == CCHPotential.infinity { return (0, nil) }
            total += UInt64(best)
        }
        return (Double(total) / 1000, legs)
    }

    /// The end of `legs` driven from `departure` (nil when closed on the way).
    func arrival(_ legs: [FeasibleRoute], leaving departure: Double) -> Double? {
        var time = departure
        for leg in legs {
            guard let end = leg.arrival(leaving: time, graph: graph, table: table) else { return nil }
            time = end
        }
        return time
    }

    /// A band's bounds (the week's for nil), lowered by live speeds when the search may meet them.
    func bounds(_ band: Int?, live: Bool) -> LowerBoundHierarchy {
        (live ? liveBound(band) : nil) ?? potentials.hierarchy(band)
    }

    /// Runs `body` with the band's potential and, when the band's hours end, the week's to take over.
    func withPotentials<R>(band: Int?, moment: Double, live: (band: Bool, week: Bool), towardsTargets: Bool,
                           _ body: (CCHPotential, LowerBound, PotentialExpiry?) -> R) -> R {
        let first = bounds(band, live: live.band)
        return first.hierarchy.withPotential(towardsTargets: towardsTargets) { potential in
            guard band != nil, moment.isFinite else { return body(potential, first.bound, nil) }
            let week = bounds(nil, live: live.week)
            return week.hierarchy.withPotential(towardsTargets: towardsTargets) { always in
                body(potential, first.bound, PotentialExpiry(potential: always, lowerBound: week.bound, moment: moment))
            }
        }
    }

    func search(_ endpoints: [RouteEndpoint], departure: Double, penaltyMs: [UInt32], usedRoads: UsedRoads, band: Int?, validUntil: Double,
                live: (band: Bool, week: Bool), scratch: TimeDependentScratch) -> (RouteOutcome, SearchCounts) {
        withPotentials(band: band, moment: validUntil, live: live, towardsTargets: true) { potential, bound, expiry in
            var inner = TimeDependentLegSearch(graph: graph, table: table, departure: departure, potential: potential,
                                               lowerBound: bound, scratch: scratch)
            inner.penaltyMs = penaltyMs
            inner.expiry = expiry
            var search = UsedRoadsSearch(inner: inner, penalizeUsed: usedRoads != .allowed, strict: usedRoads == .forbidden)
            let outcome = planner.route(endpoints, using: &search)
            return (outcome, search.inner.counts)
        }
    }

    func searchBackward(_ endpoints: [RouteEndpoint], arrival: Double, band: Int?, validFrom: Double, live: (band: Bool, week: Bool),
                        scratch: TimeDependentScratch) -> ((outcome: RouteOutcome, departure: Double?), SearchCounts) {
        withPotentials(band: band, moment: validFrom, live: live, towardsTargets: false) { potential, bound, expiry in
            var search = ArriveBySearch(graph: graph, table: table, potential: potential, lowerBound: bound, scratch: scratch)
            search.expiry = expiry
            let result = planner.routeArrivingBy(endpoints, arrival: arrival, using: &search)
            return (result, search.counts)
        }
    }
}

extension TimeDependentRouting.Statistics {
    mutating func record(band: Int?, live: Bool, counts: SearchCounts) {
        searches += 1
        if band != nil { banded += 1 }
        if live { self.live += 1 }
        self.counts += counts
    }

    /// What was done between two readings of running totals.
    public static func - (a: Self, b: Self) -> Self { a.combined(with: b, -) }
}
