public import RoadNetwork

/// TomTom's `avoid`, in one place: which roads each kind means, how soft avoidance weighs them,
/// and which avoided kinds a route still uses.
///
/// Strict avoidance makes avoided roads unusable; soft avoidance (TomTom's default) lets a route
/// use them only when nothing else reaches its destination, at a heavy cost for entering one
/// (`softEntryPenaltyMs` for time-based weights; `MetricFactory` scales it for the others).
public struct AvoidanceRules: Sendable {
    public let graph: RoadGraph
    /// The kinds that come from road facts, sorted (`alreadyUsedRoads` depends on the route, not the road).
    public let kinds: [Avoidance]
    public let strict: Bool

    /// Half an hour: the cost, in milliseconds of travel time, of entering an avoided road.
    public static let softEntryPenaltyMs: UInt32 = 1_800_000

    public init(graph: RoadGraph, avoid: some Collection<Avoidance>, strict: Bool) {
        self.graph = graph
        kinds = Set(avoid).subtracting([.alreadyUsedRoads]).sorted()
        self.strict = strict
    }

    /// Whether a road with these facts is of the avoided kind.
    public static func applies(_ kind: Avoidance, flags: WayFlags, roadClass: RoadClass) -> Bool {
        switch kind {
        case .tollRoads: flags.contains(.toll)
        case .motorways: roadClass.isMotorway || flags.contains(.motorroad)
        case .ferries: flags.contains(.ferry)
        case .unpavedRoads: flags.contains(.unpaved)
        case .alreadyUsedRoads: false
        }
    }

    /// Whether way `way` is of any avoided kind.
    public func avoidsWay(_ way: Int) -> Bool {
        let flags = graph.wayFlags[way], cls = graph.wayClass[way]
        return kinds.contains { Self.applies($0, flags: flags, roadClass: cls) }
    }

    public func avoidsEdge(_ edge: EdgeID) -> Bool {
        !kinds.isEmpty && avoidsWay(graph.edgeWay[edge.index].index)
    }

    /// Per arc: on a road of an avoided kind.
    public func avoidedArcs() -> [Bool] {
        guard !kinds.isEmpty else { return [Bool](repeating: false, count: graph.arcCount) }
        return (0..<graph.arcCount).map { avoidsWay(graph.way(of: ArcID($0)).index) }
    }

    /// Per-arc entry penalties (ms) for searches on travel times: unusable with strict avoidance,
    /// `softEntryPenaltyMs` otherwise; empty when nothing is avoided.
    public func entryPenaltyMs() -> [UInt32] {
        guard !kinds.isEmpty else { return [] }
        return avoidedArcs().map { $0 ? (strict ? Metric.infinite : Self.softEntryPenaltyMs) : 0 }
    }

    /// The avoided kinds a route still uses for more than a metre.
    public func usedAvoidances(_ route: Route) -> [Avoidance] {
        kinds.filter { kind in
            route.legs.contains { leg in
                leg.pieces.contains { piece in
                    let way = graph.way(of: piece.arc).index
                    return piece.lengthMeters > 1 && Self.applies(kind, flags: graph.wayFlags[way], roadClass: graph.wayClass[way])
                }
            }
        }
    }
}
