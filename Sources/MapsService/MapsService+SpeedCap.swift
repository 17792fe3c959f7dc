import RoutePlanning

extension TimedRoute {
    /// The route driven no faster than `kmh` (TomTom's `vehicleMaxSpeed`): each arc takes at least
    /// its length at that speed, turns as before; free flow is capped the same way, and the
    /// historical and live times of a leg grow by what its own time grew (the cap is the
    /// vehicle's, the delay stays the traffic's). An arrive-by route leaves that much earlier.
    func capped(atKmh kmh: Double, keepingArrival: Bool) -> TimedRoute {
        guard kmh > 0 else { return self }
        let metersPerSecond = kmh / 3.6
        var route = self
        var added = 0.0, addedFree = 0.0
        for l in route.legs.indices {
            var legAdded = 0.0
            for a in route.legs[l].arcs.indices {
                let arc = route.legs[l].arcs[a]
                let floor = arc.lengthMeters / metersPerSecond
                let driving = arc.durationSeconds - arc.turnSeconds
                if driving < floor {
                    route.legs[l].arcs[a].durationSeconds = arc.turnSeconds + floor
                    legAdded += floor - driving
                }
                if arc.freeFlowSeconds < floor {
                    addedFree += floor - arc.freeFlowSeconds
                    route.legs[l].arcs[a].freeFlowSeconds = floor
                }
            }
            route.legs[l].historicalSeconds = route.legs[l].historicalSeconds.map { $0 + legAdded }
            route.legs[l].liveSeconds = route.legs[l].liveSeconds.map { $0 + legAdded }
            added += legAdded
        }
        route.comparison.freeFlowSeconds += addedFree
        route.comparison.historicalSeconds = route.comparison.historicalSeconds.map { $0 + added }
        route.comparison.liveSeconds = route.comparison.liveSeconds.map { $0 + added }
        if keepingArrival { route.departure -= added }
        return route
    }
}
