public import RoadNetwork

/// Exact detours from a route to many places: what visiting a place adds to the trip, where the
/// trip leaves the route and where it rejoins, on the road network.
///
/// Two elimination-tree sweeps do the work shared by all places: one upward from every arc of the
/// route (each starting at the time the route reaches that arc's end), one from every arc of the
/// route backwards (each with the time still to drive from that arc's start). A place then needs
/// only its own two short chains: the earliest arrival at it when leaving the route anywhere, and
/// the least time from it to the end when rejoining anywhere. Detour = arrival + remaining − route
/// time, exactly (not straight-line distance), for any number of places.
public final class RouteDetourSearch: @unchecked Sendable {
    public let graph: RoadGraph
    public let metric: Metric
    public let cch: CCHMetric
    /// Route arcs with the cost at the end of each (from the route's start) and their total.
    let routeArcs: [ArcID]
    let costAtEnd: [UInt32]
    public let routeCost: UInt32
    let n: Int
    // Sweep results, by rank.
    let forward: UnsafeMutablePointer<UInt32>
    let forwardFrom: UnsafeMutablePointer<UInt32>, forwardArc: UnsafeMutablePointer<UInt32>
    let backward: UnsafeMutablePointer<UInt32>
    let backwardFrom: UnsafeMutablePointer<UInt32>, backwardArc: UnsafeMutablePointer<UInt32>
    /// Which route arc a sweep value started at (index into `routeArcs`); for the backward sweep
    /// also the turn into it.
    let forwardOrigin: UnsafeMutablePointer<Int32>
    let backwardOrigin: UnsafeMutablePointer<Int32>, backwardTurn: UnsafeMutablePointer<UInt32>
    static let none = UInt32.max

    /// - Parameters:
    ///   - route: the route's arcs in driving order with the cost at the end of each (the last
    ///     one's cost is the whole route's).
    public init(graph: RoadGraph, metric: Metric, cch: CCHMetric, route: [(arc: ArcID, costAtEnd: UInt32)]) {
        self.graph = graph
        self.metric = metric
        self.cch = cch
        routeArcs = route.map(\.arc)
        costAtEnd = route.map(\.costAtEnd)
        routeCost = route.last?.costAtEnd ?? 0
        n = max(1, cch.structure.nodeCount)
        forward = .allocate(capacity: n); forwardFrom = .allocate(capacity: n); forwardArc = .allocate(capacity: n)
        backward = .allocate(capacity: n); backwardFrom = .allocate(capacity: n); backwardArc = .allocate(capacity: n)
        forwardOrigin = .allocate(capacity: n); backwardOrigin = .allocate(capacity: n); backwardTurn = .allocate(capacity: n)
        forward.initialize(repeating: Self.none, count: n)
        backward.initialize(repeating: Self.none, count: n)
        sweep()
    }

    deinit {
        forward.deallocate(); forwardFrom.deallocate(); forwardArc.deallocate()
        backward.deallocate(); backwardFrom.deallocate(); backwardArc.deallocate()
        forwardOrigin.deallocate(); backwardOrigin.deallocate(); backwardTurn.deallocate()
    }

    private func sweep() {
        let st = cch.structure
        var forwardNodes = Set<Int>(), backwardNodes = Set<Int>()
        for (i, arc) in routeArcs.enumerated() {
            // Leaving: at the end of route arc i at costAtEnd[i].
            let v = Int(st.rank[arc.index])
            if costAtEnd[i] < forward[v] {
                forward[v] = costAtEnd[i]; forwardFrom[v] = Self.none; forwardOrigin[v] = Int32(i)
            }
            forwardNodes.insert(v)
            // Rejoining: entering route arc i, then the rest of the route from its end.
            let remaining = routeCost - costAtEnd[i]
            for copy in [arc] + (graph.restrictionCopies[arc] ?? []) {
                for k in graph.turns(into: copy) {
                    let t = Int(graph.turnReverseTurn[k])
                    let w = metric.turnWeight[t]
                    guard w != Metric.infinite else { continue }
                    let q = Int(st.rank[graph.turnSource[t].index])
                    let value = Metric.add(w, remaining)
                    if value < backward[q] {
                        backward[q] = value; backwardFrom[q] = Self.none; backwardOrigin[q] = Int32(i); backwardTurn[q] = UInt32(t)
                    }
                    backwardNodes.insert(q)
                }
            }
        }
        relax(ancestors(of: forwardNodes), values: forward, from: forwardFrom, via: forwardArc, origin: forwardOrigin, weights: cch.up)
        relax(ancestors(of: backwardNodes), values: backward, from: backwardFrom, via: backwardArc, origin: backwardOrigin, weights: cch.down)
    }

