public import RoutePlanning

/// Plans one request on the production engine (its CCH) and on the oracle (plain Dijkstra, no
/// potentials) and says how the answers differ. Paths may differ where two cost the same, so the
/// best routes are compared by what the search minimises: time for the fastest route (free flow
/// and as timed), length for the shortest; everything else must agree outright.
public enum PlanOracle {
    public enum Verdict: Equatable, Sendable {
        /// Both found a route of the same cost.
        case sameRoute
        /// Both ended in the same outcome without a route.
        case sameFailure(String)
        case differ(String)
    }

    public static func compare(_ request: PlanRequest, planning: PlanningEngine, oracle: PlanningEngine) -> Verdict {
        let fast = planning.plan(request), slow = oracle.plan(request)
        guard let a = fast.plan?.best, let b = slow.plan?.best else {
            let (x, y) = (describe(fast), describe(slow))
            return x == y ? .sameFailure(x) : .differ("CCH: \(x), Dijkstra: \(y)")
        }
        let close = { (x: Double, y: Double, tolerance: Double) in abs(x - y) <= tolerance }
        switch request.routeType {
        case .shortest:
            guard close(a.lengthMeters, b.lengthMeters, 0.5) else {
                return .differ("length CCH \(a.lengthMeters) m, Dijkstra \(b.lengthMeters) m")
            }
        default:
            guard close(a.durationSeconds, b.durationSeconds, 0.1),
                  close(a.comparison.freeFlowSeconds, b.comparison.freeFlowSeconds, 0.1) else {
                return .differ("time CCH \(a.durationSeconds) s (free \(a.comparison.freeFlowSeconds)), "
                    + "Dijkstra \(b.durationSeconds) s (free \(b.comparison.freeFlowSeconds))")
            }
        }
        if case .arriveBy = request.timing, !close(a.departure, b.departure, 0.5) {
            return .differ("latest departure CCH \(a.departure), Dijkstra \(b.departure)")
        }
        for (p, q) in zip(a.waypoints, b.waypoints) where p.snapped != q.snapped {
            return .differ("snapped CCH \(p.snapped), Dijkstra \(q.snapped)")
        }
        return .sameRoute
    }

    static func describe(_ outcome: PlanOutcome) -> String {
        switch outcome {
        case .found: "found"
        case .noSegment(let w): "noSegment(\(w))"
        case .noRoute(let leg): "noRoute(\(leg))"
        case .noWaypointOrder: "noWaypointOrder"
        case .closed: "closed"
        case .arrivalPassed: "arrivalPassed"
        case .arrivalUnmeetable(let d): "arrivalUnmeetable(\(d.map { String($0) } ?? "nil"))"
        }
    }
}
