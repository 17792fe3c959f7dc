public import MapsAPI
public import MapsAPIMapping
public import MapMatching
public import RoadNetwork
import Directions
import RoutePlanning
import GeoCore

/// A map matching request (OSRM's `/match/v1`).
public struct MatchQuery: Sendable {
    public var points: [TracePoint]
    public var mode: TravelMode
    /// `gaps=split` (default): a gap of more than 60 s between timestamps starts a new matching;
    /// `ignore` never splits at gaps.
    public var splitAtGaps = true
    /// `tidy=true`: fixes within 10 m of the previous kept one are left out (their tracepoint is null).
    public var tidy = false
    public var route = OSRMRouteOptions()

    public init(points: [TracePoint], mode: TravelMode) {
        self.points = points
        self.mode = mode
    }
}

extension MapsService {
    /// The largest accuracy (`radiuses`) a fix may claim: candidates are looked for within 3 σ, at most 150 m.
    public static let maxMatchRadiusMeters = 50.0

    /// OSRM `/match/v1`: the trace matched to roads (`NoMatch` as a map matching failure).
    public func osrmMatch(_ query: MatchQuery) throws(APIError) -> OSRM.MatchResponse {
        let graph = try graph(query.mode)
        try validateTrace(query.points, parameter: "coordinates")
        var parameters = MatchParameters()
        parameters.splitGapSeconds = query.splitAtGaps ? 60 : nil
        parameters.tidyMeters = query.tidy ? 10 : nil
        guard let outcome = planning.match(query.points, mode: query.mode, parameters: parameters), !outcome.stretches.isEmpty else {
            throw APIError(.mapMatchingFailure, "Could not match the trace: no two consecutive points could be matched to \(query.mode.rawValue) roads", parameter: "coordinates")
        }
        let side = drivingSide
        let text = query.route.steps ? InstructionText(language: "en-GB", units: .metric) : nil
        let matchings = outcome.stretches.map { stretch in
            let guidance = text.map { GuidanceBuilder(graph: graph, text: $0, drivingSide: side).build(stretch.route) }
            return OSRM.Matching(confidence: (stretch.matching.confidence * 1000).rounded() / 1000,
                                 route: OSRM.Route(stretch.route, guidance: guidance, options: query.route, graph: graph))
        }
        let tracepoints = outcome.points.map { point in
            point.map { p in
                let location = LatLon(rounding: p.snap.point)
                return OSRM.Tracepoint(distance: (p.snap.distanceMeters * 100).rounded() / 100, name: graph.name(of: graph.edgeWay[p.snap.edge.index]),
                                       location: [location.longitude, location.latitude], matchings_index: p.matching,
                                       waypoint_index: p.waypoint, alternatives_count: p.alternatives)
            }
        }
        return OSRM.MatchResponse(matchings: matchings, tracepoints: tracepoints)
    }

    /// A trace has two to `maxTracePoints` fixes, with times (where given) that never go back.
    func validateTrace(_ points: [TracePoint], parameter: String) throws(APIError) {
        guard points.count >= 2 else { throw .badInput("a trace needs at least two points, \(points.count) given", parameter: parameter) }
        guard points.count <= limits.maxTracePoints else { throw TraceFormats.tooMany(points.count, limits.maxTracePoints) }
        let timed = points.filter { $0.time != nil }.count
        guard timed == 0 || timed == points.count else { throw .badInput("either every point has a time or none has", parameter: "timestamps") }
        for i in 1..<points.count {
            if let a = points[i - 1].time, let b = points[i].time, b < a {
                throw .badInput("timestamps must not decrease: point \(i) (\(Int(b))) is before point \(i - 1) (\(Int(a)))", parameter: "timestamps")
            }
        }
        for (i, p) in points.enumerated() {
            if let r = p.accuracyMeters, !(r > 0 && r <= Self.maxMatchRadiusMeters) {
                throw .badInput("radius \(i) must be between 0 and \(Int(Self.maxMatchRadiusMeters)) metres", parameter: "radiuses")
            }
        }
    }
}
