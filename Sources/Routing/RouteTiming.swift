public import RoadNetwork

/// Times a route with a travel-time table: every piece is entered at the moment the previous one
/// ends, so durations reflect the hour of the week, live traffic and its fading.
public enum RouteTiming {
    /// The route with piece durations re-timed from `departure` (seconds since 1970); nil when a
    /// piece is closed at the moment it would be entered. `exemptsEnd` says whether a leg's first
    /// (`atStart`) or last piece may be closed (by default always: the traveller is on that road).
    public static func timed(_ route: Route, graph: RoadGraph, table: TravelTimeTable, departure: Double,
                             exemptsEnd: (_ piece: RouteLeg.Piece, _ atStart: Bool) -> Bool = { _, _ in true }) -> Route? {
        var route = route
        var time = departure
        for l in route.legs.indices {
            let count = route.legs[l].pieces.count
            for p in route.legs[l].pieces.indices {
                let piece = route.legs[l].pieces[p]
                let entry = time + piece.turnSeconds
                let covered = max(0, piece.toFraction - piece.fromFraction)
                // The first and last piece are where the route starts or ends: a closure there
                // does not stop it (the traveller is already on that road).
                let endpoint = (p == 0 && exemptsEnd(piece, true)) || (p == count - 1 && exemptsEnd(piece, false))
                let ms = table.traverseMs(graph.arcOriginal[piece.arc.index].index, entry: entry, fraction: covered, ignoringClosure: endpoint)
                guard ms.isFinite else { return nil }
                route.legs[l].pieces[p].durationSeconds = piece.turnSeconds + ms / 1000
                time = entry + ms / 1000
            }
        }
        return route
    }

    /// Free-flow travel time of the route in seconds (no traffic at all).
    public static func freeFlowSeconds(_ route: Route, graph: RoadGraph, speedCap: TravelTimeTable.SpeedCap? = nil) -> Double {
        var total = 0.0
        for leg in route.legs {
            for piece in leg.pieces {
                total += piece.turnSeconds + freeFlowMs(piece.arc.index, graph: graph, speedCap: speedCap) / 1000 * max(0, piece.toFraction - piece.fromFraction)
            }
        }
        return total
    }

    /// An arc's free-flow milliseconds, no faster than the top speed if there is one.
    public static func freeFlowMs(_ arc: Int, graph: RoadGraph, speedCap: TravelTimeTable.SpeedCap?) -> Double {
        let ms = Double(graph.arcDurationMs[arc])
        return speedCap.map { max(ms, $0.ms(arc)) } ?? ms
    }
}
