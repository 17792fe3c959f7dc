public import Foundation
public import MapsAPI

/// How far one gets: a budget from a point (TomTom's reachable range, Valhalla's isochrones).
public struct ReachRequest: Sendable {
    public enum Budget: Sendable, Hashable {
        case seconds(Double)
        case meters(Double)
        case liters(Double)
    }

    public var origin: Coordinate
    public var budget: Budget
    public var travelMode: TravelMode = .car
    public var routeType: RouteType = .fastest
    /// `.departAt`: where one gets leaving then; `.arriveBy`: from where one can start to be here by then.
    public var timing: RouteTiming = .now
    public var useTraffic = true
    public var avoid: Set<Avoidance> = []

    public init(from origin: Coordinate, budget: Budget) {
        self.origin = origin
        self.budget = budget
    }
}

/// Isochrones: several budgets at once (minutes or kilometres), nested polygons with holes.
public struct IsochroneRequest: Sendable {
    public enum Contours: Sendable, Hashable {
        case minutes([Double])
        case kilometers([Double])
    }

    public var origin: Coordinate
    public var contours: Contours
    public var travelMode: TravelMode = .car
    public var timing: RouteTiming = .now
    /// Towards the point: from where it is reached within each budget.
    public var reverse = false
    /// Keep polygons at least this share of each contour's largest (1 keeps only the largest).
    public var denoise = 1.0

    public init(from origin: Coordinate, contours: Contours) {
        self.origin = origin
        self.contours = contours
    }
}

/// A reachable area: the outline's points (counter-clockwise) and the point on the road it starts from.
public struct ReachableRange: Sendable {
    public var center: Coordinate
    public var boundary: [Coordinate]
}

/// One isochrone contour: its budget (minutes or km) and its polygons, each an outer ring
/// followed by its holes.
public struct Isochrone: Sendable {
    public var value: Double
    public var polygons: [[[Coordinate]]]
}

