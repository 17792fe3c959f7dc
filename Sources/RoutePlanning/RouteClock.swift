import RoadNetwork
import Routing

/// Times a fixed route on one travel-time table, forwards from a departure or backwards from an
/// arrival (the exact inverse: the model is FIFO on a 5-minute grid).
struct RouteClock {
    let graph: RoadGraph
    let table: TravelTimeTable

    /// Which closures on a leg's first and last arc do not stop the route.
    enum EndRule {
        /// None: every closure counts (as a route planned with a given arrival has it).
        case none
        /// Any: the traveller is on that road already (as a route just planned has it).
        case always
        /// Only where the route's own point lies inside the arc, more than 1.5 m from the junction
        /// it would otherwise enter from or leave to (a route kept and re-timed later).
        case whenInside
    }

    /// The route re-timed from `departure`; nil when an arc is closed when it would be entered.
    func timed(_ route: Route, departure: Double, ends: EndRule = .always) -> Route? {
        RouteTiming.timed(route, graph: graph, table: table, departure: departure) { piece, atStart in exempts(piece, atStart, ends) }
    }

    func exempts(_ piece: RouteLeg.Piece, _ atStart: Bool, _ rule: EndRule) -> Bool {
        switch rule {
        case .none: return false
        case .always: return true
        case .whenInside:
            let meters = Double(graph.lengthCm(of: piece.arc)) / 100
            return (atStart ? piece.fromFraction : 1 - piece.toFraction) * meters > 1.5
        }
    }

    /// The latest departure that drives the route and arrives by `arrival`; nil when closed on the way.
    func latestDeparture(_ route: Route, arrival: Double, ends: EndRule = .none) -> Double? {
        var t = arrival
        for leg in route.legs.reversed() {
            for (p, piece) in leg.pieces.enumerated().reversed() {
                let covered = max(0, piece.toFraction - piece.fromFraction)
                let end = (p == 0 && exempts(piece, true, ends)) || (p == leg.pieces.count - 1 && exempts(piece, false, ends))
                guard let entry = table.latestEntry(graph.arcOriginal[piece.arc.index].index, exit: t, fraction: covered,
                                                    ignoringClosure: end) else { return nil }
                t = entry - piece.turnSeconds
            }
        }
        return t
    }
}
