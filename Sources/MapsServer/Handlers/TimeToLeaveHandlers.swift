import Foundation
import HTTPServer
import MapsAPI
import TimeToLeave

/// Time to leave (issue 7):
/// - `POST /timetoleave/1/watches` (a `WatchRequest` as JSON) → 201 with the watch
/// - `GET /timetoleave/1/watches` → every watch, without routes
/// - `GET /timetoleave/1/watches/{id}` → the watch now
/// - `DELETE /timetoleave/1/watches/{id}` → 204
/// - `POST /timetoleave/1/watches/{id}/accept` → takes the offered better route
/// - `GET /timetoleave/1/watches/{id}/events` → Server-Sent Events (`plan`, `traffic-change`, `no-change`,
///   `time-to-leave`, `late`, `expired`), each with the whole watch as JSON data, resumable with `Last-Event-ID`.
///
/// A watch belongs to the client that made it (`MapsApplication.identity`): any other client gets
/// 404 for it, and the listing holds the caller's own watches (an operator's: everyone's).
/// Open watches and event streams are capped per client and in all.
struct TimeToLeaveHandlers {
    let app: MapsApplication
    var watches: WatchService { app.timeToLeave }

    func register(_ router: inout Router) {
        router.post("/timetoleave/1/watches", create)
        router.get("/timetoleave/1/watches", list)
        router.get("/timetoleave/1/watches/{id}", get)
        router.delete("/timetoleave/1/watches/{id}", delete)
        router.post("/timetoleave/1/watches/{id}/accept", accept)
        router.get("/timetoleave/1/watches/{id}/events", events)
    }

    static func failure(_ error: WatchError) -> HTTPResponse {
        var response = JSONResponse.ok(error.apiError.body(detail: error.detail), status: HTTPStatus(error.apiError.httpStatus))
        response.headers.set("Cache-Control", "no-store")
        if let seconds = error.retryAfterSeconds { response.headers.set("Retry-After", String(seconds)) }
        return response
    }

    static func notFound(_ id: String) -> HTTPResponse {
        JSONResponse.error(APIError(.notFound, "no watch \(id); it may have expired or been deleted", parameter: "id"))
    }

    func create(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let body = try JSONResponse.decode(WatchRequest.self, from: request.body)
            let watch = try watches.create(body, owner: app.identity(request))
            var response = JSONResponse.ok(watch, status: .created)
            response.headers.set("Location", "/timetoleave/1/watches/\(watch.id)")
            return response
        } catch let error as APIError {
            return JSONResponse.error(error)
        } catch let error as WatchError {
            return Self.failure(error)
        } catch {
            return JSONResponse.error(APIError(.internalError, "\(error)"))
        }
    }

    func list(_ request: HTTPRequest) -> HTTPResponse {
        let identity = app.identity(request)
        return JSONResponse.ok(WatchListing(watches: watches.list(owner: identity == AccessPolicy.operatorIdentity ? nil : identity)))
    }

    func get(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard let watch = watches.watch(id, owner: app.identity(request)) else { return Self.notFound(id) }
        return JSONResponse.ok(watch)
    }

    func delete(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        return watches.delete(id, owner: app.identity(request)) ? .status(.noContent) : Self.notFound(id)
    }

    func accept(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return JSONResponse.ok(try watches.acceptBetterRoute(request.pathParameters["id"] ?? "", owner: app.identity(request)))
        } catch {
            return Self.failure(error)
        }
    }

    /// The event stream. Without `Last-Event-ID` it starts with the newest event (the current
    /// state); with one, it replays the kept events after it. An expired watch whose last event
    /// the client has seen answers 204, which tells `EventSource` to stop reconnecting. The
    /// stream holds no worker thread while idle (EventStream suspends the connection).
    func events(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        var after: Int?
        if let text = request.lastEventID ?? request.query["lastEventId"] {
            guard let n = Int(text), n >= 0 else {
                return JSONResponse.error(APIError.badInput("Last-Event-ID \"\(text.prefix(20))\" is not an event id of this stream", parameter: "Last-Event-ID"))
            }
            after = n
        }
        let identity = app.identity(request), quotas = app.quotas
        if let refusal = quotas.openStream(identity) { return refusal }
        let stream = EventStream(request: request, heartbeatInterval: .seconds(15))
        stream.comment("wayfinder time to leave: watch \(id)")
        let first = TimeToLeaveFirstFlag(true)
        let outcome = watches.subscribe(id, owner: identity, after: after, deliver: { message in
            let retry = first.take() ? 5000 : nil
            return stream.send(ServerSentEvent(id: String(message.id), event: message.type, data: message.data, retryMilliseconds: retry))
        }, finish: { stream.close() })
        switch outcome {
        case .unknownWatch:
            quotas.closeStream(identity)
            stream.close()
            return Self.notFound(id)
        case .finished:
            quotas.closeStream(identity)
            stream.close()
            return .status(.noContent)
        case .subscribed(let subscription):
            stream.onClose { _ in
                subscription.cancel()
                quotas.closeStream(identity)
            }
            return stream.response
        }
    }
}

/// A flag read once: `take()` is true the first time only.
private final class TimeToLeaveFirstFlag: @unchecked Sendable {
    private var value: Bool
    private let lock = NSLock()
    init(_ value: Bool) { self.value = value }
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let v = value
        value = false
        return v
    }
}
