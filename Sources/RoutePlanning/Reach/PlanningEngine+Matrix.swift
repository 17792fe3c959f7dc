import Foundation
import Dispatch
import GeoCore
import RoadNetwork
import Routing

extension PlanningEngine {
    /// Every origin to every destination; nil for a mode the dataset lacks.
    ///
    /// Leaving now, one bucket many-to-many on the hierarchy (`CCHManyToMany`) over the weights in
    /// force; with `departAt`/`arriveBy` on the fastest routes, one exact time-dependent search per
    /// row (per column when arriving), on the request's threads.
    public func matrix(_ request: MatrixRequest) -> Matrix? {
        guard let engine = engine(request.mode) else { return nil }
        let graph = engine.graph, snapshot = engine.snapshot
        let maxSnap = maxSnapDistanceMeters
        func snap(_ points: [Coordinate], _ rules: [WaypointSnapping]) -> ([RouteEndpoint?], [NearbyRoad?]) {
            var endpoints: [RouteEndpoint?] = [], roads: [NearbyRoad?] = []
            for (i, p) in points.enumerated() {
                let rule = i < rules.count ? rules[i] : WaypointSnapping()
                let candidates = rule.candidates(near: p, defaultLimit: maxSnap, graph: graph)
                guard let s = RoadGraph.preferred(candidates) else { endpoints.append(nil); roads.append(nil); continue }
                endpoints.append(rule.endpoint(p, s, graph: graph))
                roads.append(NearbyRoad(point: s.point, distanceMeters: s.distanceMeters, roadName: graph.name(of: graph.edgeWay[s.edge.index])))
            }
            return (endpoints, roads)
        }
        let (origins, originRoads) = snap(request.origins, request.originSnapping)
        let (destinations, destinationRoads) = snap(request.destinations, request.destinationSnapping)
        let key = MetricKey(routeType: request.routeType, avoid: request.avoid, strict: request.strictAvoid,
                            live: request.traffic && graph.mode.usesTraffic)
        let now = clock().timeIntervalSince1970
        let started = DispatchTime.now().uptimeNanoseconds
        let from = origins.map { $0?.positions ?? [] }, to = destinations.map { $0?.positions ?? [] }
        var cells: [[MatrixCell]]
        if request.isTimeDependent {
            let table = key.live ? snapshot.table : snapshot.historicalTable
            // The week's lower bounds (lowered where live speeds are faster): they hold for every
            // cell whatever its hours, which a band's would not. Without them (no weekly profiles),
            // plain Dijkstras.
            let bounds = snapshot.potentials.map { snapshot.liveBound(live: key.live, band: nil) ?? $0.week }
            cells = Self.timeDependentCells(graph: graph, table: table, bounds: bounds, timing: request.timing, from: from, to: to,
                                            threads: request.threads, scratch: engine.matrixScratch)
        } else {
            guard let (prepared, time) = snapshot.measured(.time, key: key), let (_, length) = snapshot.measured(.length, key: key) else {
                return nil
            }
            let search = CCHManyToMany(graph: graph, metric: prepared.metric, time: time.cch, length: length.cch,
                                       timeWeights: (time.arc, time.turn), lengthWeights: (length.arc, length.turn))
            let table = search.table(sources: from, targets: to, threads: request.threads)
            cells = table.map { row in
                row.map { cell in
                    guard let cell else { return .noRoute }
                    let seconds = Double(cell.timeMs) / 1000
                    return .route(seconds: seconds, meters: Double(cell.lengthCm) / 100, departure: now, arrival: now + seconds)
                }
            }
        }
        for i in cells.indices {
            for j in cells[i].indices {
                if origins[i] == nil { cells[i][j] = .noSegment(origin: true) } else if destinations[j] == nil { cells[i][j] = .noSegment(origin: false) }
            }
        }
        return Matrix(cells: cells, origins: originRoads, destinations: destinationRoads,
                      searchSeconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }

    static func timeDependentCells(graph: RoadGraph, table: TravelTimeTable, bounds: LowerBoundHierarchy?, timing: PlanRequest.Timing,
                                   from: [[ArcPosition]], to: [[ArcPosition]], threads: Int,
                                   scratch: ObjectPool<TimeDependentManyToMany.Scratch>) -> [[MatrixCell]] {
        let arriving: Double?, leaving: Double
        switch timing {
        case .arriveBy(let t): arriving = t; leaving = t
        case .departAt(let t): arriving = nil; leaving = t
        case .leaveNow: preconditionFailure("a time-dependent matrix needs a moment")
        }
        // Rows leaving, columns arriving: one A* search each towards the nearest of the other ends,
        // split over the threads, each with one potential for all its searches.
        let count = arriving == nil ? from.count : to.count
        nonisolated(unsafe) let lines = UnsafeMutableBufferPointer<[TimeDependentManyToMany.Cell?]>.allocate(capacity: max(1, count))
        lines.initialize(repeating: [])
        defer { lines.deinitialize(); lines.deallocate() }
        let workers = max(1, min(threads, count))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            scratch.withScratch { memory in
                var search = TimeDependentManyToMany(graph: graph, table: table, scratch: memory)
                func run(_ goal: TimeDependentManyToMany.Goal?) {
                    for k in stride(from: w, to: count, by: workers) {
                        if let arriving {
                            lines[k] = to[k].isEmpty ? [] : search.column(to: to[k], arrival: arriving, from: from, goal: goal)
                        } else {
                            lines[k] = from[k].isEmpty ? [] : search.row(from: from[k], departure: leaving, to: to, goal: goal)
                        }
                    }
                }
                guard let bounds else { return run(nil) }
                bounds.hierarchy.withPotential(towardsTargets: arriving == nil) { potential in
                    run(.init(potential: potential, bound: bounds.bound, ends: arriving == nil ? to : from, graph: graph))
                }
            }
        }
        return (0..<from.count).map { i in
            (0..<to.count).map { j in
                let line = arriving == nil ? lines[i] : lines[j]
                let index = arriving == nil ? j : i
                guard index < line.count, let cell = line[index] else { return .noRoute }
                let departure = arriving.map { $0 - cell.seconds } ?? leaving
                return .route(seconds: cell.seconds, meters: cell.lengthCm / 100, departure: departure, arrival: departure + cell.seconds)
            }
        }
    }
}
