import Foundation
import HTTPServer
import MapsAPI
import MapsAPIMapping
import MapsService
import GeoCore

/// TomTom Calculate Reachable Range (`GET|POST /routing/1/calculateReachableRange/{lat},{lon}/json`)
/// and Valhalla's isochrones (`GET /isochrone?json=…`, `POST /isochrone`).
struct ReachHandlers {
    let app: MapsApplication

    /// TomTom parameters with no counterpart here, refused by name rather than ignored.
    static let refused: [String: String] = [
        "energyBudgetInkWh": "electric consumption models are not supported; use timeBudgetInSec, distanceBudgetInMeters or fuelBudgetInLiters",
        "constantSpeedConsumptionInLitersPerHundredkm": "fuel budgets use the built-in consumption model eco routes use (5.5 L/100 km at 80 km/h, stops and turns included)",
        "currentFuelInLiters": "fuel budgets use the built-in consumption model",
        "auxiliaryPowerInLitersPerHour": "fuel budgets use the built-in consumption model",
        "fuelEnergyDensityInMJoulesPerLiter": "fuel budgets use the built-in consumption model",
        "accelerationEfficiency": "fuel budgets use the built-in consumption model",
        "decelerationEfficiency": "fuel budgets use the built-in consumption model",
        "uphillEfficiency": "fuel budgets use the built-in consumption model",
        "downhillEfficiency": "fuel budgets use the built-in consumption model",
        "vehicleWeight": "vehicle dimensions are not supported",
        "vehicleEngineType": "only the built-in combustion model is supported",
        "hilliness": "no elevation data is available",
        "windingness": "thrilling reachable ranges are not supported",
        "report": "effectiveSettings reports are not supported",
    ]

    func reachableRange(_ request: HTTPRequest) -> HTTPResponse {
        do throws(APIError) {
            let service = app.service
            let contentType = request.pathParameters["contentType"] ?? "json"
            guard contentType == "json" else { throw APIError.badInput("content type \"\(contentType)\" is not supported; use json", parameter: "contentType") }
            let origin = try CoordinateText.parse(request.pathParameters["origin"] ?? "", parameter: "origin")
            if request.method == .post && !request.body.isEmpty {
                let body = try JSONResponse.decode([String: EmptyValue].self, from: request.body)
                if let key = body.keys.sorted().first {
                    throw APIError.badInput("\(key) in the POST body is not supported (avoidAreas, avoidVignette and allowVignette are not implemented)", parameter: key)
                }
            }
            let q = QueryReader(query: request.query)
            for (name, reason) in Self.refused.sorted(by: { $0.key < $1.key }) where q.string(name) != nil {
                guard name != "vehicleEngineType" || q.string(name) != "combustion" else { continue }
                throw APIError.badInput("\(name) is not supported: \(reason)", parameter: name)
            }
            let budgets: [(String, ReachQuery.Budget)] = [("timeBudgetInSec", .time), ("distanceBudgetInMeters", .distance), ("fuelBudgetInLiters", .fuel)]
            let given = budgets.filter { q.string($0.0) != nil }
            guard given.count == 1, let (name, budget) = given.first else {
                throw APIError.badInput(given.isEmpty ? "a budget is needed: timeBudgetInSec, distanceBudgetInMeters or fuelBudgetInLiters"
                                                     : "give exactly one budget, not \(given.map(\.0).joined(separator: " and "))",
                                        parameter: given.first?.0 ?? "timeBudgetInSec")
            }
            guard let level = try q.double(name, range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) else { throw APIError.badInput("\(name) is missing", parameter: name) }
            var query = ReachQuery(origin: origin, levels: [level])
            query.budget = budget
            query.levelParameter = name
            try Self.readCommon(q, into: &query, service: service)
            return JSONResponse.ok(try service.reachableRange(query))
        } catch {
            return JSONResponse.error(error)
        }
    }

    /// `travelMode`, `routeType`, `traffic`, `avoid`, `departAt`, `arriveAt`.
    static func readCommon(_ q: QueryReader, into query: inout ReachQuery, service: MapsService) throws(APIError) {
        let modeText = q.string("travelMode") ?? "car"
        guard let mode = Vocabulary.travelModes[modeText] else {
            throw APIError.badInput("travelMode \(modeText) is not supported; use car, taxi, bicycle or pedestrian", parameter: "travelMode")
        }
        query.mode = mode
        guard let routeType = Vocabulary.routeType(try q.oneOf("routeType", Vocabulary.routeTypes, default: .fastest), for: mode) else {
            throw APIError.badInput(Vocabulary.bicycleThrillingRefusal, parameter: "routeType")
        }
        query.routeType = routeType
        query.traffic = try q.bool("traffic", default: true)
        for name in q.list("avoid") {
            guard let kind = Vocabulary.avoidance(name), kind != .alreadyUsedRoads else {
                throw APIError.badInput("avoid \(name) is not supported here; use tollRoads, motorways, ferries or unpavedRoads", parameter: "avoid")
            }
            query.avoid.insert(kind)
        }
        let now = service.clock()
        for name in ["departAt", "arriveAt"] {
            guard let text = q.string(name), text != "now" || name == "departAt" else { continue }
            guard let d = TimeInput.parse(text, timeZone: service.timeZone, now: now) else {
                throw APIError.badInput("\(name) \"\(text.prefix(40))\" is not an RFC 3339 date-time", parameter: name)
            }
            if text == "now" { continue }
            if name == "departAt" { query.departAt = d } else { query.arriveAt = d }
        }
    }

