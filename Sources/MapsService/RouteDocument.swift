import Foundation
import MapsAPI
import Routing
import RoadNetwork
import GeoCore

/// Turns a `Route` into the TomTom-shaped response document.
enum RouteDocument {
    static func response(_ route: Route, graph: RoadGraph, departure: Date, timeZone: TimeZone,
                         includePoints: Bool) -> CalculateRouteResponse {
        var legs: [RouteLegBody] = []
        var time = departure
        for leg in route.legs {
            let arrival = time.addingTimeInterval(leg.durationSeconds)
            legs.append(RouteLegBody(summary: summary(length: leg.lengthMeters, duration: leg.durationSeconds,
                                                      departure: time, arrival: arrival, timeZone: timeZone),
                                     points: includePoints ? leg.points.map(latLon) : nil))
            time = arrival
        }
        let total = summary(length: route.lengthMeters, duration: route.durationSeconds, departure: departure,
                            arrival: departure.addingTimeInterval(route.durationSeconds), timeZone: timeZone)
        let pointCount = legs.reduce(0) { $0 + ($1.points?.count ?? 0) }
        let body = RouteBody(summary: total, legs: legs,
                             sections: [RouteSection(startPointIndex: 0, endPointIndex: max(0, pointCount - 1),
                                                     sectionType: "TRAVEL_MODE", travelMode: graph.mode == .taxi ? "car" : graph.mode.rawValue)])
        let waypoints = route.endpoints.map { e in
            SnappedWaypoint(input: latLon(e.input), snapped: latLon(e.snap.point),
                            distanceInMeters: (e.snap.distanceMeters * 100).rounded() / 100,
                            name: graph.name(of: graph.edgeWay[e.snap.edge.index]))
        }
        return CalculateRouteResponse(routes: [body], waypoints: waypoints)
    }

    static func summary(length: Double, duration: Double, departure: Date, arrival: Date, timeZone: TimeZone) -> RouteSummary {
        RouteSummary(lengthInMeters: Int(length.rounded()), travelTimeInSeconds: Int(duration.rounded()),
                     departureTime: RFC3339.format(departure, in: timeZone), arrivalTime: RFC3339.format(arrival, in: timeZone))
    }

    static func latLon(_ c: Coordinate) -> LatLon {
        LatLon(latitude: (c.latitude * 1e5).rounded() / 1e5, longitude: (c.longitude * 1e5).rounded() / 1e5)
    }
}
