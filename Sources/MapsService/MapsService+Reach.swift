public import Foundation
public import MapsAPI
import MapsAPIMapping
import GeoCore
import RoadNetwork
import Routing
public import RoutePlanning

extension MapsService {
    /// TomTom Calculate Reachable Range: the outline of the largest area reachable within one budget.
    public func reachableRange(_ query: ReachQuery) throws(APIError) -> ReachableRangeResponse {
        guard query.levels.count == 1 else {
            throw .badInput("exactly one budget is needed: timeBudgetInSec, distanceBudgetInMeters or fuelBudgetInLiters", parameter: query.levelParameter)
        }
        return ReachableRangeResponse(try reach(query))
    }

    /// Valhalla `/isochrone`: one Feature per contour, largest first.
    public func isochrone(_ query: ReachQuery, polygons: Bool, colors: [String?], showLocations: Bool, id: String?) throws(APIError) -> Valhalla.FeatureCollection {
        var options = IsochroneOptions()
        options.metric = query.budget == .time ? "time" : "distance"
        options.polygons = polygons
        options.colors = colors
        options.showLocations = showLocations
        options.id = id
        return Valhalla.FeatureCollection(try reach(query), origin: query.origin, options: options)
    }

    /// Checks a reach query and runs it; every outcome but a found reach is the error TomTom answers with.
    public func reach(_ query: ReachQuery) throws(APIError) -> Reach {
        try validate(query)
        switch planning.reach(query.request) {
        case .found(let reach): return reach
        case .noSegment:
            throw APIError(.mapMatchingFailure, "the origin (\(query.origin.formatted(decimals: 6))) is not near any road usable by \(query.mode.rawValue) (limit \(Int(planning.maxSnapDistanceMeters)) m)", parameter: "origin")
        case .unavailable:
            throw APIError(.unavailable, "this dataset has no routing hierarchy for \(query.mode.rawValue); re-import it")
        }
    }

    func validate(_ q: ReachQuery) throws(APIError) {
        _ = try graph(q.mode)
        let p = q.levelParameter
        guard !q.levels.isEmpty else { throw .badInput("a budget is needed", parameter: p) }
        let (ceiling, unit): (Double, String) = switch q.budget {
        case .time: (Double(limits.maxIsochroneMinutes) * 60, "s")
        case .distance: (limits.maxReachMeters, "m")
        case .fuel: (limits.maxReachLiters, "L")
        }
        for level in q.levels {
            guard level.isFinite, level > 0 else { throw .badInput("\(p) must be greater than 0", parameter: p) }
            guard level <= ceiling else {
                throw .badInput("\(p) \(Self.trim(level)) \(unit) is beyond this server's limit of \(Self.trim(ceiling)) \(unit) (--max-isochrone-minutes \(limits.maxIsochroneMinutes))", parameter: p)
            }
        }
        guard q.departAt == nil || q.arriveAt == nil else { throw .badInput("departAt and arriveAt cannot be combined; give one of them", parameter: "arriveAt") }
        for (name, time) in [("departAt", q.departAt), ("arriveAt", q.arriveAt)] {
            guard let time else { continue }
            guard RouteQuery.timeRange.contains(time) else { throw .badInput("\(name) must be between 1970-01-01 and 9999-12-31", parameter: name) }
            guard q.budget == .time && q.routeType == .fastest else {
                throw .badInput("\(name) applies to time budgets on the fastest route type (distance and fuel do not depend on the time of day here)", parameter: name)
            }
        }
        guard (0...1).contains(q.denoise) else { throw .badInput("denoise must be between 0 and 1", parameter: "denoise") }
        if let g = q.generalizeMeters, !(g.isFinite && g >= 0 && g <= 10_000) { throw .badInput("generalize must be between 0 and 10000 metres", parameter: "generalize") }
    }

    static func trim(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
