public import RoadNetwork

extension RoutePlanner {
    /// The latest departure that reaches the last waypoint by `arrival` (seconds since 1970),
    /// through every waypoint in order: legs are solved backwards, each waypoint's latest departure
    /// in each direction becoming the previous leg's deadline (a U-turn there costs its penalty).
    /// Returns the route (free-flow pieces; time it with `RouteTiming`) and the departure time.
    public func routeArrivingBy(_ endpoints: [RouteEndpoint], arrival: Double, using search: inout ArriveBySearch)
        -> (outcome: RouteOutcome, departure: Double?) {
        var deadlines = endpoints[endpoints.count - 1].positions.map { ArriveBySearch.Target(position: $0, deadline: arrival) }
        var legResults: [[ArriveBySearch.Departure?]] = []
        var legTargets: [[ArriveBySearch.Target]] = []
        /// Per leg (except the last): for each target position, the departure position it leads on to.
        var continuation: [[Int]] = []
        for leg in stride(from: endpoints.count - 2, through: 0, by: -1) {
            let sources = endpoints[leg].positions
            let result = search.solve(sources: sources, targets: deadlines)
            guard result.contains(where: { $0 != nil }) else { return (.noRoute(leg: leg), nil) }
            legResults.append(result)
            legTargets.append(deadlines)
            guard leg > 0 else { break }
            // Arriving at waypoint `leg` in direction q, then leaving in direction p (U-turn if different).
            var next: [ArriveBySearch.Target] = []
            var from: [Int] = []
            for arrivalPosition in sources {
                var bestTime: Double?
                var bestSource = -1
                for (p, departure) in result.enumerated() {
                    guard let departure else { continue }
                    let same = graph.arcOriginal[sources[p].arc.index] == graph.arcOriginal[arrivalPosition.arc.index]
                    let t = departure.time - (same ? 0 : Double(waypointUTurnPenalty) / 1000)
                    if bestTime.map({ t > $0 }) ?? true { bestTime = t; bestSource = p }
                }
                if let bestTime {
                    next.append(.init(position: arrivalPosition, deadline: bestTime))
                    from.append(bestSource)
                }
            }
            deadlines = next
            continuation.append(from)
        }
        // legResults[0] is the last leg; the final entry is leg 0.
        let first = legResults[legResults.count - 1]
        guard let (startIndex, start) = first.enumerated().compactMap({ i, d in d.map { (i, $0) } }).max(by: { $0.1.time < $1.1.time }) else {
            return (.noRoute(leg: 0), nil)
        }
        var legs: [RouteLeg] = []
        var sourceIndex = startIndex
        var departure: ArriveBySearch.Departure = start
        for leg in 0..<(endpoints.count - 1) {
            let resultIndex = legResults.count - 1 - leg
            let targets = legTargets[resultIndex]
            let arcs = departure.arcs.map { graph.arcOriginal[$0.index] }
            let startFraction = endpoints[leg].positions[sourceIndex].fraction
            let targetPosition = targets[max(0, departure.target)].position
            legs.append(RouteLeg(graph: graph, arcs: arcs, start: startFraction, end: targetPosition.fraction))
            guard leg + 1 < endpoints.count - 1 else { break }
            // The target this leg reached is a departure position of the next waypoint.
            let nextSource = continuation[continuation.count - 1 - leg][max(0, departure.target)]
            guard let next = legResults[resultIndex - 1][nextSource] else { return (.noRoute(leg: leg + 1), nil) }
            sourceIndex = nextSource
            departure = next
        }
        return (.found(Route(legs: legs, endpoints: endpoints, cost: 0)), start.time)
    }
}