extension WayfinderClient {
    /// TomTom Calculate Reachable Range.
    public func reachableRange(_ request: ReachRequest) async throws(WayfinderError) -> ReachableRange {
        guard request.origin.isValid else { throw .invalidQuery("\(request.origin) is not a valid coordinate", parameter: "origin") }
        var query: [(String, String)] = [("travelMode", request.travelMode.rawValue), ("routeType", request.routeType.rawValue),
                                         ("traffic", request.useTraffic ? "true" : "false")]
        switch request.budget {
        case .seconds(let s): query.append(("timeBudgetInSec", String(s)))
        case .meters(let m): query.append(("distanceBudgetInMeters", String(m)))
        case .liters(let l): query.append(("fuelBudgetInLiters", String(l)))
        }
        switch request.timing {
        case .now: break
        case .departAt(let d): query.append(("departAt", RouteRequest.rfc3339(d)))
        case .arriveBy(let d): query.append(("arriveAt", RouteRequest.rfc3339(d)))
        }
        for a in request.avoid.sorted(by: { $0.rawValue < $1.rawValue }) { query.append(("avoid", a.rawValue)) }
        let path = "/routing/1/calculateReachableRange/\(Coordinate.degrees(request.origin.latitude, 7)),\(Coordinate.degrees(request.origin.longitude, 7))/json"
        let data = try await send(Endpoint("GET", path, query: query))
        let range = try ResponseDecoding.decode(ReachableRangeResponse.self, from: data).reachableRange
        return ReachableRange(center: Coordinate(latitude: range.center.latitude, longitude: range.center.longitude),
                              boundary: range.boundary.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) })
    }

    /// Valhalla-shaped isochrones, smallest contour first.
    public func isochrones(_ request: IsochroneRequest) async throws(WayfinderError) -> [Isochrone] {
        guard request.origin.isValid else { throw .invalidQuery("\(request.origin) is not a valid coordinate", parameter: "origin") }
        let contours: [Valhalla.IsochroneRequest.Contour] = switch request.contours {
        case .minutes(let m): m.map { .init(time: $0) }
        case .kilometers(let k): k.map { .init(distance: $0) }
        }
        let costing = switch request.travelMode {
        case .car: "auto"
        case .taxi: "taxi"
        case .bicycle: "bicycle"
        case .pedestrian: "pedestrian"
        }
        var body = Valhalla.IsochroneRequest(locations: [.init(lat: request.origin.latitude, lon: request.origin.longitude)], costing: costing, contours: contours)
        body.polygons = true
        body.denoise = request.denoise
        body.reverse = request.reverse
        switch request.timing {
        case .now: break
        case .departAt(let d): body.date_time = .init(type: 1, value: RouteRequest.rfc3339(d))
        case .arriveBy(let d): body.date_time = .init(type: 2, value: RouteRequest.rfc3339(d))
        }
        let encoded: Data
        do { encoded = try JSONEncoder().encode(body) } catch { throw .invalidQuery("the request could not be encoded", parameter: "contours") }
        let data = try await send(Endpoint("POST", "/isochrone", body: encoded, contentType: "application/json"))
        let collection = try ResponseDecoding.decode(Valhalla.FeatureCollection.self, from: data)
        func point(_ p: [Double]) -> Coordinate { Coordinate(latitude: p.count > 1 ? p[1] : 0, longitude: p.first ?? 0) }
        return collection.features.compactMap { feature -> Isochrone? in
            guard let value = feature.properties.contour else { return nil }
            switch feature.geometry {
            case .polygon(let rings): return Isochrone(value: value, polygons: [rings.map { $0.map(point) }])
            case .multiPolygon(let polygons): return Isochrone(value: value, polygons: polygons.map { $0.map { $0.map(point) } })
            default: return nil
            }
        }.reversed()
    }

    /// Travel times from every origin to every destination at a moment (TomTom Matrix Routing v2):
    /// `departAt` times each cell exactly with the traffic expected then; `arriveBy` gives each
    /// cell's latest departure. At most the server's synchronous cell limit (2,500 by default).
    public func travelTimes(from origins: [Coordinate], to destinations: [Coordinate], timing: RouteTiming,
                            travelMode: TravelMode = .car, useTraffic: Bool = true) async throws(WayfinderError) -> TimedTravelTimeMatrix {
        guard !origins.isEmpty, !destinations.isEmpty else { throw .invalidQuery("give at least one origin and one destination", parameter: "origins") }
        var options = MatrixRequestBody.Options(travelMode: travelMode.rawValue, traffic: useTraffic ? "live" : "historical")
        switch timing {
        case .now: options.departAt = "now"
        case .departAt(let d): options.departAt = RouteRequest.rfc3339(d)
        case .arriveBy(let d): options.arriveAt = RouteRequest.rfc3339(d)
        }
        let body = MatrixRequestBody(origins: origins.map { .init(point: LatLon(latitude: $0.latitude, longitude: $0.longitude)) },
                                     destinations: destinations.map { .init(point: LatLon(latitude: $0.latitude, longitude: $0.longitude)) }, options: options)
        let encoded: Data
        do { encoded = try JSONEncoder().encode(body) } catch { throw .invalidQuery("the request could not be encoded", parameter: "origins") }
        let data = try await send(Endpoint("POST", "/routing/matrix/2", body: encoded, contentType: "application/json"))
        return TimedTravelTimeMatrix(try ResponseDecoding.decode(MatrixResponse.self, from: data), origins: origins.count, destinations: destinations.count)
    }
}

/// A matrix with each cell's departure and arrival.
public struct TimedTravelTimeMatrix: Sendable {
    public struct Cell: Sendable {
        public var travelTimeSeconds: Int
        public var lengthMeters: Int
        public var departure: String
        public var arrival: String
    }

    /// `cells[i][j]`: from origin i to destination j; nil when there is no route.
    public var cells: [[Cell?]]

    init(_ response: MatrixResponse, origins: Int, destinations: Int) {
        var cells = [[Cell?]](repeating: [Cell?](repeating: nil, count: destinations), count: origins)
        for c in response.data where c.originIndex < origins && c.destinationIndex < destinations {
            guard let s = c.routeSummary else { continue }
            cells[c.originIndex][c.destinationIndex] = Cell(travelTimeSeconds: s.travelTimeInSeconds, lengthMeters: s.lengthInMeters,
                                                            departure: s.departureTime, arrival: s.arrivalTime)
        }
        self.cells = cells
    }
}
