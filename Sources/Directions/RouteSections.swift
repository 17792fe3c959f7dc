public import RoadNetwork
public import RoutePlanning

/// Stretches of a route with a fact worth showing (tolls, ferries, motorways, …) and the stretches
/// live traffic slows, as ranges of the route's point indices (legs joined, each leg's points
/// counted whole).
public enum RouteSections {
    /// A fact of the roads driven.
    public enum Fact: String, Sendable, CaseIterable {
        case toll, ferry, motorway, tunnel, unpaved, pedestrian

        func holds(_ graph: RoadGraph, arc: ArcID) -> Bool {
            let way = graph.way(of: arc).index
            return switch self {
            case .toll: graph.wayFlags[way].contains(.toll)
            case .ferry: graph.wayFlags[way].contains(.ferry)
            case .motorway: graph.wayClass[way].isMotorway
            case .tunnel: graph.wayFlags[way].contains(.tunnel)
            case .unpaved: graph.wayFlags[way].contains(.unpaved)
            case .pedestrian: graph.isPushing(arc)
            }
        }
    }

    public struct Run: Sendable, Equatable {
        public var fact: Fact
        public var startPoint: Int
        public var endPoint: Int
    }

    /// An arc where live traffic costs more than a second.
    public struct Slowdown: Sendable, Equatable {
        public var startPoint: Int
        public var endPoint: Int
        /// Closed by live traffic when planned (the route starts or ends on it).
        public var closed: Bool
        public var speedKmh: Double
        public var delaySeconds: Double
    }

    /// The runs of arcs on which `fact` holds, leg by leg.
    public static func runs(_ fact: Fact, _ route: TimedRoute, graph: RoadGraph) -> [Run] {
        var runs: [Run] = []
        var base = 0
        for leg in route.legs {
            var start: Int?
            for (i, piece) in leg.arcs.enumerated() {
                let on = fact.holds(graph, arc: piece.arc)
                let pointIndex = base + piece.firstPoint
                if on && start == nil { start = pointIndex }
                let endOfRun = !on || i == leg.arcs.count - 1
                if let s = start, endOfRun {
                    runs.append(Run(fact: fact, startPoint: s, endPoint: on ? base + leg.points.count - 1 : pointIndex))
                    start = nil
                }
            }
            base += leg.points.count
        }
        return runs
    }

    /// The arcs whose time comes from live traffic and exceeds free flow by more than a second.
    public static func slowdowns(_ route: TimedRoute, graph: RoadGraph) -> [Slowdown] {
        var out: [Slowdown] = []
        var base = 0
        for leg in route.legs {
            for piece in leg.arcs where piece.source == .live && piece.lengthMeters > 0 {
                let driving = piece.durationSeconds - piece.turnSeconds
                let delay = driving - piece.freeFlowSeconds
                guard delay > 1 else { continue }
                out.append(Slowdown(startPoint: base + piece.firstPoint,
                                    endPoint: base + min(leg.points.count - 1, piece.firstPoint + graph.shape(of: piece.arc).count - 1),
                                    closed: piece.isClosed, speedKmh: piece.lengthMeters / max(0.1, driving) * 3.6, delaySeconds: delay))
            }
            base += leg.points.count
        }
        return out
    }
}
