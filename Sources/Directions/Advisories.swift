public import RoadNetwork
public import Routing
public import RoutePlanning

/// Notices a driver should know before leaving, as MKRoute.advisoryNotices has them.
public enum Advisories {
    /// What the roads of the route say, then the avoided kinds it still uses and the live closures near it.
    public static func notices(_ route: TimedRoute, graph: RoadGraph) -> [String] {
        let usedAvoided = route.usedAvoidances
        let closuresNearby = route.closuresNearby
        var flags: WayFlags = []
        var pushing = false
        for leg in route.legs {
            for piece in leg.arcs where piece.lengthMeters > 0 {
                flags.formUnion(graph.wayFlags[graph.way(of: piece.arc).index])
                pushing = pushing || graph.isPushing(piece.arc)
            }
        }
        var notices: [String] = []
        if flags.contains(.toll) { notices.append("This route includes toll roads.") }
        if flags.contains(.ferry) { notices.append("This route includes a ferry crossing; check its timetable.") }
        if flags.contains(.unpaved) { notices.append("This route includes unpaved roads.") }
        if flags.contains(.restrictedAccess) { notices.append("This route uses roads with restricted access (private, destination or delivery only).") }
        if flags.contains(.psvOnly) { notices.append("This route uses lanes or roads reserved for taxis and public service vehicles.") }
        if pushing { notices.append("Parts of this route require walking your bicycle.") }
        for kind in usedAvoided {
            notices.append("This route uses \(describe(kind)) because no route avoids them.")
        }
        for (i, w) in route.waypoints.enumerated() where w.movedOffUnreachablePiece {
            let name = i == 0 ? "The start" : i == route.waypoints.count - 1 ? "The destination" : "Waypoint \(i)"
            notices.append("\(name) lies on a road reached only over roads this mode may not use (tracks, paths or restricted roads); "
                           + "the route \(i == 0 ? "starts" : "ends") at the nearest road it can reach, \(Int(w.distanceMeters.rounded())) m from the point.")
        }
        if closuresNearby > 0 {
            notices.append(closuresNearby == 1 ? "A road near this route is closed (live traffic); the route avoids it."
                           : "\(closuresNearby) roads near this route are closed (live traffic); the route avoids them.")
        }
        return notices
    }

    static func describe(_ kind: Avoidance) -> String {
        switch kind {
        case .tollRoads: "toll roads"
        case .motorways: "motorways"
        case .ferries: "ferries"
        case .unpavedRoads: "unpaved roads"
        case .alreadyUsedRoads: "roads already driven"
        }
    }
}
