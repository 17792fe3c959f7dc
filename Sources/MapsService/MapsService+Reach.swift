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
        let reach = try reach(query)
        let outline = reach.contours.first?.polygons.first?.outer.dropLast() ?? []
        return ReachableRangeResponse(reachableRange: .init(center: LatLon(rounding: reach.center), boundary: outline.map { LatLon(rounding: $0) }))
    }

    /// Valhalla `/isochrone`: one Feature per contour, largest first.
    public func isochrone(_ query: ReachQuery, polygons: Bool, colors: [String?], showLocations: Bool, id: String?) throws(APIError) -> Valhalla.FeatureCollection {
        let reach = try reach(query)
        let perUnit = query.budget == .time ? 60.0 : 1000.0  // minutes or kilometres
        let metric = query.budget == .time ? "time" : "distance"
        func position(_ c: Coordinate) -> [Double] { [Self.round6(c.longitude), Self.round6(c.latitude)] }
        var features: [Valhalla.Feature] = []
        for (i, contour) in reach.contours.enumerated().reversed() {
            let geometry: Valhalla.Geometry
            let rings = contour.polygons.map { [$0.outer.map(position)] + $0.holes.map { $0.map(position) } }
            if polygons {
                geometry = rings.count == 1 ? .polygon(rings[0]) : .multiPolygon(rings)
            } else {
                let lines = contour.polygons.map { $0.outer.map(position) }
                geometry = lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines)
            }
            let color = i < colors.count ? colors[i] : nil
            let value = (contour.level / perUnit * 1000).rounded() / 1000
            features.append(.init(geometry: geometry, properties: .init(contour: value, metric: metric, color: "#" + (color ?? Self.defaultColor(i, of: reach.contours.count)))))
        }
        if showLocations {
            features.append(.init(geometry: .multiPoint([position(query.origin)]), properties: .init(contour: nil, metric: nil, color: nil)))
            features.append(.init(geometry: .multiPoint([position(reach.center)]), properties: .init(contour: nil, metric: nil, color: nil)))
        }
        return Valhalla.FeatureCollection(features: features, id: id)
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
    static func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

    /// Valhalla's palette idea: from red (nearest) through orange to green (farthest).
    static func defaultColor(_ i: Int, of count: Int) -> String {
        let palette = ["ff0000", "ff8000", "ffd000", "80c000", "00a040", "0080c0"]
        guard count > 1 else { return palette[0] }
        return palette[min(palette.count - 1, i * (palette.count - 1) / (count - 1))]
    }
}
