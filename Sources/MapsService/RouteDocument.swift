import Foundation
import MapsAPI
import Routing
import RoadNetwork
import GeoCore
import Directions
import MapsAPIMapping

/// Turns a finished calculation into the TomTom-shaped response document.
struct RouteDocument {
    let calculation: RouteCalculation
    let outcome: RouteCalculation.Outcome
    let timeZone: TimeZone

    var graph: RoadGraph { calculation.graph }
    let drivingSide: DrivingSide
    var query: RouteQuery { calculation.query }

    func response() -> PlannedRoutes {
        var bodies: [RouteBody] = []
        var guidance: [Directions.Guidance?] = []
        let best = outcome.routes[0]
        for (i, route) in outcome.routes.enumerated() {
            var (body, routeGuidance) = self.body(route, departure: outcome.departures[i], isBest: i == 0)
            guidance.append(routeGuidance)
            if i > 0 {
                let (distance, time, point) = deviation(route, from: best)
                body.summary.deviationDistance = distance
                body.summary.deviationTime = time
                _ = point
            }
            bodies.append(body)
        }
        var optimized: [OptimizedWaypoint]?
        if let order = outcome.order {
            // TomTom counts intermediate waypoints only, 0-based.
            optimized = order.dropFirst().dropLast().enumerated().map { newIndex, provided in
                OptimizedWaypoint(providedIndex: provided - 1, optimizedIndex: newIndex)
            }.sorted { $0.providedIndex < $1.providedIndex }
        }
        let waypoints = best.endpoints.map { e in
            SnappedWaypoint(input: latLon(e.input), snapped: latLon(e.snap.point),
                            distanceInMeters: (e.snap.distanceMeters * 100).rounded() / 100,
                            name: graph.name(of: graph.edgeWay[e.snap.edge.index]))
        }
        return PlannedRoutes(response: CalculateRouteResponse(routes: bodies, optimizedWaypoints: optimized, waypoints: waypoints),
                             guidance: guidance)
    }

    func body(_ route: Route, departure: Double, isBest: Bool) -> (RouteBody, Directions.Guidance?) {
        let snapshot = calculation.snapshot
        let historic = RouteTiming.timed(route, graph: graph, table: snapshot.historicalTable, departure: departure)?.durationSeconds
        let live = RouteTiming.timed(route, graph: graph, table: snapshot.table, departure: departure)?.durationSeconds
        let freeFlow = RouteTiming.freeFlowSeconds(route, graph: graph)
        let includePoints = query.representation == .polyline
        var legs: [RouteLegBody] = []
        var time = departure
        for leg in route.legs {
            let arrival = time + leg.durationSeconds
            var summary = Self.summary(length: leg.lengthMeters, duration: leg.durationSeconds, departure: time, arrival: arrival, timeZone: timeZone)
            summary.trafficDelayInSeconds = 0
            legs.append(RouteLegBody(summary: summary, points: includePoints ? leg.points.map(latLon) : nil))
            time = arrival
        }
        var summary = Self.summary(length: route.lengthMeters, duration: route.durationSeconds, departure: departure,
                                   arrival: departure + route.durationSeconds, timeZone: timeZone)
        let usesTraffic = graph.mode.usesTraffic
        if usesTraffic {
            summary.noTrafficTravelTimeInSeconds = Int(freeFlow.rounded())
            summary.historicTrafficTravelTimeInSeconds = historic.map { Int($0.rounded()) }
            summary.liveTrafficIncidentsTravelTimeInSeconds = live.map { Int($0.rounded()) }
            if query.traffic, let live, let historic {
                summary.trafficDelayInSeconds = max(0, Int((live - historic).rounded()))
                summary.trafficLengthInMeters = Int(liveDelayedMeters(route, departure: departure).rounded())
            }
            summary.fuelConsumptionInLiters = (fuelLiters(route) * 1000).rounded() / 1000
        } else {
            summary.noTrafficTravelTimeInSeconds = Int(route.durationSeconds.rounded())
        }
        let pointCount = includePoints ? legs.reduce(0) { $0 + ($1.points?.count ?? 0) } : 0
        var sections = [RouteSection(startPointIndex: 0, endPointIndex: max(0, pointCount - 1), sectionType: "TRAVEL_MODE",
                                     travelMode: graph.mode == .taxi ? "taxi" : graph.mode.rawValue)]
        if includePoints { sections += extraSections(route) }
        var body = RouteBody(summary: summary, legs: legs, sections: sections)
        var guidance: Directions.Guidance?
        if let mode = query.instructions, let text = InstructionText(language: query.language, units: query.imperialUnits ? .imperial : .metric) {
            let built = GuidanceBuilder(graph: graph, text: text, drivingSide: drivingSide).build(route)
            body.guidance = built.tomTom(messages: mode == .coded ? .none : mode == .tagged ? .tagged : .text)
            body.steps = built.tomTomSteps
            if includePoints && query.sectionTypes.contains("lanes") { body.sections += built.laneSections }
            guidance = built
        }
        body.advisoryNotices = Advisories.notices(route, graph: graph, usedAvoided: isBest ? outcome.usedAvoided : [],
                                                  closuresNearby: closuresNear(route))
        return (body, guidance)
    }

