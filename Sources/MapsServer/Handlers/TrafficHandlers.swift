import Foundation
import HTTPServer
import MapsAPI
import MapsService

/// `POST /traffic/1/speeds`, `POST /traffic/1/closures`, `GET /traffic/1/status`.
struct TrafficHandlers {
    let app: MapsApplication

    func speeds(_ request: HTTPRequest) -> HTTPResponse { apply(request, closures: false) }
    func closures(_ request: HTTPRequest) -> HTTPResponse { apply(request, closures: true) }

    func apply(_ request: HTTPRequest, closures: Bool) -> HTTPResponse {
        do {
            let q = QueryReader(query: request.query)
            var expires = 3600.0
            if let text = q.string("expiresIn") {
                guard let seconds = Double(text) ?? TimeInput.duration(text), seconds > 0, seconds <= 7 * 86_400 else {
                    throw APIError.badInput("expiresIn must be a number of seconds between 1 and 604800", parameter: "expiresIn")
                }
                expires = seconds
            }
            let report = try app.service.applyTraffic(request.body, kind: closures ? .closures : .speeds, expiresInSeconds: expires,
                                                      source: "HTTP \(request.remoteAddress ?? "client")")
            return JSONResponse.ok(report, status: .created)
        } catch let error as APIError {
            return JSONResponse.error(error)
        } catch {
            return JSONResponse.error(APIError(.unavailable, "the update could not be saved: \(error)"))
        }
    }

    func status(_ request: HTTPRequest) -> HTTPResponse {
        JSONResponse.ok(app.service.trafficStatus())
    }
}
