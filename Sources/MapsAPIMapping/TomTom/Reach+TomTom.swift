public import Foundation
public import MapsAPI
public import RoutePlanning

extension ReachableRangeResponse {
    /// TomTom Calculate Reachable Range: the outline of the largest area of a one-budget reach.
    public init(_ reach: Reach) {
        let outline = reach.contours.first?.polygons.first?.outer.dropLast() ?? []
        self.init(reachableRange: .init(center: LatLon(rounding: reach.center), boundary: outline.map { LatLon(rounding: $0) }))
    }
}

extension MatrixResponse {
    /// TomTom Matrix Routing v2: one cell per origin and destination, row by row, with a route
    /// summary or the error of that cell; `originsParameter`/`destinationsParameter` name the lists.
    public init(_ matrix: Matrix, mode: String, originsParameter: String, destinationsParameter: String, timeZone: TimeZone) {
        var data: [Cell] = []
        data.reserveCapacity(matrix.cells.reduce(0) { $0 + $1.count })
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
                        message: "the \(origin ? "origin" : "destination") is not near any road usable by \(mode)",
                        target: origin ? originsParameter : destinationsParameter)))
                case .noRoute:
                    data.append(.init(originIndex: i, destinationIndex: j, detailedError: .init(
                        code: APIError.Code.noRouteFound.rawValue, message: "no \(mode) route between these points")))
                }
            }
        }
        self.init(data: data, statistics: .init(totalCount: data.count, successes: successes, failures: data.count - successes))
    }
}
