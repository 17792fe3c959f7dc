import Foundation
public import MapsAPI
public import RoadNetwork
public import GeoCore
import Routing

extension MapsService {
    /// Durations (s) and distances (m) between points, for OSRM's table service: one CCH query
    /// per cell on the traffic snapshot's current weights; nil where no route exists.
    public struct Table: Sendable {
        public var durations: [[Double?]]
        public var distances: [[Double?]]
        public var snapped: [(location: Coordinate, distance: Double, name: String)]
    }

    public func table(_ points: [Coordinate], sources: [Int], destinations: [Int], mode: TravelMode) throws(APIError) -> Table {
        let engine = try engine(mode)
        let snapshot = engine.snapshot
        let graph = engine.graph
        var endpoints: [RouteEndpoint?] = []
        var snapped: [(Coordinate, Double, String)] = []
        for p in points {
            if let snap = graph.snap(p, maxDistanceMeters: engine.core.planner.maxSnapDistanceMeters) {
                endpoints.append(RouteEndpoint(input: p, snap: snap, graph: graph))
                snapped.append((snap.point, snap.distanceMeters, graph.name(of: graph.edgeWay[snap.edge.index])))
            } else {
                endpoints.append(nil)
                snapped.append((p, 0, ""))
            }
        }
        let prepared = snapshot.prepared(MetricKey(live: mode.usesTraffic))
        var durations = [[Double?]](repeating: [Double?](repeating: nil, count: destinations.count), count: sources.count)
        var distances = durations
        let planner = engine.core.planner
        for (i, s) in sources.enumerated() {
            for (j, d) in destinations.enumerated() {
                guard let a = endpoints[s], let b = endpoints[d] else { continue }
                if s == d { durations[i][j] = 0; distances[i][j] = 0; continue }
                let outcome: RouteOutcome
                if let cch = prepared.cch {
                    outcome = engine.cchScratch.withScratch { scratch in
                        var search = CCHLegSearch(graph: graph, metric: prepared.metric, cch: cch, scratch: scratch)
                        return planner.route([a, b], using: &search)
                    }
                } else {
                    outcome = engine.searchScratch.withScratch { scratch in
                        var search = DijkstraLegSearch(graph: graph, metric: prepared.metric, scratch: scratch)
                        return planner.route([a, b], using: &search)
                    }
                }
                guard let route = outcome.route,
                      let timed = RouteTiming.timed(route, graph: graph, table: snapshot.table, departure: clock().timeIntervalSince1970) else { continue }
                durations[i][j] = (timed.durationSeconds * 10).rounded() / 10
                distances[i][j] = (timed.lengthMeters * 10).rounded() / 10
            }
        }
        return Table(durations: durations, distances: distances, snapped: snapped)
    }
}
