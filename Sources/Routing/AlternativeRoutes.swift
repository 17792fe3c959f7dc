public import RoadNetwork

/// Alternative routes by via nodes (Abraham, Delling, Goldberg and Werneck, "Alternative routes in
/// road networks"): each leg's candidates are the paths through the nodes both hierarchy searches
/// reach (`CCHLegSearch.viaPaths`), cheapest first. Every candidate must pass three tests before
/// it is offered:
///
/// - **stretch**: at most `maxStretch` (40 %) costlier than the best leg (TomTom's alternatives
///   stay within a similar bound; OSRM uses 25 % for its via-node candidates);
/// - **sharing**: at most `maxShare` (75 %) of its length on any leg already offered, so each
///   alternative is really different;
/// - **local optimality** (the T-test of Abraham et al.): every stretch of it as long as a
///   quarter of the leg (`windowShare`) is nearly a shortest path between its ends (within
///   `detourTolerance`, 10 %), so there are no silly detours such as a loop around a block.
///
/// The cost the stretch is measured in is the caller's (`legCost`): the static metric, or the
/// time-dependent duration from when the best route starts the leg, so a time-dependent best
/// route keeps its exact cost and the candidates are judged by theirs. With several waypoints the
/// k-th alternative drives each leg's k-th alternative, or the best leg where that has fewer;
/// the chained route passes stretch and sharing again as a whole. None found is a valid answer.
public struct AlternativeRoutes {
    public var maxStretch = 0.4
    public var maxShare = 0.75
    public var detourTolerance = 1.1
    /// Length of the local-optimality windows, as a share of the leg's cost.
    public var windowShare = 0.25
    /// Via paths tested per leg at most.
    public var candidatesPerLeg = 16

    public init() {}

    /// - Parameters:
    ///   - viaPaths: up to `limit` via paths from some of the start positions to some of the end
    ///     positions, off `covered`, cheapest first, static cost within `maxStretch`.
    ///   - legCost: a leg's cost in the units of `cost` (nil when it cannot be driven).
    ///   - finish: a chained route as offered (timed, its `cost` set), nil when it cannot be driven.
    ///   - cost: the true cost of a route (metric units or seconds).
    ///   - localCost: a part's cost in the units of `shortest` (the static metric).
    ///   - pieceCost: one piece's cost in those units, without the turn into it.
    ///   - shortest: the best path's cost between two positions, for the local-optimality test.
    public func find(graph: RoadGraph, best: Route, count: Int,
                     viaPaths: (_ from: [ArcPosition], _ to: [ArcPosition], _ covered: Set<ArcID>, _ maxStretch: Double,
                                _ limit: Int) -> [ViaPath],
                     legCost: (_ leg: RouteLeg, _ index: Int) -> Double?, finish: (Route) -> Route?,
                     cost: (Route) -> Double, localCost: (Route) -> Double, pieceCost: (RouteLeg.Piece) -> Double,
                     shortest: (ArcPosition, ArcPosition) -> Double?) -> [Route] {
        guard count > 0 else { return [] }
        let perLeg = best.legs.indices.map { l in
            // The route may leave its first point and reach its last by any of their roads; at a
            // waypoint between, each leg keeps the best route's position so that the legs chain.
            let first = l == 0 && !best.endpoints.isEmpty ? best.endpoints[0].positions : []
            let last = l == best.legs.count - 1 && !best.endpoints.isEmpty ? best.endpoints[best.endpoints.count - 1].positions : []
            return legAlternatives(graph: graph, best: best.legs[l], index: l, count: count, starts: first, ends: last,
                                   viaPaths: viaPaths, legCost: legCost, localCost: localCost, pieceCost: pieceCost, shortest: shortest)
        }
        let bestCost = cost(best)
        var offered: [Set<ArcID>] = [originals(of: best.legs, graph: graph)]
        var alternatives: [Route] = []
        for k in 0..<(perLeg.map(\.count).max() ?? 0) {
            let legs = best.legs.indices.map { k < perLeg[$0].count ? perLeg[$0][k] : best.legs[$0] }
            guard let route = finish(Route(legs: legs, endpoints: best.endpoints, cost: 0)),
                  cost(route) <= bestCost * (1 + maxStretch), route.lengthMeters > 0 else { continue }
            if offered.contains(where: { sharedMeters(route.legs, with: $0, graph: graph) > maxShare * route.lengthMeters }) { continue }
            alternatives.append(route)
            offered.append(originals(of: route.legs, graph: graph))
        }
        return alternatives.sorted { cost($0) < cost($1) }
    }