    private func ancestors(of starts: Set<Int>) -> [Int] {
        var all = Set<Int>()
        for s in starts {
            var v = s
            while all.insert(v).inserted, let p = cch.structure.parent(v) { v = p }
        }
        return all.sorted()
    }

    private func relax(_ nodes: [Int], values: UnsafeMutablePointer<UInt32>, from: UnsafeMutablePointer<UInt32>,
                       via: UnsafeMutablePointer<UInt32>, origin: UnsafeMutablePointer<Int32>, weights: UnsafeMutableBufferPointer<UInt32>) {
        let st = cch.structure
        for v in nodes {
            let d = values[v]
            if d == Self.none { continue }
            for k in Int(st.upFirstOut[v])..<Int(st.upFirstOut[v + 1]) {
                let w = weights[k]
                if w == CCHMetric.infinity { continue }
                let y = Int(st.upHead[k])
                let nd = CCHMetric.sum(d, w)
                if nd < values[y] { values[y] = nd; from[y] = UInt32(v); via[y] = UInt32(k); origin[y] = origin[v] }
            }
        }
    }

    /// One way of visiting a place: leave the route after arc `leave`, reach the place, rejoin by
    /// entering arc `rejoin`; costs in metric units.
    public struct Detour: Sendable {
        public var arrivalCost: UInt32
        public var remainingCost: UInt32
        /// Extra cost the visit adds to the route (may be negative if the route was not optimal).
        public var addedCost: Int64
        /// Index in the route's arcs where the trip leaves (after that arc) and rejoins (entering it).
        public var leaveIndex: Int
        public var rejoinIndex: Int
        /// Arcs from the leave arc to the place's arc, and from the place's arc to the rejoin arc.
        public var outbound: [ArcID]
        public var inbound: [ArcID]
        public var placePosition: ArcPosition
        public var departPosition: ArcPosition
        /// Whether the visit turns back at the place (its cost includes the U-turn penalty; its time does not).
        public var turnsBack: Bool
        /// The extra cost without the U-turn penalty: for fastest, the extra milliseconds of driving.
        public var addedTime: Int64
    }

    /// The cheapest detour to a place, over both directions of its road (turning at the place
    /// costs `uTurnPenalty`, as at any waypoint); nil when it cannot be reached or left.
    public func detour(to positions: [ArcPosition], uTurnPenalty: UInt32, unpack: Bool) -> Detour? {
        var best: Detour?
        let arrivals = positions.map { arrive($0) }
        let departures = positions.map { depart($0) }
        for (a, arrival) in arrivals.enumerated() {
            guard let arrival else { continue }
            for (b, departure) in departures.enumerated() {
                guard let departure else { continue }
                let same = graph.arcOriginal[positions[a].arc.index] == graph.arcOriginal[positions[b].arc.index]
                let turn: UInt32 = same ? 0 : uTurnPenalty
                let total = UInt64(arrival.cost) + UInt64(departure.cost) + UInt64(turn)
                let added = Int64(total) - Int64(routeCost)
                if best.map({ added < $0.addedCost }) ?? true {
                    best = Detour(arrivalCost: arrival.cost, remainingCost: departure.cost + turn, addedCost: added,
                                  leaveIndex: arrival.origin, rejoinIndex: departure.origin, outbound: [], inbound: [],
                                  placePosition: positions[a], departPosition: positions[b], turnsBack: !same,
                                  addedTime: added - Int64(turn))
                    if unpack {
                        best!.outbound = arrival.path()
                        best!.inbound = departure.path()
                    }
                }
            }
        }
        return best
    }

    struct Leg {
        var cost: UInt32
        var origin: Int
        var path: () -> [ArcID]
    }

