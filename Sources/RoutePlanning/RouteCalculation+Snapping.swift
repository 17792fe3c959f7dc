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

    /// The nearest road of the large part beyond the snapping limit, for a point whose nearest road
    /// lies in a small piece (not one a ferry serves) with no road of the large part within the
    /// limit: the mode reaches that piece only over roads it may not drive, and OSRM's second
    /// candidate starts or ends the route at the large part's road instead. Not with a radius or
    /// a bearing of the caller's.
    func fallbackSnap(_ point: Coordinate, _ rule: WaypointSnapping, _ candidates: (nearest: Snap?, large: Snap?)) -> Snap? {
        guard candidates.large == nil, let near = candidates.nearest, near.inSmallComponent, !near.inFerryOnlyPiece,
              rule.radiusMeters == nil, rule.bearing == nil else { return nil }
        return graph.snapCandidates(point, maxDistanceMeters: planner.unreachablePieceFallbackMeters, excluding: isUndesirable).large
    }

    func snapCandidates(_ point: Coordinate, _ rule: WaypointSnapping) -> (nearest: Snap?, large: Snap?) {
        rule.candidates(near: point, defaultLimit: planner.maxSnapDistanceMeters, graph: graph)
    }
}
