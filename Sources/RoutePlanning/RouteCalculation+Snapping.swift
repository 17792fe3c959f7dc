import RoadNetwork
import Routing
import GeoCore

/// A waypoint's own snapping rules (OSRM's `radiuses`, `bearings`, `approaches`).
extension RouteCalculation {
    func snapping(_ i: Int) -> WaypointSnapping {
        i < request.snapping.count ? request.snapping[i] : WaypointSnapping()
    }

    func snapLimit(_ rule: WaypointSnapping) -> Double {
        rule.radiusMeters ?? planner.maxSnapDistanceMeters
    }

    func snapCandidates(_ point: Coordinate, _ rule: WaypointSnapping) -> (nearest: Snap?, large: Snap?) {
        rule.candidates(near: point, defaultLimit: planner.maxSnapDistanceMeters, graph: graph)
    }
}