    // MARK: Valhalla

    func isochrone(_ request: HTTPRequest) -> HTTPResponse {
        do throws(ValhallaFailure) {
            let body: [UInt8]
            if request.method == .post && !request.body.isEmpty { body = request.body } else if let json = request.query["json"] {
                body = Array(json.utf8)
            } else {
                throw ValhallaFailure(100, "the request needs a json= parameter or a JSON body")
            }
            let r: Valhalla.IsochroneRequest
            do {
                r = try JSONResponse.decode(Valhalla.IsochroneRequest.self, from: body, parameter: "json")
                // Valhalla options this server does not implement are refused by name, not ignored.
                let keys = try JSONResponse.decode([String: EmptyValue].self, from: body, parameter: "json").keys
                if let unknown = keys.sorted().first(where: { !Self.isochroneKeys.contains($0) }) {
                    throw ValhallaFailure(101, "\(unknown) is not supported here; supported: \(Self.isochroneKeys.sorted().joined(separator: ", "))")
                }
            } catch let error as APIError {
                throw ValhallaFailure(100, "Failed to parse json request: \(error.message)")
            } catch let error as ValhallaFailure {
                throw error
            } catch {
                throw ValhallaFailure(100, "Failed to parse json request")
            }
            let service = app.service
            let query = try Self.reachQuery(r, service: service)
            do {
                let answer = try service.isochrone(query, polygons: r.polygons ?? false, colors: r.contours.map(\.color),
                                                   showLocations: r.show_locations ?? false, id: r.id)
                return JSONResponse.ok(answer)
            } catch {
                let code = error.code == .mapMatchingFailure ? 171 : 199
                // The service names the point as TomTom does; a Valhalla request calls it `locations`.
                let parameter = error.parameter == "origin" ? "locations" : error.parameter
                throw ValhallaFailure(code, error.message + (parameter.map { " (\($0))" } ?? ""))
            }
        } catch {
            return HTTPResponse.json(JSONResponse.encode(Valhalla.ErrorBody(code: error.code, message: error.message)), status: .badRequest)
        }
    }

    struct ValhallaFailure: Error {
        var code: Int
        var message: String
        init(_ code: Int, _ message: String) { self.code = code; self.message = message }
    }

    static let isochroneKeys: Set<String> = ["locations", "costing", "contours", "polygons", "denoise", "generalize", "date_time", "reverse",
                                             "show_locations", "id"]

    static let costings: [String: ReachQuery.Mode] = ["auto": .car, "taxi": .taxi, "bicycle": .bicycle, "pedestrian": .pedestrian]

    static func reachQuery(_ r: Valhalla.IsochroneRequest, service: MapsService) throws(ValhallaFailure) -> ReachQuery {
        guard r.locations.count == 1, let location = r.locations.first else {
            throw ValhallaFailure(120, "locations: exactly one location is needed for an isochrone, \(r.locations.count) given")
        }
        guard Coordinate.isValid(latitude: location.lat, longitude: location.lon) else {
            throw ValhallaFailure(130, "locations: latitude must be in [-90, 90] and longitude in [-180, 180]")
        }
        guard let mode = costings[r.costing] else {
            throw ValhallaFailure(125, "costing \(r.costing) is not supported; use auto, taxi, bicycle or pedestrian")
        }
        guard !r.contours.isEmpty, r.contours.count <= 10 else { throw ValhallaFailure(111, "contours: give 1 to 10 contours") }
        let times = r.contours.compactMap(\.time), distances = r.contours.compactMap(\.distance)
        guard times.count == r.contours.count || distances.count == r.contours.count, times.isEmpty || distances.isEmpty else {
            throw ValhallaFailure(111, "contours: every contour needs a time (minutes) or every one a distance (km), not both")
        }
        var query = ReachQuery(origin: Coordinate(latitude: location.lat, longitude: location.lon),
                               levels: times.isEmpty ? distances.map { $0 * 1000 } : times.map { $0 * 60 })
        query.budget = times.isEmpty ? .distance : .time
        query.levelParameter = times.isEmpty ? "contours.distance" : "contours.time"
        query.mode = mode
        query.reverse = r.reverse ?? false
        query.denoise = r.denoise ?? 1
        query.generalizeMeters = r.generalize
        if let dt = r.date_time {
            switch dt.type {
            case 0, 3: break
            case 1, 2:
                guard let text = dt.value, let d = TimeInput.parse(text, timeZone: service.timeZone, now: service.clock()) else {
                    throw ValhallaFailure(162, "date_time.value must be a local date-time YYYY-MM-DDTHH:MM")
                }
                if dt.type == 1 { query.departAt = d } else { query.arriveAt = d }
            default: throw ValhallaFailure(163, "date_time.type must be 0, 1, 2 or 3")
            }
        }
        return query
    }
}

/// Any JSON value, decoded only to learn that a key is present.
struct EmptyValue: Decodable {
    init(from decoder: any Decoder) throws {}
}
