public import Foundation
public import MapsAPI
public import RoutePlanning

extension APIError {
    /// The error TomTom answers with for a plan that found no route (nil for a found plan), in the
    /// words of its request: which waypoint, which leg, by how much an arrival is missed.
    /// - Parameters:
    ///   - now: seconds since 1970 when the plan was made.
    ///   - snapLimitMeters: how far from a road a waypoint may be.
    public init?(_ outcome: PlanOutcome, of request: PlanRequest, now: Double, timeZone: TimeZone, snapLimitMeters: Double) {
        let count = request.waypoints.count
        let mode = request.mode.rawValue
        func name(_ i: Int) -> String { i == 0 ? "the origin" : i == count - 1 ? "the destination" : "waypoint \(i)" }
        switch outcome {
        case .found:
            return nil
        case .noSegment(let i):
            self.init(.mapMatchingFailure, "\(name(i)) (\(request.waypoints[i].formatted(decimals: 6))) is not near any road usable by \(mode) (limit \(Int(snapLimitMeters)) m)",
                      parameter: "locations")
        case .noRoute(let leg):
            var message = "no \(mode) route from \(name(leg)) to \(name(leg + 1))"
            if request.strictAvoid && !request.avoid.isEmpty { message += " that avoids \(request.avoid.map(\.rawValue).sorted().joined(separator: ", "))" }
            self.init(.noRouteFound, message)
        case .noWaypointOrder:
            self.init(.noRouteFound, "no order of the waypoints can be driven by \(mode)")
        case .closed:
            self.init(.noRouteFound, "the route is closed at the time it would be driven")
        case .arrivalPassed:
            let arrival = if case .arriveBy(let t) = request.timing { t } else { now }
            self = .badInput("arriveAt \(RFC3339.format(Date(timeIntervalSince1970: arrival), in: timeZone)) is in the past; choose a later arrival time",
                             parameter: "arriveAt")
        case .arrivalUnmeetable(let departure):
            var message = "No routes found satisfying requested time. Please choose different arrival time and try again."
            if let departure, case .arriveBy(let arrival) = request.timing {
                message += " (The fastest route needs \(Int((arrival - departure) / 60)) min; leaving now arrives \(Int((now - departure) / 60)) min late.)"
            }
            self.init(.noRouteFound, message)
        }
    }
}
