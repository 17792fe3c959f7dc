public import Foundation
public import MapsAPI
public import GeoCore
public import RoadNetwork
import Routing
public import RoutePlanning

extension MapsService {
    /// TomTom Matrix Routing v2; `maxCells` is the synchronous or the asynchronous limit.
    public func matrix(_ query: MatrixQuery, maxCells: Int) throws(APIError) -> MatrixResponse {
        let matrix = try computeMatrix(query, maxCells: maxCells)
        var data: [MatrixResponse.Cell] = []
        data.reserveCapacity(query.cellCount)
        var successes = 0
        for (i, row) in matrix.cells.enumerated() {
            for (j, cell) in row.enumerated() {
                switch cell {
                case .route(let seconds, let meters, let departure, let arrival):
                    successes += 1
                    data.append(.init(originIndex: i, destinationIndex: j, routeSummary: RouteSummary(
                        lengthInMeters: Int(meters.rounded()), travelTimeInSeconds: Int(seconds.rounded()),
                        departureTime: RFC3339.format(Date(timeIntervalSince1970: departure), in: timeZone),
                        arrivalTime: RFC3339.format(Date(timeIntervalSince1970: arrival), in: timeZone))))
                case .noSegment(let origin):
                    data.append(.init(originIndex: i, destinationIndex: j, detailedError: .init(
                        code: APIError.Code.mapMatchingFailure.rawValue,
                        message: "the \(origin ? "origin" : "destination") is not near any road usable by \(query.mode.rawValue)",
                        target: origin ? query.originsParameter : query.destinationsParameter)))
                case .noRoute:
                    data.append(.init(originIndex: i, destinationIndex: j, detailedError: .init(
                        code: APIError.Code.noRouteFound.rawValue, message: "no \(query.mode.rawValue) route between these points")))
                }
            }
        }
        return MatrixResponse(data: data, statistics: .init(totalCount: data.count, successes: successes, failures: data.count - successes))
    }

    /// Checks a matrix query (sizes, times, modes) and computes it.
    public func computeMatrix(_ q: MatrixQuery, maxCells: Int) throws(APIError) -> Matrix {
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
        guard let matrix = planning.matrix(q.request) else {
            throw APIError(.unavailable, "this dataset has no routing hierarchy for \(q.mode.rawValue); re-import it")
        }
        return matrix
    }

    /// OSRM `/table/v1`: durations (s) and distances (m) between points on the weights in force.
    /// `fallbackSpeed` (m/s) fills cells without a route with the straight-line distance at that
    /// speed, from the input or the snapped points; durations are multiplied by `scaleFactor`.
    public func osrmTable(_ points: [Coordinate], sources: [Int], destinations: [Int], mode: TravelMode, durations: Bool, distances: Bool,
                          fallbackSpeed: Double? = nil, fallbackFromSnapped: Bool = false, scaleFactor: Double = 1) throws(APIError) -> OSRM.TableResponse {
        var query = MatrixQuery(origins: sources.map { points[$0] }, destinations: destinations.map { points[$0] })
        query.mode = mode
        query.originsParameter = "sources"
        let matrix = try computeMatrix(query, maxCells: max(limits.maxMatrixCells, 10_000))
        func waypoint(_ road: NearbyRoad?, _ input: Coordinate) -> OSRM.Waypoint {
            let p = road?.point ?? input
            return OSRM.Waypoint(hint: "", distance: ((road?.distanceMeters ?? 0) * 100).rounded() / 100, name: road?.roadName ?? "",
                                 location: [OSRM.round6(p.longitude), OSRM.round6(p.latitude)], nodes: nil)
        }
        var seconds = [[Double?]](), meters = [[Double?]]()
        for (i, row) in matrix.cells.enumerated() {
            var d: [Double?] = [], m: [Double?] = []
            for (j, cell) in row.enumerated() {
                if sources[i] == destinations[j] { d.append(0); m.append(0); continue }
                if case .route(let s, let length, _, _) = cell {
                    d.append((s * scaleFactor * 10).rounded() / 10)
                    m.append((length * 10).rounded() / 10)
                } else if let fallbackSpeed {
                    let a = fallbackFromSnapped ? matrix.origins[i]?.point ?? query.origins[i] : query.origins[i]
                    let b = fallbackFromSnapped ? matrix.destinations[j]?.point ?? query.destinations[j] : query.destinations[j]
                    let crow = Geodesy.distanceMeters(a, b)
                    d.append((crow / fallbackSpeed * scaleFactor * 10).rounded() / 10)
                    m.append((crow * 10).rounded() / 10)
                } else {
                    d.append(nil); m.append(nil)
                }
            }
            seconds.append(d); meters.append(m)
        }
        return OSRM.TableResponse(durations: durations ? seconds : nil, distances: distances ? meters : nil,
                                  sources: zip(matrix.origins, query.origins).map(waypoint),
                                  destinations: zip(matrix.destinations, query.destinations).map(waypoint))
    }
}