    /// Up to `count` alternatives to one leg of the best route, in the order found, from `starts`
    /// to `ends` besides the best leg's own start and end.
    func legAlternatives(graph: RoadGraph, best: RouteLeg, index: Int, count: Int, starts: [ArcPosition], ends: [ArcPosition],
                         viaPaths: ([ArcPosition], [ArcPosition], Set<ArcID>, Double, Int) -> [ViaPath],
                         legCost: (RouteLeg, Int) -> Double?, localCost: (Route) -> Double, pieceCost: (RouteLeg.Piece) -> Double,
                         shortest: (ArcPosition, ArcPosition) -> Double?) -> [RouteLeg] {
        guard let first = best.pieces.first, let last = best.pieces.last, let bestCost = legCost(best, index) else { return [] }
        let from = ArcPosition(arc: first.arc, fraction: first.fromFraction)
        let to = ArcPosition(arc: last.arc, fraction: last.toFraction)
        let bestArcs = originals(of: [best], graph: graph)
        var offered = [bestArcs]
        var found: [RouteLeg] = []
        for path in viaPaths(Self.adding(from, to: starts), Self.adding(to, to: ends), bestArcs, maxStretch, candidatesPerLeg)
        where found.count < count {
            let leg = RouteLeg(graph: graph, arcs: path.arcs, start: path.start, end: path.end)
            let length = leg.lengthMeters
            if length > 0, let c = legCost(leg, index), c <= bestCost * (1 + maxStretch),
               !offered.contains(where: { sharedMeters([leg], with: $0, graph: graph) > maxShare * length }),
               isLocallyOptimal(leg, bestArcs: bestArcs, graph: graph, cost: localCost, pieceCost: pieceCost, shortest: shortest) {
                found.append(leg)
                offered.append(originals(of: [leg], graph: graph))
            }
        }
        return found
    }

    static func adding(_ position: ArcPosition, to positions: [ArcPosition]) -> [ArcPosition] {
        positions.contains(position) ? positions : [position] + positions
    }

    /// The arcs legs drive, restriction copies as their originals.
    func originals(of legs: [RouteLeg], graph: RoadGraph) -> Set<ArcID> {
        Set(legs.flatMap { $0.pieces.map { graph.arcOriginal[$0.arc.index] } })
    }

    func sharedMeters(_ legs: [RouteLeg], with arcs: Set<ArcID>, graph: RoadGraph) -> Double {
        var shared = 0.0
        for leg in legs {
            for piece in leg.pieces where arcs.contains(graph.arcOriginal[piece.arc.index]) { shared += piece.lengthMeters }
        }
        return shared
    }

    /// Windows of `windowShare` of the leg's cost, sliding over every stretch that leaves the best
    /// leg (and a little either side), must each cost at most `detourTolerance` × the best path
    /// between their ends.
    func isLocallyOptimal(_ leg: RouteLeg, bestArcs: Set<ArcID>, graph: RoadGraph, cost: (Route) -> Double,
                          pieceCost: (RouteLeg.Piece) -> Double, shortest: (ArcPosition, ArcPosition) -> Double?) -> Bool {
        let pieces = leg.pieces
        let onBest = pieces.map { bestArcs.contains(graph.arcOriginal[$0.arc.index]) }
        let pieceCosts = pieces.map(pieceCost)
        let total = pieceCosts.reduce(0, +)
        let window = max(1, total * windowShare)
        var i = 0
        while i < pieces.count {
            guard !onBest[i] else { i += 1; continue }
            var j = i
            while j + 1 < pieces.count && !onBest[j + 1] { j += 1 }
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
        return true
    }
}
