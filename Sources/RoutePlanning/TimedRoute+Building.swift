import Foundation
import GeoCore
import RoadNetwork
import Routing

/// Makes `TimedRoute`s of the searches' routes on one snapshot: every arc with its time and the
/// data it came from, and the route's time on the other tables, for the answer to compare.
struct TimedRouteBuilder {
    let engine: RoutingEngine
    let snapshot: TrafficSnapshot
    /// Whether live traffic counted (the table the route was timed on).
    let live: Bool
    /// Seconds since 1970: when the plan is made (closures "now").
    let now: Double
    /// The vehicle's top speed, on every table the route is timed on.
    var speedCap: TravelTimeTable.SpeedCap? = nil

    var graph: RoadGraph { engine.graph }
    var table: TravelTimeTable { live ? liveTable : historicalTable }
    var liveTable: TravelTimeTable { snapshot.table.capped(speedCap) }
    var historicalTable: TravelTimeTable { snapshot.historicalTable.capped(speedCap) }

    /// `route` is timed already (its pieces' durations) from `departure`.
    func build(_ route: Route, departure: Double, usedAvoidances: [Avoidance] = []) -> TimedRoute {
        let usesTraffic = graph.mode.usesTraffic
        let historic = usesTraffic ? RouteTiming.timed(route, graph: graph, table: historicalTable, departure: departure) : nil
        let liveRoute = usesTraffic ? RouteTiming.timed(route, graph: graph, table: liveTable, departure: departure) : nil
        let delayed = usesTraffic ? liveDelayedMeters(route, departure: departure) : route.legs.map { _ in 0 }
        var legs: [TimedRoute.Leg] = []
        var time = departure
        var origins: TravelTimeTable.ProfileOrigin = []
        for leg in route.legs {
            var arcs: [TimedRoute.Arc] = []
            for piece in leg.pieces {
                let a = graph.arcOriginal[piece.arc.index].index
                let covered = max(0, piece.toFraction - piece.fromFraction)
                let entry = time + piece.turnSeconds
                origins.formUnion(snapshot.historicalTable.profileOrigin(a))
                arcs.append(TimedRoute.Arc(
                    arc: piece.arc, fromFraction: piece.fromFraction, toFraction: piece.toFraction, lengthMeters: piece.lengthMeters,
                    durationSeconds: piece.durationSeconds, turnSeconds: piece.turnSeconds,
                    freeFlowSeconds: RouteTiming.freeFlowMs(a, graph: graph, speedCap: speedCap) / 1000 * covered, source: source(a, entry: entry),
                    isClosed: snapshot.closedArcCount > 0 && snapshot.table.isClosed(a, at: now),
                    firstPoint: piece.firstPoint))
                time += piece.durationSeconds
            }
            let l = legs.count
            legs.append(TimedRoute.Leg(arcs: arcs, points: leg.points, historicalSeconds: historic?.legs[l].durationSeconds,
                                       liveSeconds: liveRoute?.legs[l].durationSeconds, liveDelayedMeters: delayed[l]))
        }
        let comparison = TimeComparison(freeFlowSeconds: RouteTiming.freeFlowSeconds(route, graph: graph, speedCap: speedCap), historicalSeconds: historic?.durationSeconds,
                                        liveSeconds: liveRoute?.durationSeconds, liveDelayedMeters: delayed.reduce(0, +),
                                        profilesApply: !origins.isEmpty)
        return TimedRoute(mode: graph.mode, legs: legs, waypoints: route.endpoints.map(waypoint), departure: departure,
                          usedAvoidances: usedAvoidances, comparison: comparison, fuelLiters: usesTraffic ? fuelLiters(route) : nil,
                          closuresNearby: closuresNear(route), profileOrigins: origins)
    }

    func waypoint(_ e: RouteEndpoint) -> TimedRoute.Waypoint {
        TimedRoute.Waypoint(input: e.input, snapped: e.snap.point, distanceMeters: e.snap.distanceMeters,
                            roadName: graph.name(of: graph.edgeWay[e.snap.edge.index]), movedOffUnreachablePiece: e.movedOffUnreachablePiece)
    }

    /// Which data an arc's time comes from when entered at `entry`.
    func source(_ a: Int, entry: Double) -> TimeSource {
        let t = table
        let cellStart = (entry / TravelTimeTable.gridSeconds).rounded(.down) * TravelTimeTable.gridSeconds
        if t.useLive, let (_, expiry) = t.live.speed(a), cellStart < expiry, cellStart - t.referenceTime < t.liveFadeEndSeconds { return .live }
        return t.profileOrigin(a).isEmpty ? .freeFlow : .historical
    }

    /// Metres driven where live traffic makes the road slower than its history says, leg by leg.
    func liveDelayedMeters(_ route: Route, departure: Double) -> [Double] {
        let table = snapshot.table
        var meters: [Double] = []
        var time = departure
        for leg in route.legs {
            meters.append(0)
            for piece in leg.pieces {
                let a = graph.arcOriginal[piece.arc.index].index
                if table.live.hasSpeed(a) && table.factor(a, at: time) > table.historicalFactor(a, at: time) * 1.05 {
                    meters[meters.count - 1] += piece.lengthMeters
                }
                time += piece.durationSeconds
            }
        }
        return meters
    }

    func fuelLiters(_ route: Route) -> Double {
        var liters = 0.0
        for leg in route.legs {
            for (i, piece) in leg.pieces.enumerated() {
                liters += FuelModel.liters(meters: piece.lengthMeters, seconds: piece.durationSeconds - piece.turnSeconds)
                if i > 0 {
                    let node = graph.tail(of: piece.arc)
                    let share = FuelModel.stopShare(turnMs: UInt32(piece.turnSeconds * 1000), node: graph.nodeFlags[node.index])
                    let speed = piece.durationSeconds > piece.turnSeconds ? piece.lengthMeters / (piece.durationSeconds - piece.turnSeconds) * 3.6 : 0
                    liters += share * FuelModel.litersPerStop(speedKmh: speed)
                }
            }
        }
        return liters
    }

    /// Closed edges within the route's bounding box (live closures the route had to avoid).
    func closuresNear(_ route: Route) -> Int {
        guard snapshot.closedArcCount > 0 else { return 0 }
        let table = snapshot.table
        var box = BoundingBox.empty
        for p in route.points { box.formUnion(p) }
        box = box.expanded(byMeters: 200)
        var edges = Set<Int>()
        for (i, a) in table.live.closedArcs.enumerated() where table.live.closedUntil[i] > now {
            let e = graph.edge(of: ArcID(Int(a)))
            if box.contains(graph.nodeCoordinates[graph.edgeTail[e.index].index]) { edges.insert(e.index) }
        }
        return edges.count
    }
}