    /// Earliest arrival at a position, leaving the route anywhere: the place's backward chain
    /// meets the forward sweep.
    func arrive(_ p: ArcPosition) -> Leg? {
        let st = cch.structure
        let excess = metric.remaining(p)
        var local: [Int: (value: UInt32, from: Int, arc: Int, turn: Int)] = [:]
        var starts: [Int] = []
        for copy in [graph.arcOriginal[p.arc.index]] + (graph.restrictionCopies[graph.arcOriginal[p.arc.index]] ?? []) {
            for k in graph.turns(into: copy) {
                let t = Int(graph.turnReverseTurn[k])
                let w = metric.turnWeight[t]
                guard w != Metric.infinite else { continue }
                let q = Int(st.rank[graph.turnSource[t].index])
                let value = w - excess
                if local[q].map({ value < $0.value }) ?? true { local[q] = (value, -1, -1, t); starts.append(q) }
            }
        }
        let chain = ancestors(of: Set(starts))
        var best = Self.none, meet = -1
        for v in chain {
            guard let here = local[v] else { continue }
            if forward[v] != Self.none {
                let total = CCHMetric.sum(forward[v], here.value)
                if total < best { best = total; meet = v }
            }
            for k in Int(st.upFirstOut[v])..<Int(st.upFirstOut[v + 1]) {
                let w = cch.down[k]
                if w == CCHMetric.infinity { continue }
                let y = Int(st.upHead[k])
                let nd = CCHMetric.sum(here.value, w)
                if local[y].map({ nd < $0.value }) ?? true { local[y] = (nd, v, k, -1) }
            }
        }
        guard meet >= 0 else { return nil }
        let origin = Int(forwardOrigin[meet])
        return Leg(cost: best, origin: origin, path: { [self] in
            // Up from the route arc to the meeting node (the sweep's parents), then down to the place.
            var upChain: [(Int, Int, Int)] = []
            var v = meet
            while forwardFrom[v] != Self.none { upChain.append((Int(forwardArc[v]), Int(forwardFrom[v]), v)); v = Int(forwardFrom[v]) }
            var ranks: [UInt32] = [UInt32(v)]
            for step in upChain.reversed() { cch.unpack(arc: step.0, lower: step.1, higher: step.2, upward: true, into: &ranks) }
            v = meet
            while let entry = local[v], entry.from >= 0 {
                cch.unpack(arc: entry.arc, lower: entry.from, higher: v, upward: false, into: &ranks)
                v = entry.from
            }
            var arcs = ranks.map { st.order[Int($0)] }
            if let t = local[v]?.turn, t >= 0 { arcs.append(graph.turnTarget[t]) }
            return arcs
        })
    }

    /// Least cost from a position to the route's end, rejoining anywhere: the place's forward
    /// chain meets the backward sweep.
    func depart(_ p: ArcPosition) -> Leg? {
        let st = cch.structure
        let start = Int(st.rank[p.arc.index])
        var local: [Int: (value: UInt32, from: Int, arc: Int)] = [start: (metric.remaining(p), -1, -1)]
        let chain = ancestors(of: [start])
        var best = Self.none, meet = -1
        for v in chain {
            guard let here = local[v] else { continue }
            if backward[v] != Self.none {
                let total = CCHMetric.sum(here.value, backward[v])
                if total < best { best = total; meet = v }
            }
            for k in Int(st.upFirstOut[v])..<Int(st.upFirstOut[v + 1]) {
                let w = cch.up[k]
                if w == CCHMetric.infinity { continue }
                let y = Int(st.upHead[k])
                let nd = CCHMetric.sum(here.value, w)
                if local[y].map({ nd < $0.value }) ?? true { local[y] = (nd, v, k) }
            }
        }
        guard meet >= 0 else { return nil }
        return Leg(cost: best, origin: Int(backwardOrigin[meet]), path: { [self] in
            var upChain: [(Int, Int, Int)] = []
            var v = meet
            while let entry = local[v], entry.from >= 0 { upChain.append((entry.arc, entry.from, v)); v = entry.from }
            var ranks: [UInt32] = [UInt32(v)]
            for step in upChain.reversed() { cch.unpack(arc: step.0, lower: step.1, higher: step.2, upward: true, into: &ranks) }
            v = meet
            while backwardFrom[v] != Self.none {
                let lower = Int(backwardFrom[v])
                cch.unpack(arc: Int(backwardArc[v]), lower: lower, higher: v, upward: false, into: &ranks)
                v = lower
            }
            var arcs = ranks.map { st.order[Int($0)] }
            arcs.append(graph.turnTarget[Int(backwardTurn[v])])
            return arcs
        })
    }
}
