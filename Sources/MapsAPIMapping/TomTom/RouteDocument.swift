public import Foundation
public import MapsAPI
public import RoadNetwork
public import RoutePlanning
public import Directions
import GeoCore

/// What a TomTom route document shows besides the route itself.
public struct RouteDocumentOptions: Sendable {
    /// The legs' points (`routeRepresentation=polyline`) and the sections that index them.
    public var includePoints = true
    /// The points as an encoded polyline (`routeRepresentation=encodedPolyline`) instead of a list.
    public var encodesPoints = false
    /// The route's time without traffic, with history only and with live traffic
    /// (`computeTravelTimeFor=all`).
    public var travelTimesForAll = true
    /// Guidance and steps in this language, with (`text`, `tagged`) or without (`coded`) messages.
    public var instructions: (text: InstructionText, messages: Directions.Guidance.Messages)?
    /// The side traffic keeps to (guidance turns roundabouts and U-turns by it).
    public var drivingSide = DrivingSide.right
    /// TomTom `sectionType`s (lowercased) besides `TRAVEL_MODE`.
    public var sectionTypes: Set<String> = []
    /// Whether live traffic counted (TomTom's `traffic`): only then is its delay reported.
    public var traffic = true

    public init() {}
}

extension CalculateRouteResponse {
    /// TomTom Calculate Route for a plan: its routes (alternatives with where they deviate), the
    /// optimized waypoint order and the snapped waypoints.
    public init(_ plan: Plan, graph: RoadGraph, timeZone: TimeZone, options: RouteDocumentOptions) {
        let best = plan.best
        var bodies: [RouteBody] = []
        for (i, route) in plan.routes.enumerated() {
            var body = RouteBody(route, graph: graph, timeZone: timeZone, options: options)
            if i > 0 {
                let (distance, time) = Self.deviation(route, from: best)
                body.summary.deviationDistance = distance
                body.summary.deviationTime = time
            }
            bodies.append(body)
        }
        var optimized: [OptimizedWaypoint]?
        if let order = plan.waypointOrder {
            // TomTom counts intermediate waypoints only, 0-based.
            optimized = order.dropFirst().dropLast().enumerated().map { newIndex, provided in
                OptimizedWaypoint(providedIndex: provided - 1, optimizedIndex: newIndex)
            }.sorted { $0.providedIndex < $1.providedIndex }
        }
        let waypoints = best.waypoints.map { w in
            SnappedWaypoint(input: LatLon(rounding: w.input), snapped: LatLon(rounding: w.snapped),
                            distanceInMeters: (w.distanceMeters * 100).rounded() / 100, name: w.roadName)
        }
        self.init(routes: bodies, optimizedWaypoints: optimized, waypoints: waypoints)
    }

    /// Where an alternative leaves the best route: metres and seconds from the start.
    static func deviation(_ route: TimedRoute, from best: TimedRoute) -> (Int, Int) {
        let a = route.legs.flatMap(\.arcs), b = best.legs.flatMap(\.arcs)
        var meters = 0.0, seconds = 0.0
        for (p, q) in zip(a, b) {
            guard p.arc == q.arc else { break }
            meters += p.lengthMeters
            seconds += p.durationSeconds
        }
        return (Int(meters.rounded()), Int(seconds.rounded()))
    }
}

extension RouteSummary {
    /// TomTom's traffic delay: the time with live traffic against the time without it (the
    /// profiles', or free flow without them), and the length live traffic slows.
    mutating func setTrafficDelay(live: Double, withoutLive: Double, delayedMeters: Double) {
        trafficDelayInSeconds = max(0, Int((live - withoutLive).rounded()))
        trafficLengthInMeters = Int(delayedMeters.rounded())
    }
}

extension RouteBody {
    /// One route as TomTom's `routes[]` element, with Wayfinder's `steps` and `advisoryNotices`.
    public init(_ route: TimedRoute, graph: RoadGraph, timeZone: TimeZone, options: RouteDocumentOptions) {
        var legs: [RouteLegBody] = []
        var time = route.departure
        for leg in route.legs {
            var legSummary = RouteSummary(lengthMeters: leg.lengthMeters, durationSeconds: leg.durationSeconds, departure: time, timeZone: timeZone)
            if route.mode.usesTraffic && options.traffic, let live = leg.liveSeconds, let historic = leg.historicalSeconds {
                legSummary.setTrafficDelay(live: live, withoutLive: historic, delayedMeters: leg.liveDelayedMeters)
            }
            var body = RouteLegBody(summary: legSummary, points: nil)
            if options.includePoints && options.encodesPoints {
                body.encodedPolyline = PolylineCodec.encode(leg.points, precision: RouteLegBody.encodedPrecision)
                body.encodedPolylinePrecision = RouteLegBody.encodedPrecision
            } else if options.includePoints {
                body.points = leg.points.map(LatLon.init(rounding:))
            }
            legs.append(body)
            time += leg.durationSeconds
        }
        var summary = RouteSummary(lengthMeters: route.lengthMeters, durationSeconds: route.durationSeconds, departure: route.departure,
                                   timeZone: timeZone)
        let c = route.comparison
        if route.mode.usesTraffic {
            if options.traffic, let live = c.liveSeconds, let historic = c.historicalSeconds {
                summary.setTrafficDelay(live: live, withoutLive: historic, delayedMeters: c.liveDelayedMeters)
            }
            summary.fuelConsumptionInLiters = route.fuelLiters.map { ($0 * 1000).rounded() / 1000 }
        }
        // TomTom names the times under other assumptions only for computeTravelTimeFor=all.
        if options.travelTimesForAll && route.mode.usesTraffic {
            summary.noTrafficTravelTimeInSeconds = Int(c.freeFlowSeconds.rounded())
            // Only where a weekly profile applies: without one there is no historical time to give.
            summary.historicTrafficTravelTimeInSeconds = c.profilesApply ? c.historicalSeconds.map { Int($0.rounded()) } : nil
            summary.liveTrafficIncidentsTravelTimeInSeconds = c.liveSeconds.map { Int($0.rounded()) }
        } else if options.travelTimesForAll {
            summary.noTrafficTravelTimeInSeconds = Int(route.durationSeconds.rounded())
        }
        summary.timeSources = route.timeSources
        let pointCount = options.includePoints ? route.legs.reduce(0) { $0 + $1.points.count } : 0
        var sections = Self.travelModeSections(route, graph: graph, lastPoint: max(0, pointCount - 1), withPoints: options.includePoints)
        if options.includePoints { sections += Self.sections(route, graph: graph, wanted: options.sectionTypes) }
        self.init(summary: summary, legs: legs, sections: sections)
        if let (text, messages) = options.instructions {
            let guidance = GuidanceBuilder(graph: graph, text: text, drivingSide: options.drivingSide).build(route)
            self.guidance = guidance.tomTom(messages: messages)
            steps = guidance.tomTomSteps
            if options.includePoints && options.sectionTypes.contains("lanes") { self.sections += guidance.laneSections }
        }
        advisoryNotices = Advisories.notices(route, graph: graph)
    }

