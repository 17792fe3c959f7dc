import Foundation
import HTTPServer
import MapsAPI
import MapsService
import GeoCore

/// OSRM's `/match/v1` (GET with the trace in the path, POST with a GPX, GeoJSON or CSV body) and
/// `POST /traffic/1/probes`.
struct MatchHandlers {
    let app: MapsApplication
    typealias Failure = OSRMHandlers.Failure

    func matchGet(_ request: HTTPRequest) -> HTTPResponse {
        answer(request) { () throws(Failure) in
            let coordinates = try OSRMHandlers.coordinates(request.pathParameters["coordinates"] ?? "", limit: app.service.limits.maxTracePoints)
            return coordinates.map { TracePoint($0) }
        }
    }

    func matchPost(_ request: HTTPRequest) -> HTTPResponse {
        answer(request) { () throws(Failure) in
            let tracks: [UploadedTrack]
            do throws(APIError) { tracks = try TraceFormats.parse(request.body, maxPoints: app.service.limits.maxTracePoints) } catch {
                throw Failure(code: error.code == .tooBig ? "TooBig" : "InvalidQuery", message: error.message)
            }
            guard tracks.count == 1 else { throw Failure(code: "InvalidQuery", message: "the body holds \(tracks.count) tracks; match one at a time") }
            return tracks[0].points
        }
    }

    private func answer(_ request: HTTPRequest, points read: () throws(Failure) -> [TracePoint]) -> HTTPResponse {
        do throws(Failure) {
            let mode = try OSRMHandlers.mode(request.pathParameters["profile"] ?? "")
            let q = request.query
            try OSRMParameters.check(q, accepted: OSRMParameters.match, service: "match")
            var points = try read()
            if let text = q["timestamps"] {
                let parts = text.split(separator: ";", omittingEmptySubsequences: false)
                guard parts.count == points.count else {
                    throw Failure(code: "InvalidValue", message: "timestamps: \(parts.count) given for \(points.count) coordinates")
                }
                for (i, part) in parts.enumerated() {
                    guard let t = Int64(part), (0...253_402_300_799).contains(t) else {
                        throw Failure(code: "InvalidValue", message: "timestamps: \"\(part.prefix(20))\" at \(i) is not a UNIX time in seconds")
                    }
                    points[i].time = Double(t)
                }
            }
            if let text = q["radiuses"] {
                let parts = text.split(separator: ";", omittingEmptySubsequences: false)
                guard parts.count == points.count else {
                    throw Failure(code: "InvalidValue", message: "radiuses: \(parts.count) given for \(points.count) coordinates")
                }
                for (i, part) in parts.enumerated() where !part.isEmpty {
                    guard let r = Double(part), r.isFinite else { throw Failure(code: "InvalidValue", message: "radiuses: \"\(part.prefix(20))\" at \(i) is not a number") }
                    points[i].accuracyMeters = r
                }
            }
            var query = MatchQuery(points: points, mode: mode)
            switch q["gaps"] ?? "split" {
            case "split": query.splitAtGaps = true
            case "ignore": query.splitAtGaps = false
            default: throw Failure(code: "InvalidValue", message: "gaps must be split or ignore")
            }
            query.tidy = try OSRMHandlers.bool(q["tidy"], "tidy")
            query.route = try OSRMHandlers.routeOptions(q)
            do {
                return JSONResponse.ok(try app.service.osrmMatch(query))
            } catch {
                switch error.code {
                case .mapMatchingFailure: throw Failure(code: "NoMatch", message: error.message)
                case .tooBig: throw Failure(code: "TooBig", message: error.message)
                default: throw Failure(code: "InvalidValue", message: error.message)
                }
            }
        } catch {
            return OSRMHandlers.fail(error)
        }
    }

    // MARK: Probes

    func probes(_ request: HTTPRequest) -> HTTPResponse {
        do {
            var expires = 900.0
            if let text = request.query["expiresIn"] {
                guard let seconds = Double(text) ?? TimeInput.duration(text), seconds > 0, seconds <= 7 * 86_400 else {
                    throw APIError.badInput("expiresIn must be a number of seconds between 1 and 604800", parameter: "expiresIn")
                }
                expires = seconds
            }
            let upload = try app.service.readProbes(request.body)
            if let refusal = app.quotas.charge(upload.pointCount, of: .probePoints, identity: app.identity(request)) { return refusal }
            return JSONResponse.ok(try app.service.ingestProbes(upload, expiresInSeconds: expires), status: .accepted)
        } catch let error as APIError {
            return JSONResponse.error(error)
        } catch {
            return JSONResponse.error(APIError(.unavailable, "the probes could not be taken: \(error)"))
        }
    }
}
