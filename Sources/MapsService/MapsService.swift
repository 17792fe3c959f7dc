public import Foundation
public import Dataset
public import MapsAPI
public import RoadNetwork
import Routing
import GeoCore

/// The application layer shared by the CLI and the HTTP server: dataset in, API documents out.
/// It knows nothing of HTTP; handlers and commands translate their inputs into its queries.
public final class MapsService: @unchecked Sendable {
    public let dataset: Dataset
    let planners: [TravelMode: RoutePlanner]
    let pools: [TravelMode: ScratchPool]
    let hierarchies: [TravelMode: CCHMetric]
    let cchPools: [TravelMode: CCHScratchPool]
    public var clock: @Sendable () -> Date = { Date() }

    public init(dataset: Dataset) {
        self.dataset = dataset
        var planners: [TravelMode: RoutePlanner] = [:]
        var pools: [TravelMode: ScratchPool] = [:]
        var hierarchies: [TravelMode: CCHMetric] = [:]
        var cchPools: [TravelMode: CCHScratchPool] = [:]
        for (mode, graph) in dataset.graphs {
            let planner = RoutePlanner(graph: graph, metric: .fastest(graph))
            planners[mode] = planner
            pools[mode] = ScratchPool(capacity: graph.arcCount)
            if let structure = dataset.hierarchies[mode] {
                hierarchies[mode] = CCHMetric(structure: structure, turnWeight: planner.metric.turnWeight)
                cchPools[mode] = CCHScratchPool(nodeCount: structure.nodeCount)
            }
        }
        self.planners = planners
        self.pools = pools
        self.hierarchies = hierarchies
        self.cchPools = cchPools
    }

    public var timeZone: TimeZone { dataset.timeZone }

    func planner(_ mode: TravelMode) throws(APIError) -> RoutePlanner {
        guard let p = planners[mode] else {
            throw .badInput("this dataset has no \(mode.rawValue) graph (it has: \(dataset.manifest.profiles.joined(separator: ", ")))",
                            parameter: "travelMode")
        }
        return p
    }

    /// TomTom Calculate Route.
    public func calculateRoute(_ query: RouteQuery) throws(APIError) -> CalculateRouteResponse {
        guard query.waypoints.count >= 2 else { throw .badInput("a route needs at least two locations", parameter: "locations") }
        let planner = try planner(query.mode)
        let outcome: RouteOutcome
        if let cch = hierarchies[query.mode], let pool = cchPools[query.mode] {
            outcome = pool.withScratch { scratch in
                var search = CCHLegSearch(graph: planner.graph, metric: planner.metric, cch: cch, scratch: scratch)
                return planner.route(query.waypoints, using: &search)
            }
        } else {
            outcome = pools[query.mode]!.withScratch { scratch in
                var search = DijkstraLegSearch(graph: planner.graph, metric: planner.metric, scratch: scratch)
                return planner.route(query.waypoints, using: &search)
            }
        }
        switch outcome {
        case .noSegment(let index, let c):
            throw APIError(.mapMatchingFailure, "\(Self.waypointName(index, of: query.waypoints.count)) (\(c.formatted(decimals: 6))) is not near any road usable by \(query.mode.rawValue) (limit \(Int(planner.maxSnapDistanceMeters)) m)",
                           parameter: "locations")
        case .noRoute(let leg):
            throw APIError(.noRouteFound, "no \(query.mode.rawValue) route from \(Self.waypointName(leg, of: query.waypoints.count)) to \(Self.waypointName(leg + 1, of: query.waypoints.count))")
        case .found(let route):
            let departure = query.departAt ?? clock()
            return RouteDocument.response(route, graph: planner.graph, departure: departure, timeZone: timeZone,
                                          includePoints: query.includePoints)
        }
    }

    static func waypointName(_ index: Int, of count: Int) -> String {
        index == 0 ? "the origin" : index == count - 1 ? "the destination" : "waypoint \(index)"
    }
}
