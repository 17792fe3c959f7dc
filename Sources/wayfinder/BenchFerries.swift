import Foundation
import DatasetImport
import MapsService
import RoadExtract
import RoadNetwork
import RoutePlanning
import Routing
import GeoCore

/// `wayfinder bench ferries`: how much of their time car routes spend on ferries, and whether a
/// road route within 1.5× the time exists for those that spend more than `maxShare` of it there
/// (such a route says the ferry's time is wrong, or the line is no crossing at all).
///
/// Pairs: N random ones over the graph's nodes, plus up to N that straddle ferries (a node 1–5 km
/// from each end of a ferry edge), since random pairs rarely meet the water.
enum BenchFerries {
    static let maxShare = 0.5
    static let roadFactor = 1.5

    static func run(extract: String, queries: Int, seed: UInt64) throws -> [String: Any] {
        let output = NSTemporaryDirectory() + "wayfinder-bench-ferries-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var options = DatasetImporter.Options(extractPath: extract, outputPath: output)
        options.profiles = [.car]
        options.skipPlaces = true
        options.skipBaseMap = true
        _ = try DatasetImporter(options: options).run()
        let service = try Commands.openService(output)
        let graph = try service.dataset.graph(.car)

        var ferryEdges: [Int] = []
        for e in 0..<graph.edgeCount where graph.wayFlags[graph.edgeWay[e].index].contains(.ferry) { ferryEdges.append(e) }
        var rng = SplitMix64(seed: seed)
        var pairs: [(Coordinate, Coordinate, String)] = []
        for _ in 0..<queries {
            pairs.append((graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))],
                          graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))], "random"))
        }
        if !ferryEdges.isEmpty {
            for _ in 0..<queries {
                let e = ferryEdges[Int(rng.next() % UInt64(ferryEdges.count))]
                guard let a = landNode(near: graph.nodeCoordinates[graph.edgeTail[e].index], graph: graph, rng: &rng),
                      let b = landNode(near: graph.nodeCoordinates[graph.edgeHead[e].index], graph: graph, rng: &rng) else { continue }
                pairs.append((a, b, "acrossFerry"))
            }
        }
        var routed = 0, withFerry = 0, overShare = 0
        var violations: [[String: Any]] = []
        var shares: [Double] = []
        for (a, b, kind) in pairs {
            guard let route = service.planning.plan(PlanRequest(waypoints: [a, b], mode: .car)).plan?.best else { continue }
            routed += 1
            let total = route.legs.reduce(0) { $0 + $1.durationSeconds }
            let ferry = route.legs.reduce(0) { sum, leg in
                sum + leg.arcs.filter { graph.wayFlags[graph.way(of: $0.arc).index].contains(.ferry) }.reduce(0) { $0 + $1.durationSeconds }
            }
            guard ferry > 0, total > 0 else { continue }
            withFerry += 1
            shares.append(ferry / total)
            guard ferry / total > maxShare else { continue }
            overShare += 1
            var request = PlanRequest(waypoints: [a, b], mode: .car)
            request.avoid = [.ferries]
            request.strictAvoid = true
            guard let road = service.planning.plan(request).plan?.best else { continue }
            let roadSeconds = road.legs.reduce(0) { $0 + $1.durationSeconds }
            if roadSeconds <= total * roadFactor {
                violations.append(["kind": kind, "from": [a.latitude, a.longitude], "to": [b.latitude, b.longitude],
                                   "seconds": BenchCommand.round3(total), "ferrySeconds": BenchCommand.round3(ferry),
                                   "roadSeconds": BenchCommand.round3(roadSeconds)])
            }
        }
        return [
            "extract": (extract as NSString).lastPathComponent, "seed": seed, "pairs": pairs.count, "routed": routed,
            "ferryEdges": ferryEdges.count, "routesWithFerry": withFerry, "ferryShare": BenchCommand.percentiles(shares),
            "maxShare": maxShare, "roadFactor": roadFactor, "overShare": overShare,
            "violations": violations.count, "violationExamples": Array(violations.prefix(10)),
        ]
    }

    /// A graph node 1–5 km from `point`, from up to 4000 random tries; nil when none is found.
    static func landNode(near point: Coordinate, graph: RoadGraph, rng: inout SplitMix64) -> Coordinate? {
        for _ in 0..<4000 {
            let c = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
            let d = Geodesy.distanceMeters(point, c)
            if d >= 1000 && d <= 5000 { return c }
        }
        return nil
    }
}
