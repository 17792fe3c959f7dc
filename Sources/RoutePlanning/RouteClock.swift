import RoadNetwork
import Routing

/// Times a fixed route on one travel-time table, forwards from a departure or backwards from an
/// arrival (the exact inverse: the model is FIFO on a 5-minute grid).
struct RouteClock {
    let graph: RoadGraph
    let table: TravelTimeTable

    /// The route re-timed from `departure`; nil when an arc is closed when it would be entered
    /// (a closure on the first or last arc does not count: the traveller is already on that road).
    func timed(_ route: Route, departure: Double) -> Route? {
        RouteTiming.timed(route, graph: graph, table: table, departure: departure)
    }

    /// The latest departure that drives the route and arrives by `arrival`; nil when closed on
    /// the way (with `exemptingEnds`, as `timed` does, not on its first or last arc).
    func latestDeparture(_ route: Route, arrival: Double, exemptingEnds: Bool = false) -> Double? {
        var t = arrival
        for leg in route.legs.reversed() {
            for (p, piece) in leg.pieces.enumerated().reversed() {
                let covered = max(0, piece.toFraction - piece.fromFraction)
                let end = exemptingEnds && (p == 0 || p == leg.pieces.count - 1)
                guard let entry = table.latestEntry(graph.arcOriginal[piece.arc.index].index, exit: t, fraction: covered,
                                                    ignoringClosure: end) else { return nil }
                t = entry - piece.turnSeconds
            }
        }
        return t
    }
}
