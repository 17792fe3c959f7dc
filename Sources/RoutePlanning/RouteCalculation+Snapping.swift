import RoadNetwork
import Routing
import GeoCore

/// A waypoint's own snapping rules (OSRM's `radiuses`, `bearings`, `approaches`, `snapping`).
extension RouteCalculation {
    func snapping(_ i: Int) -> WaypointSnapping {
        i < request.snapping.count ? request.snapping[i] : WaypointSnapping()
    }

    func snapLimit(_ rule: WaypointSnapping) -> Double {
        rule.radiusMeters ?? planner.maxSnapDistanceMeters
    }

    /// The nearest road of any piece and the nearest of the large part, within the rule's radius;
    /// with a bearing, only roads with a direction of travel in range at the point count (as
    /// OSRM filters its candidate segments).
    func snapCandidates(_ point: Coordinate, _ rule: WaypointSnapping) -> (nearest: Snap?, large: Snap?) {
        guard rule.bearing != nil else { return graph.snapCandidates(point, maxDistanceMeters: snapLimit(rule)) }
        let admitted = rule.admittedSnaps(near: point, withinMeters: snapLimit(rule), graph: graph)
        return (admitted.first, admitted.first { !$0.inSmallComponent })
    }

    func allows(_ arc: ArcID, of snap: Snap, input: Coordinate, _ rule: WaypointSnapping) -> Bool {
        rule.allows(arc, of: snap, input: input, graph: graph)
    }
}