    /// TomTom's `TRAVEL_MODE` sections: the route's mode throughout, except that a bicycle route
    /// has `pedestrian` pieces where the bicycle is walked (as TomTom marks them).
    static func travelModeSections(_ route: TimedRoute, graph: RoadGraph, lastPoint: Int, withPoints: Bool) -> [RouteSection] {
        let mode = route.mode.rawValue
        let whole = [RouteSection(startPointIndex: 0, endPointIndex: lastPoint, sectionType: "TRAVEL_MODE", travelMode: mode)]
        guard withPoints, route.mode == .bicycle else { return whole }
        var out: [RouteSection] = []
        var at = 0
        for run in RouteSections.runs(.pedestrian, route, graph: graph) {
            if run.startPoint > at {
                out.append(RouteSection(startPointIndex: at, endPointIndex: run.startPoint, sectionType: "TRAVEL_MODE", travelMode: mode))
            }
            out.append(RouteSection(startPointIndex: run.startPoint, endPointIndex: run.endPoint, sectionType: "TRAVEL_MODE",
                                    travelMode: "pedestrian"))
            at = run.endPoint
        }
        if out.isEmpty { return whole }
        if at < lastPoint {
            out.append(RouteSection(startPointIndex: at, endPointIndex: lastPoint, sectionType: "TRAVEL_MODE", travelMode: mode))
        }
        return out
    }

    /// TomTom's names of the sections a route can have, in the order they are listed.
    static let factSections: [(name: String, type: String, fact: RouteSections.Fact)] = [
        ("toll", "TOLL_ROAD", .toll), ("tollroad", "TOLL_ROAD", .toll), ("ferry", "FERRY", .ferry),
        ("motorway", "MOTORWAY", .motorway), ("tunnel", "TUNNEL", .tunnel), ("unpaved", "UNPAVED", .unpaved),
        ("pedestrian", "PEDESTRIAN", .pedestrian),
    ]

    /// The requested sections: runs of arcs with a fact, then (`traffic`) live slowdowns.
    static func sections(_ route: TimedRoute, graph: RoadGraph, wanted: Set<String>) -> [RouteSection] {
        guard !wanted.isEmpty else { return [] }
        var sections: [RouteSection] = []
        for (name, type, fact) in factSections where wanted.contains(name) {
            for run in RouteSections.runs(fact, route, graph: graph) {
                sections.append(RouteSection(startPointIndex: run.startPoint, endPointIndex: run.endPoint, sectionType: type))
            }
        }
        if wanted.contains("traffic") {
            for slow in RouteSections.slowdowns(route, graph: graph) {
                var s = RouteSection(startPointIndex: slow.startPoint, endPointIndex: slow.endPoint, sectionType: "TRAFFIC")
                s.simpleCategory = slow.closed ? "ROAD_CLOSURE" : "JAM"
                s.effectiveSpeedInKmh = Int(slow.speedKmh.rounded())
                s.delayInSeconds = Int(slow.delaySeconds.rounded())
                s.magnitudeOfDelay = slow.delaySeconds > 300 ? 3 : slow.delaySeconds > 60 ? 2 : 1
                sections.append(s)
            }
        }
        return sections
    }
}

extension RouteLegBody {
    /// The digits TomTom encodes leg polylines with.
    public static let encodedPrecision = 7
}

extension RouteSummary {
    /// Length and time rounded to whole metres and seconds; the arrival is the departure plus the rounded time.
    public init(lengthMeters: Double, durationSeconds: Double, departure: Double, timeZone: TimeZone) {
        self.init(lengthInMeters: Int(lengthMeters.rounded()), travelTimeInSeconds: Int(durationSeconds.rounded()),
                  departureTime: RFC3339.format(Date(timeIntervalSince1970: departure), in: timeZone),
                  arrivalTime: RFC3339.format(Date(timeIntervalSince1970: departure + durationSeconds.rounded()), in: timeZone))
    }
}
