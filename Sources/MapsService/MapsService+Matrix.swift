public import Foundation
public import MapsAPI
import MapsAPIMapping
public import GeoCore
public import RoadNetwork
public import Routing
public import RoutePlanning

extension MapsService {
    /// TomTom Matrix Routing v2; `maxCells` is the synchronous or the asynchronous limit.
    public func matrix(_ query: MatrixQuery, maxCells: Int) throws(APIError) -> MatrixResponse {
        MatrixResponse(try computeMatrix(query, maxCells: maxCells), mode: query.mode.rawValue,
                       originsParameter: query.originsParameter, destinationsParameter: query.destinationsParameter, timeZone: timeZone)
    }

    /// Checks a matrix query (sizes, times, modes) and computes it.
    public func computeMatrix(_ q: MatrixQuery, maxCells: Int) throws(APIError) -> Matrix {
        try checkMatrix(q, maxCells: maxCells)
        guard let matrix = planning.matrix(q.request) else {
            throw APIError(.unavailable, "this dataset has no routing hierarchy for \(q.mode.rawValue); re-import it")
        }
        return matrix
    }

    /// The 400 a matrix query gets (sizes, times, modes), before anything is computed or charged.
    public func checkMatrix(_ q: MatrixQuery, maxCells: Int) throws(APIError) {
        _ = try graph(q.mode)
        guard !q.origins.isEmpty else { throw .badInput("\(q.originsParameter) is empty: give at least one point", parameter: q.originsParameter) }
        guard !q.destinations.isEmpty else { throw .badInput("\(q.destinationsParameter) is empty: give at least one point", parameter: q.destinationsParameter) }
        guard q.cellCount <= maxCells else {
            throw APIError(.badInput, "\(q.origins.count) × \(q.destinations.count) = \(q.cellCount) cells is beyond this server's limit of \(maxCells) (--max-matrix-cells\(maxCells == limits.maxAsyncMatrixCells ? " for asynchronous matrices" : "; larger matrices go to /routing/matrix/2/async"))", parameter: q.originsParameter)
        }
        guard q.departAt == nil || q.arriveAt == nil else { throw .badInput("departAt and arriveAt cannot be combined; give one of them", parameter: "arriveAt") }
        for (name, time) in [("departAt", q.departAt), ("arriveAt", q.arriveAt)] {
            guard let time else { continue }
            guard RouteQuery.timeRange.contains(time) else { throw .badInput("\(name) must be between 1970-01-01 and 9999-12-31", parameter: name) }
            guard q.routeType == .fastest else { throw .badInput("\(name) applies to the fastest route type", parameter: name) }
            guard q.avoid.isEmpty else { throw .badInput("\(name) cannot be combined with avoid in a matrix", parameter: "avoid") }
        }
        if let arriveAt = q.arriveAt, arriveAt <= clock() {
            throw .badInput("arriveAt \(RFC3339.format(arriveAt, in: timeZone)) is in the past; choose a later arrival time", parameter: "arriveAt")
        }
    }

    /// OSRM `/table/v1`: durations (s) and distances (m) between points on the weights in force.
    /// `fallbackSpeed` (m/s) fills cells without a route with the straight-line distance at that
    /// speed, from the input or the snapped points; durations are multiplied by `scaleFactor`.
    /// `exclude` roads are never used; a point with no road near is `mapMatchingFailure` (OSRM's
    /// `NoSegment`) unless a fallback speed fills its cells.
    public func osrmTable(_ points: [Coordinate], sources: [Int], destinations: [Int], mode: TravelMode, exclude: Set<Avoidance> = [],
                          snapping: [WaypointSnapping] = [], durations: Bool, distances: Bool,
                          fallbackSpeed: Double? = nil, fallbackFromSnapped: Bool = false, scaleFactor: Double = 1) throws(APIError) -> OSRM.TableResponse {
        var query = MatrixQuery(origins: sources.map { points[$0] }, destinations: destinations.map { points[$0] })
        query.mode = mode
        query.originsParameter = "sources"
        query.avoid = exclude
        query.strictAvoid = true
        if !snapping.isEmpty {
            query.originSnapping = sources.map { snapping[$0] }
            query.destinationSnapping = destinations.map { snapping[$0] }
        }
        let matrix = try computeMatrix(query, maxCells: limits.maxTableCells)
        for (list, indices, name) in [(matrix.origins, sources, "sources"), (matrix.destinations, destinations, "destinations")] where fallbackSpeed == nil {
            if let k = list.firstIndex(where: { $0 == nil }) {
                throw APIError(.mapMatchingFailure, "Could not find a matching segment for coordinate \(indices[k]) (\(name))", parameter: name)
            }
        }
        var options = OSRMTableOptions()
        options.durations = durations
        options.distances = distances
        options.fallbackSpeed = fallbackSpeed
        options.fallbackFromSnapped = fallbackFromSnapped
        options.scaleFactor = scaleFactor
        return OSRM.TableResponse(matrix, origins: query.origins, destinations: query.destinations, sameAs: { sources[$0] == destinations[$1] }, options: options)
    }
}
