public import RoadNetwork
import GeoCore

/// Builds the integer weights for a `MetricKey` from the arc times in force (free flow,
/// historical, or with live traffic).
///
/// - fastest: milliseconds, each arc's divided by its way's rate share where the profile has
///   OSRM's rate penalties (`Metric.fastestWeight`; then in `weightedMilliseconds`).
/// - shortest: centimetres.
/// - eco: microlitres of fuel by `FuelModel` + 0.05 µL per millisecond (so equal-fuel routes
///   prefer the quicker one).
/// - thrilling: milliseconds scaled by road class (motorway ×4, trunk ×2, primary ×1.4,
///   secondary ×1.1, tertiary 1.0, unclassified 0.9, residential 1.2, service 2.0) and by
///   curviness: `1 / (1 + k · c / 400)`, clamped to [0.4, 1], where c is the arc's total heading
///   change in degrees per km of road (measured over its shape; a straight road has c = 0, a
///   mountain pass several hundred) and k the windingness (0.5, 1, 2). No elevation data is
///   available, so `hilliness` has no effect.
///
/// - quiet (bicycles): milliseconds divided by OSRM bicycle.lua's `cyclability` factor: 0.5 on
///   primary roads, 0.65 on secondary, 0.8 on tertiary (and their links), 1 elsewhere and on any
///   road with a cycle lane or track or on a `route=bicycle` (`WayFlags.cycleFriendly`); any road
///   with a `maxspeed` of 60 km/h or more counts as a primary, 0.8 with a lane (`quietFactor`).
///   A quiet route so rides up to 100 % further to keep off a primary or fast road, 54 % off a
///   secondary, 25 % off a tertiary or a lane beside fast traffic.
///
/// Avoided roads (`AvoidanceRules`): strict makes them unusable; soft multiplies their weight by 5
/// and adds the metric's equivalent of 30 minutes on entering one (25 km for shortest, 1.5 L for
/// eco), so they are used only when nothing else reaches the destination (then the route says so).
public enum MetricFactory {
    /// - Parameter arcMs: travel time per arc at the reference moment (`UInt32.max` = closed).
    public static func make(_ graph: RoadGraph, key: MetricKey, arcMs given: [UInt32], curvature: [Float]? = nil) -> Metric {
        let n = graph.arcCount
        let arcMs = key.speedCapKmh > 0 ? capped(graph, given, kmh: Double(key.speedCapKmh)) : given
        var arc = [UInt32](repeating: 0, count: n)
        let avoided = avoidedArcs(graph, key.avoid)
        let unit: WeightUnit
        switch key.routeType {
        case .quiet:
            unit = .weightedMilliseconds
            for a in 0..<n where arcMs[a] != Metric.infinite {
                let way = graph.way(of: ArcID(a)).index
                let factor = quietFactor(graph.wayFlags[way], graph.wayClass[way])
                arc[a] = UInt32(min(Double(UInt32.max / 4), max(1, Double(arcMs[a]) / factor)))
            }
        case .fastest, .thrilling:
            unit = key.routeType == .thrilling ? .weightedMilliseconds : Metric.fastestUnit(graph)
            for a in 0..<n where arcMs[a] != Metric.infinite {
                arc[a] = Metric.fastestWeight(graph, ArcID(a), ms: arcMs[a])
            }
            if key.routeType == .thrilling {
                let curve = curvature ?? Self.curvature(graph)
                for a in 0..<n where arcMs[a] != Metric.infinite {
                    let cls = classFactor(graph.wayClass[graph.way(of: ArcID(a)).index])
                    let bend = max(0.4, min(1, 1 / (1 + key.windingness.strength * Double(curve[a]) / 400)))
                    arc[a] = UInt32(min(Double(UInt32.max / 4), max(1, Double(arcMs[a]) * cls * bend)))
                }
            }
        case .shortest:
            unit = .centimetres
            for a in 0..<n { arc[a] = max(1, graph.lengthCm(of: ArcID(a))) }
        case .eco:
            unit = .microlitres
            for a in 0..<n where arcMs[a] != Metric.infinite {
                let meters = Double(graph.lengthCm(of: ArcID(a))) / 100
                let liters = FuelModel.liters(meters: meters, seconds: Double(max(1, arcMs[a])) / 1000)
                arc[a] = UInt32(min(Double(UInt32.max / 4), max(1, liters * 1e6 + 0.05 * Double(arcMs[a]))))
            }
        }
        let entryPenalty = unit.softAvoidancePenalty
        // Closed arcs keep a finite weight (a route may start or end on one) but cannot be entered.
        var closed = [Bool](repeating: false, count: n)
        for a in 0..<n where arcMs[a] == Metric.infinite {
            closed[a] = true
            if arc[a] == 0 || arc[a] == Metric.infinite {
                arc[a] = max(1, key.routeType == .shortest ? graph.lengthCm(of: ArcID(a)) : graph.arcDurationMs[a])
            }
        }
        if !key.avoid.isEmpty {
            for a in 0..<n where avoided[a] && arc[a] != Metric.infinite {
                arc[a] = key.strict ? Metric.infinite : UInt32(min(Double(UInt32.max / 4), Double(arc[a]) * 5))
            }
        }
        return Metric.withTurns(graph, unit: unit, arcWeight: arc) { t, from, to in
            if arc[to.index] == Metric.infinite || closed[to.index] { return Metric.infinite }
            var w: UInt32
            switch key.routeType {
            case .fastest, .thrilling, .quiet: w = graph.turnDurationMs[t]
            case .shortest: w = 0
            case .eco:
                let v = graph.head(of: from)
                let share = FuelModel.stopShare(turnMs: graph.turnDurationMs[t], node: graph.nodeFlags[v.index])
                let speed = graph.speedKmh(of: graph.way(of: to), backward: graph.isBackward(to))
                w = UInt32(share * FuelModel.litersPerStop(speedKmh: speed) * 1e6 + 0.05 * Double(graph.turnDurationMs[t]))
            }
            if Metric.restricted(graph, to) && !Metric.restricted(graph, from) {
                w = Metric.add(w, unit.restrictedEntryPenalty)
            }
            if !key.strict && avoided[to.index] && !avoided[from.index] { w = Metric.add(w, entryPenalty) }
            return w
        }
    }

