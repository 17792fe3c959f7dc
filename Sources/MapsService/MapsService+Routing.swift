public import Foundation
public import MapsAPI
public import MapsAPIMapping
import Directions
public import GeoCore
public import RoadNetwork
public import RoutePlanning
public import Routing

extension MapsService {
    /// TomTom Calculate Route.
    public func calculateRoute(_ query: RouteQuery) throws(APIError) -> CalculateRouteResponse {
        let (plan, graph) = try plan(query)
        var options = RouteDocumentOptions()
        options.includePoints = query.includePoints
        options.encodesPoints = query.representation == .encodedPolyline
        options.travelTimesForAll = query.travelTimesForAll
        if let mode = query.instructions, let text = InstructionText(language: query.language, units: query.imperialUnits ? .imperial : .metric) {
            options.instructions = (text, mode == .coded ? .none : mode == .tagged ? .tagged : .text)
        }
        options.drivingSide = drivingSide
        options.sectionTypes = query.sectionTypes
        options.traffic = query.traffic
        return CalculateRouteResponse(plan, graph: graph, timeZone: timeZone, options: options)
    }

    /// OSRM `/route/v1`: the same plan in OSRM's shape (guidance only for `steps`, points only when shown).
    public func osrmRoute(_ query: RouteQuery, options: OSRMRouteOptions) throws(APIError) -> OSRM.RouteResponse {
        var query = query
        query.instructions = options.steps ? .text : nil
        // OSRM's profiles keep cars going straight on at waypoints unless told otherwise; bicycles and walkers not.
        if query.continueStraight == nil { query.continueStraight = query.mode == .car || query.mode == .taxi }
        let (plan, graph) = try plan(query)
        var guidance: [Directions.Guidance?] = []
        if options.steps, let text = InstructionText(language: query.language, units: query.imperialUnits ? .imperial : .metric) {
            guidance = plan.routes.map { GuidanceBuilder(graph: graph, text: text, drivingSide: drivingSide).build($0) }
        }
        return OSRM.RouteResponse(plan, guidance: guidance, options: options, graph: graph)
    }

    /// The side traffic keeps to in the dataset's country (from its country code when the import
    /// found one, else from its time zone).
    public var drivingSide: DrivingSide {
        dataset.manifest.drivingSide.flatMap(DrivingSide.init(rawValue:)) ?? DrivingSide(timeZoneIdentifier: timeZone.identifier)
    }

    /// Validates a query and plans it; every outcome but a found plan is the error TomTom answers with.
    func plan(_ query: RouteQuery) throws(APIError) -> (Plan, RoadGraph) {
        try validate(query)
        let graph = try graph(query.mode)
        if query.passThrough.isEmpty && query.supportingPoints.isEmpty { return (try planExactly(query), graph) }
        return (try planPassingThrough(query), graph)
    }

    /// Plans the query's waypoints as they are, each one ending a leg.
    func planExactly(_ query: RouteQuery) throws(APIError) -> Plan {
        let request = query.planRequest
        let outcome = planning.plan(request)
        if let plan = outcome.plan { return plan }
        throw APIError(outcome, of: request, now: clock().timeIntervalSince1970, timeZone: timeZone,
                       snapLimitMeters: planning.maxSnapDistanceMeters) ?? APIError(.internalError, "no plan")
    }

    func validate(_ q: RouteQuery) throws(APIError) {
        guard q.waypoints.count >= 2 else { throw .badInput("a route needs at least two locations", parameter: "locations") }
        guard q.waypoints.count <= limits.maxWaypoints else {
            throw .badInput("at most \(limits.maxWaypoints) locations are allowed, \(q.waypoints.count) were given", parameter: "locations")
        }
        guard q.departAt == nil || q.arriveAt == nil else {
            throw .badInput("departAt and arriveAt cannot be combined; give one of them", parameter: "arriveAt")
        }
        // Travel times are kept in seconds since 1970 (before it every road would read as closed).
        for (name, time) in [("departAt", q.departAt), ("arriveAt", q.arriveAt)] {
            if let time, !RouteQuery.timeRange.contains(time) {
                throw .badInput("\(name) must be between 1970-01-01 and 9999-12-31", parameter: name)
            }
        }
        guard (0...limits.maxAlternatives).contains(q.maxAlternatives) else {
            throw .badInput("maxAlternatives must be an integer in 0...\(limits.maxAlternatives)", parameter: "maxAlternatives")
        }
        if q.computeBestOrder && q.maxAlternatives > 0 {
            throw .badInput("computeBestOrder cannot be combined with maxAlternatives > 0", parameter: "computeBestOrder")
        }
        if q.computeBestOrder && !(q.passThrough.isEmpty && q.supportingPoints.isEmpty) {
            throw .badInput("computeBestOrder cannot be combined with circle locations or supportingPoints", parameter: "computeBestOrder")
        }
        if q.passThrough.keys.contains(where: { $0 == 0 || $0 == q.waypoints.count - 1 }) {
            throw .badInput("the origin and the destination cannot be circles; only intermediate locations can", parameter: "locations")
        }
        if q.computeBestOrder && q.arriveAt != nil {
            throw .badInput("computeBestOrder cannot be combined with arriveAt", parameter: "computeBestOrder")
        }
        if let heading = q.vehicleHeading, !(0..<360).contains(heading) {
            throw .badInput("vehicleHeading must be in 0...359 degrees", parameter: "vehicleHeading")
        }
        if InstructionText(language: q.language, units: .metric) == nil {
            throw .badInput("language \(q.language) is not supported; supported: \(InstructionText.supportedLanguages.joined(separator: ", ")) (any region, e.g. de-AT)",
                            parameter: "language")
        }
        _ = try graph(q.mode)
    }

    // MARK: OSRM nearest

    /// OSRM `/nearest/v1`: up to `number` roads near a point; nil when none is within the radius (1 km by default).
    public func osrmNearest(_ point: Coordinate, mode: TravelMode, number: Int, snapping: WaypointSnapping = WaypointSnapping(),
                            exclude: Set<Avoidance> = []) throws(APIError) -> OSRM.NearestResponse? {
        guard let roads = planning.nearest(point, mode: mode, count: number, snapping: snapping, avoid: exclude) else {
            throw .badInput("This dataset has no \(mode.rawValue) graph", parameter: "profile")
        }
        guard !roads.isEmpty else { return nil }
        return OSRM.NearestResponse(waypoints: roads.map { road in
            OSRM.Waypoint(hint: "", distance: (road.distanceMeters * 1e6).rounded() / 1e6, name: road.roadName,
                          location: [OSRM.round6(road.point.longitude), OSRM.round6(road.point.latitude)],
                          nodes: road.osmNodes.map { [$0.0, $0.1] })
        })
    }
}
