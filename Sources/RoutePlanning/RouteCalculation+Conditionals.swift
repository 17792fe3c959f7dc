import RoadNetwork
import Routing

/// Conditional turns and arcs on static routes (`ConditionalRules`).
///
/// The hierarchy (CCH) is customized with every conditional element open, which keeps it a valid
/// lower bound at every moment but lets its route pass a turn or road closed at that hour. So the
/// static route is checked along the way, timed from the request's moment (its departure, or now):
/// when it passes an element closed at the moment it reaches it, the route is searched again with
/// a search that asks the rules, and the hierarchy's potentials guide it (still admissible, since
/// closures only remove moves). Graphs without conditional rules, and routes that meet none closed,
/// never leave the fast path.
extension RouteCalculation {
    /// Whether the timed route makes a conditional turn, or enters a conditional arc between its
    /// ends, while that is closed.
    func passesClosedConditional(_ route: Route, departure: Double) -> Bool {
        let rules = graph.conditionals
        guard !rules.isEmpty else { return false }
        let offset = table.utcOffsetSeconds
        var time = departure
        for leg in route.legs {
            for (p, piece) in leg.pieces.enumerated() {
                if p > 0 {
                    let previous = leg.pieces[p - 1].arc
                    for from in [previous] + (graph.restrictionCopies[previous] ?? []) {
                        for t in graph.turns(from: from) where graph.arcOriginal[graph.turnTarget[t].index] == piece.arc {
                            if rules.blocksTurn(t, at: time, utcOffsetSeconds: offset) { return true }
                        }
                    }
                    if p < leg.pieces.count - 1, rules.blocksArc(piece.arc.index, at: time + piece.turnSeconds, utcOffsetSeconds: offset) {
                        return true
                    }
                }
                time += piece.durationSeconds
            }
        }
        return false
    }

    /// The route again, honouring the conditional rules: exact time-dependent search for the
    /// fastest route type (each element at the moment it is reached), A* on the metric at the
    /// request's moment for the others.
    func conditionalRoute(_ endpoints: [RouteEndpoint], prepared: PreparedMetric, departure: Double) throws(Failure) -> Route {
        let outcome: RouteOutcome
        if request.routeType == .fastest && !request.avoid.contains(.alreadyUsedRoads) {
            outcome = timeDependentRoute(endpoints, departure: departure, penalty: rules.entryPenaltyMs())
        } else {
            outcome = penalizedRoute(endpoints, prepared: prepared, usedRoadPenalty: request.avoid.contains(.alreadyUsedRoads))
        }
        return try timed(outcome, departure: departure)
    }
}