    /// Arcs on roads of the avoided kinds.
    public static func avoidedArcs(_ graph: RoadGraph, _ avoid: [Avoidance]) -> [Bool] {
        AvoidanceRules(graph: graph, avoid: avoid, strict: false).avoidedArcs()
    }

    /// Arc times no faster than `kmh` (closed arcs stay closed), as `TravelTimeTable.SpeedCap` times them.
    static func capped(_ graph: RoadGraph, _ arcMs: [UInt32], kmh: Double) -> [UInt32] {
        let cap = TravelTimeTable.SpeedCap(graph, kmh: kmh)
        return arcMs.indices.map { a in
            arcMs[a] == Metric.infinite ? Metric.infinite : max(arcMs[a], UInt32(min(Double(Metric.infinite - 1), cap.ms(a).rounded())))
        }
    }

    /// How much of its speed a way is worth to a quiet bicycle route: the road class's
    /// `cyclability`, at most 0.5 beside traffic of 60 km/h or more (`WayFlags.fastTraffic`); a
    /// way made for cycling counts whole, 0.8 when it runs beside such traffic.
    static func quietFactor(_ flags: WayFlags, _ c: RoadClass) -> Double {
        let fast = flags.contains(.fastTraffic)
        if flags.contains(.cycleFriendly) { return fast ? 0.8 : 1 }
        return min(cyclability(c), fast ? 0.5 : 1)
    }

    /// OSRM bicycle.lua's `unsafe_highway_list`: how much of its speed a busy road is worth to a cyclist.
    static func cyclability(_ c: RoadClass) -> Double {
        switch c {
        case .primary, .primaryLink: 0.5
        case .secondary, .secondaryLink: 0.65
        case .tertiary, .tertiaryLink: 0.8
        default: 1
        }
    }

    static func classFactor(_ c: RoadClass) -> Double {
        switch c {
        case .motorway, .motorwayLink: 4
        case .trunk, .trunkLink: 2
        case .primary, .primaryLink: 1.4
        case .secondary, .secondaryLink: 1.1
        case .tertiary, .tertiaryLink: 1
        case .unclassified: 0.9
        case .residential, .livingStreet: 1.2
        case .service: 2
        case .track: 1.5
        default: 1.2
        }
    }

    /// Total heading change per km of each arc's shape (degrees per km).
    public static func curvature(_ graph: RoadGraph) -> [Float] {
        (0..<graph.arcCount).map { a in
            let e = graph.edge(of: ArcID(a)).index
            let start = Int(graph.edgeShapeStart[e]), end = Int(graph.edgeShapeStart[e + 1])
            guard end - start >= 3 else { return 0 }
            var turning = 0.0
            var previous = Geodesy.bearingDegrees(from: graph.shapeCoordinates[start], to: graph.shapeCoordinates[start + 1])
            for i in (start + 1)..<(end - 1) {
                let b = Geodesy.bearingDegrees(from: graph.shapeCoordinates[i], to: graph.shapeCoordinates[i + 1])
                turning += abs(Geodesy.turnAngle(from: previous, to: b))
                previous = b
            }
            let km = Double(graph.edgeLengthCm[e]) / 100_000
            return Float(km > 0.01 ? turning / km : 0)
        }
    }
}
