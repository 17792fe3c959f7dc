import Foundation
import HTTPServer
import MapsAPI
import MapsAPIMapping
import MapsService
import GeoCore

/// TomTom Matrix Routing v2: `POST /routing/matrix/2` (synchronous, up to `--max-matrix-cells`)
/// and `POST /routing/matrix/2/async` with `GET …/async/{jobId}` and `GET …/async/{jobId}/result`.
/// Every answer carries its cell count in `X-Matrix-Cells`: what the request costs, charged to the
/// caller's matrix-cells quota when the request is accepted. An asynchronous job is seen only by
/// the key that submitted it: another key gets 404, as for watches.
struct MatrixHandlers {
    let app: MapsApplication

    func matrix(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let service = app.service, limit = service.limits.maxMatrixCells
            let query = try Self.query(request, service: service)
            try service.checkMatrix(query, maxCells: limit)
            if let refusal = charge(query, request) { return refusal }
            var response = JSONResponse.ok(try service.matrix(query, maxCells: limit))
            response.headers.set("X-Matrix-Cells", String(query.cellCount))
            return response
        } catch {
            return JSONResponse.error(error)
        }
    }

    func submit(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let service = app.service
            let query = try Self.query(request, service: service)
            try service.checkMatrix(query, maxCells: service.limits.maxAsyncMatrixCells)
            if let refusal = charge(query, request) { return refusal }
            let status = app.matrixJobs.submit(query, owner: app.identity(request), service: service)
            var response = JSONResponse.ok(status, status: .accepted)
            response.headers.set("X-Matrix-Cells", String(query.cellCount))
            response.headers.set("Location", "/routing/matrix/2/async/\(status.jobId)")
            return response
        } catch {
            return JSONResponse.error(error)
        }
    }

    /// Charges the query's cells to the caller's matrix-cells quota, as `/table/v1` is: nil when
    /// within it, else the 413, 429 or 503 to answer.
    private func charge(_ query: MatrixQuery, _ request: HTTPRequest) -> HTTPResponse? {
        app.quotas.charge(query.cellCount, of: .matrixCells, identity: app.identity(request))
    }

    func status(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["jobId"] ?? ""
        guard let status = app.matrixJobs.status(id, owner: app.identity(request)) else { return JSONResponse.error(APIError(.notFound, "no matrix job \(id.prefix(60))", parameter: "jobId")) }
        return JSONResponse.ok(status)
    }

    func result(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["jobId"] ?? ""
        guard let (status, result) = app.matrixJobs.result(id, owner: app.identity(request)) else {
            return JSONResponse.error(APIError(.notFound, "no matrix job \(id.prefix(60))", parameter: "jobId"))
        }
        guard let result else {
            if let error = status.error { return JSONResponse.error(APIError(.badInput, error.message, parameter: error.target)) }
            return JSONResponse.ok(status, status: .accepted)  // not ready yet
        }
        var response = JSONResponse.ok(result)
        response.headers.set("X-Matrix-Cells", String(status.totalCount))
        return response
    }

    static let optionKeys: Set<String> = ["departAt", "arriveAt", "routeType", "travelMode", "traffic", "avoid"]

    /// The body's points and options as a matrix query.
    static func query(_ request: HTTPRequest, service: MapsService) throws(APIError) -> MatrixQuery {
        let body = try JSONResponse.decode(MatrixRequestBody.self, from: request.body)
        // Options this server does not implement (vehicle dimensions, …) are refused by name, not ignored.
        struct Keys: Decodable { var options: [String: EmptyValue]? }
        let given = try JSONResponse.decode(Keys.self, from: request.body).options?.keys.sorted() ?? []
        if let unknown = given.first(where: { !Self.optionKeys.contains($0) }) {
            throw .badInput("options.\(unknown) is not supported; supported: \(Self.optionKeys.sorted().joined(separator: ", "))", parameter: unknown)
        }
        func points(_ list: [MatrixRequestBody.Point], _ name: String) throws(APIError) -> [Coordinate] {
            var result: [Coordinate] = []
            for (i, p) in list.enumerated() {
                guard Coordinate.isValid(latitude: p.point.latitude, longitude: p.point.longitude) else {
                    throw .badInput("\(name)[\(i)]: latitude must be in [-90, 90] and longitude in [-180, 180]", parameter: name)
                }
                result.append(Coordinate(latitude: p.point.latitude, longitude: p.point.longitude))
            }
            return result
        }
        var query = MatrixQuery(origins: try points(body.origins, "origins"), destinations: try points(body.destinations, "destinations"))
        let options = body.options ?? .init()
        let modeText = options.travelMode ?? "car"
        guard let mode = Vocabulary.travelModes[modeText] else {
            throw .badInput("travelMode \(modeText) is not supported; use car, taxi, bicycle or pedestrian", parameter: "travelMode")
        }
        query.mode = mode
        let routeType = options.routeType ?? "fastest"
        guard let named = Vocabulary.routeTypes[routeType] else {
            throw .badInput("routeType must be one of \(Vocabulary.routeTypes.keys.sorted().joined(separator: ", "))", parameter: "routeType")
        }
        guard let type = Vocabulary.routeType(named, for: mode) else { throw .badInput(Vocabulary.bicycleThrillingRefusal, parameter: "routeType") }
        query.routeType = type
        switch options.traffic ?? "historical" {
        case "historical": query.traffic = false
        case "live": query.traffic = true
        case let other: throw .badInput("traffic must be live or historical, not \(other.prefix(20))", parameter: "traffic")
        }
        for name in options.avoid ?? [] {
            guard let kind = Vocabulary.avoidance(name), kind != .alreadyUsedRoads else {
                throw .badInput("avoid \(name.prefix(30)) is not supported; use tollRoads, motorways, ferries or unpavedRoads", parameter: "avoid")
            }
            query.avoid.insert(kind)
        }
        let now = service.clock()
        if let text = options.departAt, text != "now", text != "any" {
            guard let d = TimeInput.parse(text, timeZone: service.timeZone, now: now) else {
                throw .badInput("departAt \"\(text.prefix(40))\" is not now, any or an RFC 3339 date-time", parameter: "departAt")
            }
            query.departAt = d
        }
        // `any`: no particular moment, so the usual (historical) speeds without live traffic.
        if options.departAt == "any" { query.traffic = false }
        if let text = options.arriveAt {
            guard let d = TimeInput.parse(text, timeZone: service.timeZone, now: now) else {
                throw .badInput("arriveAt \"\(text.prefix(40))\" is not an RFC 3339 date-time", parameter: "arriveAt")
            }
            query.arriveAt = d
        }
        return query
    }
}
