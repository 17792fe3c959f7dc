public import RoadNetwork

/// Alternative routes by the penalty method (Bader et al. 2011; Kobitzsch et al. 2013): after
/// each route found, the arcs it uses get more expensive and the search runs again, so the next
/// route drifts off where a reasonable other way exists. Every candidate must pass three tests
/// before it is offered:
///
/// - **stretch**: at most `maxStretch` (40 %) costlier than the best route (TomTom's alternatives
///   stay within a similar bound; OSRM uses 25 % for its via-node candidates);
/// - **sharing**: at most `maxShare` (75 %) of its length on any route already offered, so each
///   alternative is really different;
/// - **local optimality** (after the T-test of Abraham et al.): every stretch of it as long as a
///   quarter of the route (`windowShare`) is nearly a shortest path between its ends (within
///   `detourTolerance`, 10 %), so there are no silly detours such as a loop around a block.
///
/// Why the penalty method rather than via-node/plateau alternatives: it works unchanged for
/// time-dependent routes, arrive-by, several waypoints and avoidances, because it only needs a
/// search that accepts extra arc costs — which both `AStarLegSearch` (static, CCH potentials)
/// and `TimeDependentLegSearch` do. None found is a valid answer.
public struct AlternativeRoutes {
    public var maxStretch = 0.4
    public var maxShare = 0.75
    public var detourTolerance = 1.1
    /// Length of the local-optimality windows, as a share of the route's cost.
    public var windowShare = 0.25
    /// Each use of an arc adds this share of its own weight as a penalty.
    public var penaltyShare = 0.6
    /// Attempts per wanted alternative.
    public var attemptsPerAlternative = 3

    public init() {}

    /// - Parameters:
    ///   - solve: runs the planner with per-arc entry penalties (metric units).
    ///   - cost: the true cost of a route (metric units or seconds), without penalties.
    ///   - localCost: a part's cost in the units of `shortest` (the static metric).
    ///   - shortest: the best path's cost between two positions, for the local-optimality test.
    public func find(graph: RoadGraph, best: Route, count: Int, arcWeight: [UInt32],
                     solve: ([UInt32]) -> Route?, cost: (Route) -> Double, localCost: (Route) -> Double,
                     shortest: (ArcPosition, ArcPosition) -> Double?) -> [Route] {
        guard count > 0 else { return [] }
        var penalty = [UInt32](repeating: 0, count: graph.arcCount)
        var offered: [Route] = [best]
        var offeredArcs: [Set<ArcID>] = [Set(arcs(of: best))]
        let bestCost = cost(best)
        func penalize(_ route: Route) {
            for a in arcs(of: route) {
                let add = UInt32(min(Double(UInt32.max / 8), Double(arcWeight[a.index]) * penaltyShare))
                penalty[a.index] = Metric.add(penalty[a.index], max(1, add))
                for copy in graph.restrictionCopies[a] ?? [] { penalty[copy.index] = penalty[a.index] }
            }
        }
        penalize(best)
        var alternatives: [Route] = []
        for _ in 0..<(count * attemptsPerAlternative) where alternatives.count < count {
            guard let candidate = solve(penalty) else { break }
            penalize(candidate)
            let candidateArcs = arcs(of: candidate)
            let c = cost(candidate)
            guard c <= bestCost * (1 + maxStretch) else { continue }
            let length = candidate.lengthMeters
            guard length > 0 else { continue }
            let tooSimilar = offeredArcs.contains { set in
                sharedMeters(candidate, with: set, graph: graph) > maxShare * length
            }
            if tooSimilar { continue }
            guard isLocallyOptimal(candidate, bestArcs: offeredArcs[0], graph: graph, cost: localCost, shortest: shortest) else { continue }
            alternatives.append(candidate)
            offered.append(candidate)
            offeredArcs.append(Set(candidateArcs))
        }
        return alternatives.sorted { cost($0) < cost($1) }
    }

    func arcs(of route: Route) -> [ArcID] { route.legs.flatMap { $0.pieces.map(\.arc) } }

    func sharedMeters(_ route: Route, with arcs: Set<ArcID>, graph: RoadGraph) -> Double {
        var shared = 0.0
        for leg in route.legs {
            for piece in leg.pieces where arcs.contains(piece.arc) { shared += piece.lengthMeters }
        }
        return shared
    }

    /// Windows of `windowShare` of the route's cost, sliding over every stretch that leaves the best
    /// route (and a little either side), must each cost at most `detourTolerance` × the best path
    /// between their ends.
    func isLocallyOptimal(_ route: Route, bestArcs: Set<ArcID>, graph: RoadGraph, cost: (Route) -> Double,
                          shortest: (ArcPosition, ArcPosition) -> Double?) -> Bool {
        for leg in route.legs {
            let pieces = leg.pieces
            let pieceCosts = pieces.map { p in
                cost(Route(legs: [RouteLeg(graph: graph, arcs: [p.arc], start: p.fromFraction, end: p.toFraction)], endpoints: [], cost: 0))
            }
            let total = pieceCosts.reduce(0, +)
            let window = max(1, total * windowShare)
            var i = 0
            while i < pieces.count {
                guard !bestArcs.contains(pieces[i].arc) else { i += 1; continue }
                var j = i
                while j + 1 < pieces.count && !bestArcs.contains(pieces[j + 1].arc) { j += 1 }
                // Slide windows over pieces max(0, i-1)...min(count-1, j+1).
                let from = max(0, i - 1), to = min(pieces.count - 1, j + 1)
                var start = from
                while start <= to {
                    var end = start, acc = pieceCosts[start]
                    while end < to && acc < window { end += 1; acc += pieceCosts[end] }
                    if end > start {
                        let part = RouteLeg(graph: graph, arcs: pieces[start...end].map(\.arc), start: pieces[start].fromFraction, end: pieces[end].toFraction)
                        let partCost = cost(Route(legs: [part], endpoints: [], cost: 0))
                        if let best = shortest(ArcPosition(arc: pieces[start].arc, fraction: pieces[start].fromFraction),
                                               ArcPosition(arc: pieces[end].arc, fraction: pieces[end].toFraction)),
                           partCost > best * detourTolerance + 1 {
                            return false
                        }
                    }
                    // Advance by about half a window.
                    var advanced = 0.0
                    repeat { advanced += pieceCosts[start]; start += 1 } while start <= to && advanced < window / 2
                    if end >= to { break }
                }
                i = j + 1
            }
        }
        return true
    }
}