    static func summary(length: Double, duration: Double, departure: Double, arrival: Double, timeZone: TimeZone) -> RouteSummary {
        RouteSummary(lengthInMeters: Int(length.rounded()), travelTimeInSeconds: Int(duration.rounded()),
                     departureTime: RFC3339.format(Date(timeIntervalSince1970: departure), in: timeZone),
                     arrivalTime: RFC3339.format(Date(timeIntervalSince1970: departure + duration.rounded()), in: timeZone))
    }

    /// Metres driven where live traffic makes the road slower than its history says.
    func liveDelayedMeters(_ route: Route, departure: Double) -> Double {
        let table = calculation.snapshot.table
        var meters = 0.0
        var time = departure
        for leg in route.legs {
            for piece in leg.pieces {
                let a = graph.arcOriginal[piece.arc.index].index
                if table.liveMs[a] != 0 && table.factor(a, at: time) > table.historicalFactor(a, at: time) * 1.05 {
                    meters += piece.lengthMeters
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

    /// Closed arcs within the route's bounding box (live closures the route had to avoid).
    func closuresNear(_ route: Route) -> Int {
        let table = calculation.snapshot.table
        let now = calculation.now.timeIntervalSince1970
        guard calculation.snapshot.closedArcCount > 0 else { return 0 }
        var box = BoundingBox.empty
        for p in route.points { box.formUnion(p) }
        box = box.expanded(byMeters: 200)
        var edges = Set<Int>()
        for a in 0..<graph.arcCount where table.closedUntil[a] > now {
            let e = graph.edge(of: ArcID(a))
            if box.contains(graph.nodeCoordinates[graph.edgeTail[e.index].index]) { edges.insert(e.index) }
        }
        return edges.count
    }

    /// TomTom sections for requested types: runs of pieces with a fact, as point index ranges.
    func extraSections(_ route: Route) -> [RouteSection] {
        let wanted = query.sectionTypes
        guard !wanted.isEmpty else { return [] }
        let checks: [(String, String, (Int) -> Bool)] = [
            ("toll", "TOLL_ROAD", { graph.wayFlags[$0].contains(.toll) }), ("tollroad", "TOLL_ROAD", { graph.wayFlags[$0].contains(.toll) }),
            ("ferry", "FERRY", { graph.wayFlags[$0].contains(.ferry) }),
            ("motorway", "MOTORWAY", { graph.wayClass[$0].isMotorway }),
            ("tunnel", "TUNNEL", { graph.wayFlags[$0].contains(.tunnel) }),
            ("unpaved", "UNPAVED", { graph.wayFlags[$0].contains(.unpaved) }),
            ("pedestrian", "PEDESTRIAN", { graph.wayFlags[$0].contains(.pushing) }),
        ]
        var sections: [RouteSection] = []
        for (name, type, test) in checks where wanted.contains(name.lowercased()) {
            var base = 0
            for leg in route.legs {
                var start: Int?
                for (i, piece) in leg.pieces.enumerated() {
                    let on = test(graph.way(of: piece.arc).index)
                    let pointIndex = base + piece.firstPoint
                    if on && start == nil { start = pointIndex }
                    let endOfRun = !on || i == leg.pieces.count - 1
                    if let s = start, endOfRun {
                        let end = on ? base + leg.points.count - 1 : pointIndex
                        sections.append(RouteSection(startPointIndex: s, endPointIndex: end, sectionType: type))
                        start = nil
                    }
                }
                base += leg.points.count
            }
        }
        if wanted.contains("traffic") {
            let table = calculation.snapshot.table
            var base = 0
            for leg in route.legs {
                for piece in leg.pieces {
                    let a = graph.arcOriginal[piece.arc.index].index
                    guard table.liveMs[a] != 0, piece.lengthMeters > 0 else { continue }
                    let free = Double(graph.arcDurationMs[a]) / 1000 * max(0, piece.toFraction - piece.fromFraction)
                    let delay = piece.durationSeconds - piece.turnSeconds - free
                    guard delay > 1 else { continue }
                    var s = RouteSection(startPointIndex: base + piece.firstPoint,
                                         endPointIndex: base + min(leg.points.count - 1, piece.firstPoint + graph.shape(of: piece.arc).count - 1),
                                         sectionType: "TRAFFIC")
                    s.simpleCategory = table.isClosed(a, at: calculation.now.timeIntervalSince1970) ? "ROAD_CLOSURE" : "JAM"
                    s.effectiveSpeedInKmh = Int((piece.lengthMeters / max(0.1, piece.durationSeconds - piece.turnSeconds) * 3.6).rounded())
                    s.delayInSeconds = Int(delay.rounded())
                    s.magnitudeOfDelay = delay > 300 ? 3 : delay > 60 ? 2 : 1
                    sections.append(s)
                }
                base += leg.points.count
            }
        }
        return sections
    }

    /// Where an alternative leaves the best route: metres and seconds from the start.
    func deviation(_ route: Route, from best: Route) -> (Int, Int, Coordinate?) {
        let a = route.legs.flatMap(\.pieces), b = best.legs.flatMap(\.pieces)
        var meters = 0.0, seconds = 0.0
        for (p, q) in zip(a, b) {
            guard p.arc == q.arc else { break }
            meters += p.lengthMeters
            seconds += p.durationSeconds
        }
        return (Int(meters.rounded()), Int(seconds.rounded()), nil)
    }

    func latLon(_ c: Coordinate) -> LatLon { LatLon(rounding: c) }
}
