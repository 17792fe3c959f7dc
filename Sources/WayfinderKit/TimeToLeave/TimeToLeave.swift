public import Foundation
import MapsAPI

/// A place for a time-to-leave trip: a coordinate, or a name the server looks up.
public enum TripLocation: Sendable, Hashable {
    /// A point (the user's location, a long press on the map).
    case coordinate(Coordinate)
    /// A name or address the server's geocoder resolves ("Kamppi", "Rue Grimaldi 12").
    case named(String)
}

/// A trip to watch until it is time to leave (the seed's "Time to leave" form): where from and
/// to, the time to arrive by, how to travel, and how long it takes to get ready.
public struct TimeToLeaveRequest: Sendable, Hashable {
    /// Where the trip starts.
    public var origin: TripLocation
    /// Where the trip ends.
    public var destination: TripLocation
    /// Places to pass on the way, in order.
    public var waypoints: [TripLocation] = []
    /// The moment to arrive by.
    public var arriveBy: Date
    /// How the traveller moves. Default: car.
    public var travelMode: TravelMode = .car
    /// What the route minimises. Default: fastest.
    public var routeType: RouteType = .fastest
    /// Kinds of road to keep off.
    public var avoid: Set<Avoidance> = []
    /// Seconds needed to get ready before leaving. Default 0.
    public var preparationSeconds = 0
    /// Whether live traffic counts (re-planned as it changes). Default: true.
    public var traffic = true

    /// A trip from `origin` to `destination`, arriving by `arriveBy`.
    public init(from origin: TripLocation, to destination: TripLocation, arriveBy: Date, preparationSeconds: Int = 0) {
        self.origin = origin
        self.destination = destination
        self.arriveBy = arriveBy
        self.preparationSeconds = preparationSeconds
    }

    /// A trip between two coordinates, arriving by `arriveBy`.
    public init(from origin: Coordinate, to destination: Coordinate, arriveBy: Date, preparationSeconds: Int = 0) {
        self.init(from: .coordinate(origin), to: .coordinate(destination), arriveBy: arriveBy, preparationSeconds: preparationSeconds)
    }

    var wire: WatchRequest {
        func place(_ p: TripLocation) -> PlaceInput {
            switch p {
            case .coordinate(let c): PlaceInput(lat: c.latitude, lon: c.longitude)
            case .named(let q): PlaceInput(query: q)
            }
        }
        return WatchRequest(origin: place(origin), destination: place(destination),
                            waypoints: waypoints.isEmpty ? nil : waypoints.map(place),
                            arriveAt: RouteRequest.rfc3339(arriveBy), travelMode: travelMode.rawValue,
                            routeType: routeType.rawValue, avoid: avoid.isEmpty ? nil : avoid.map(\.rawValue).sorted(),
                            preparationTime: Double(preparationSeconds), traffic: traffic)
    }
}

/// A watched trip as the server last described it: the latest moment to leave, when to start
/// getting ready, the route and its times, kept true as traffic changes.
public struct TimeToLeaveWatch: Sendable, Identifiable {
    /// Where the watch stands.
    public struct Status: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The server's name.
        public var rawValue: String
        /// A status by the server's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The server's name.
        public var description: String { rawValue }
        /// Before the moment to start getting ready.
        public static let waiting = Status(rawValue: "waiting")
        /// Time to get ready: between ``TimeToLeaveWatch/prepareBy`` and ``TimeToLeaveWatch/departureTime``.
        public static let getReady = Status(rawValue: "getReady")
        /// The moment to leave has come.
        public static let leaveNow = Status(rawValue: "leaveNow")
        /// The arrival time can no longer be met (see ``TimeToLeaveWatch/lateBySeconds``).
        public static let late = Status(rawValue: "late")
        /// The arrival time has passed; the watch is over.
        public static let expired = Status(rawValue: "expired")
    }

    /// A place of the trip as the server resolved it.
    public struct ResolvedLocation: Sendable, Hashable {
        /// Where it is.
        public var coordinate: Coordinate
        /// The geocoder's name or address, when the place was given by name.
        public var name: String?
        /// The text the place was given by, if any.
        public var query: String?
    }

    /// A route that beats the watched one, offered (never swapped in silently): accept it with
    /// ``WayfinderClient/acceptBetterRoute(watchID:)``.
    public struct BetterRoute: Sendable {
        /// The latest moment to leave on it.
        public var departureTime: Date
        /// The predicted arrival on it.
        public var arrivalTime: Date
        /// Its travel time in seconds.
        public var travelTimeSeconds: Int
        /// Its live-traffic delay in seconds.
        public var trafficDelaySeconds: Int
        /// Its length in metres.
        public var distanceMeters: Int
        /// How much later one can leave on it (or, when late, how much earlier it arrives), in seconds.
        public var gainSeconds: Int
        /// The offer in words.
        public var message: String
        /// The route itself.
        public var route: Route
    }

    /// The server's identifier of the watch.
    public var id: String
    /// Where the watch stands.
    public var status: Status
    /// The server's clock when it described the watch; count down from ``departureTime``
    /// relative to it rather than trusting the device's clock.
    public var serverTime: Date
    /// The trip's start as resolved.
    public var origin: ResolvedLocation
    /// The trip's end as resolved.
    public var destination: ResolvedLocation
    /// Places passed on the way.
    public var waypoints: [ResolvedLocation]
    /// The moment to arrive by.
    public var arriveBy: Date
    /// How the traveller moves.
    public var travelMode: TravelMode?
    /// What the route minimises.
    public var routeType: RouteType?
    /// Seconds needed to get ready.
    public var preparationSeconds: Int
    /// Whether live traffic counts.
    public var traffic: Bool
    /// The latest moment to leave and still arrive by ``arriveBy`` (when late: now).
    public var departureTime: Date?
    /// When to start getting ready: ``departureTime`` minus the preparation time.
    public var prepareBy: Date?
    /// The predicted arrival when leaving at ``departureTime``.
    public var predictedArrival: Date?
    /// Travel time in seconds, traffic included.
    public var travelTimeSeconds: Int?
    /// Travel time in seconds on empty roads.
    public var noTrafficTravelTimeSeconds: Int?
    /// Travel time in seconds with usual (historical) traffic.
    public var historicTrafficTravelTimeSeconds: Int?
    /// Seconds live traffic adds to the usual travel time.
    public var trafficDelaySeconds: Int?
    /// Route length in metres.
    public var distanceMeters: Int?
    /// How late leaving now arrives, when the status is ``Status/late``.
    public var lateBySeconds: Int?
    /// The watched route.
    public var route: Route?
    /// A better route on offer, if re-planning found one.
    public var betterRoute: BetterRoute?
    /// Seconds between re-plans.
    public var replanIntervalSeconds: Int
    /// Smallest change of the departure time, in seconds, that the server reports as a traffic change.
    public var thresholdSeconds: Int
    /// When the server last re-planned.
    public var lastPlannedAt: Date?
    /// When it will re-plan next.
    public var nextPlanAt: Date?
    /// Why the last re-plan failed, if it did (the previous plan stands).
    public var lastError: String?
    /// The newest event's number (resume an update stream after it).
    public var lastEventID: Int

    /// Seconds left until the moment to leave, by the server's clock; nil without a plan.
    public var secondsUntilDeparture: Int? {
        departureTime.map { Int($0.timeIntervalSince(serverTime).rounded()) }
    }

    init(_ w: WatchDocument) throws(WayfinderError) {
        func date(_ text: String, _ field: String) throws(WayfinderError) -> Date { try RouteTime.parse(text, field: field) }
        func optionalDate(_ text: String?, _ field: String) throws(WayfinderError) -> Date? {
            guard let text else { return nil }
            return try RouteTime.parse(text, field: field)
        }
        func place(_ p: WatchPlace) -> ResolvedLocation {
            ResolvedLocation(coordinate: Coordinate(latitude: p.lat, longitude: p.lon), name: p.name, query: p.query)
        }
        id = w.id
        status = Status(rawValue: w.status)
        serverTime = try date(w.now, "now")
        origin = place(w.origin)
        destination = place(w.destination)
        waypoints = w.waypoints.map(place)
        arriveBy = try date(w.arriveAt, "arriveAt")
        travelMode = TravelMode(rawValue: w.travelMode)
        routeType = RouteType(rawValue: w.routeType)
        preparationSeconds = w.preparationTime
        traffic = w.traffic
        departureTime = try optionalDate(w.departureTime, "departureTime")
        prepareBy = try optionalDate(w.prepareBy, "prepareBy")
        predictedArrival = try optionalDate(w.arrivalTime, "arrivalTime")
        travelTimeSeconds = w.travelTimeInSeconds
        noTrafficTravelTimeSeconds = w.noTrafficTravelTimeInSeconds
        historicTrafficTravelTimeSeconds = w.historicTrafficTravelTimeInSeconds
        trafficDelaySeconds = w.trafficDelayInSeconds
        distanceMeters = w.lengthInMeters
        lateBySeconds = w.lateBySeconds
        route = try w.route.map { (r) throws(WayfinderError) in try Route(r) }
        if let offer = w.betterRoute {
            betterRoute = BetterRoute(departureTime: try date(offer.departureTime, "betterRoute.departureTime"),
                                      arrivalTime: try date(offer.arrivalTime, "betterRoute.arrivalTime"),
                                      travelTimeSeconds: offer.travelTimeInSeconds, trafficDelaySeconds: offer.trafficDelayInSeconds,
                                      distanceMeters: offer.lengthInMeters, gainSeconds: offer.gainSeconds, message: offer.message,
                                      route: try Route(offer.route, isAlternative: true))
        }
        replanIntervalSeconds = w.replanIntervalSeconds
        thresholdSeconds = w.thresholdSeconds
        lastPlannedAt = try optionalDate(w.lastPlannedAt, "lastPlannedAt")
        nextPlanAt = try optionalDate(w.nextPlanAt, "nextPlanAt")
        lastError = w.lastError
        lastEventID = w.lastEventId
    }
}

/// One change of a watched trip, pushed by the server: the event and the watch's whole new state.
public struct TimeToLeaveUpdate: Sendable {
    /// What happened.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The server's event name.
        public var rawValue: String
        /// A kind by the server's event name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The server's event name.
        public var description: String { rawValue }
        /// The first plan (or the current one, on connecting).
        public static let plan = Kind(rawValue: "plan")
        /// Traffic moved the departure time by at least the threshold.
        public static let trafficChange = Kind(rawValue: "traffic-change")
        /// A re-plan changed nothing worth telling.
        public static let noChange = Kind(rawValue: "no-change")
        /// The moment to leave has come ("Time's UP! Time to leave!").
        public static let timeToLeave = Kind(rawValue: "time-to-leave")
        /// The arrival time can no longer be met.
        public static let late = Kind(rawValue: "late")
        /// The arrival time has passed; no more updates follow.
        public static let expired = Kind(rawValue: "expired")
    }

    /// What happened.
    public var kind: Kind
    /// The server's number of the event (resume after it with ``WayfinderClient/timeToLeaveUpdates(watchID:resumingAfter:)``).
    public var eventID: String
    /// When it happened.
    public var date: Date?
    /// The seed app's wording: "Route recalculated due to change in traffic: 120 sec", "Time's UP! Time to leave!".
    public var message: String
    /// The same said plainly: "Leave 2 min earlier", "You will arrive 4 min late".
    public var friendlyMessage: String
    /// For a traffic change: previous departure minus new departure, in seconds (positive: leave earlier).
    public var departureChangeSeconds: Int?
    /// For a traffic change: the departure time before it.
    public var previousDepartureTime: Date?
    /// For ``Kind/late``: how late leaving now arrives, in seconds.
    public var lateBySeconds: Int?
    /// Whether the watched route itself changed.
    public var routeChanged: Bool
    /// The watch's whole state after the event.
    public var watch: TimeToLeaveWatch

    init(_ event: ServerSentEvent) throws(WayfinderError) {
        let document = try ResponseDecoding.decode(WatchDocument.self, from: Data(event.data.utf8))
        watch = try TimeToLeaveWatch(document)
        kind = Kind(rawValue: event.type == "message" ? (document.event?.type ?? "message") : event.type)
        eventID = event.lastEventID
        let e = document.event
        date = e.flatMap { RFC3339Lenient.parse($0.at) }
        message = e?.message ?? ""
        friendlyMessage = e?.friendlyMessage ?? message
        departureChangeSeconds = e?.departureChangeSeconds
        previousDepartureTime = e?.previousDepartureTime.flatMap(RFC3339Lenient.parse)
        lateBySeconds = e?.lateBySeconds ?? document.lateBySeconds
        routeChanged = e?.routeChanged ?? false
    }
}

/// The updates of one watched trip, as they happen, over the server's event stream, reconnecting
/// and resuming after drops. The sequence ends after ``TimeToLeaveUpdate/Kind/expired``, when
/// the watch is stopped (noticed at the next reconnection, within the server's retry delay of
/// about 5 s), or when the task is cancelled; an unknown watch throws ``WayfinderError/notFound(_:)``.
///
/// ```swift
/// for try await update in client.timeToLeaveUpdates(watchID: watch.id) {
///     print(update.message)
///     if update.kind == .timeToLeave { break }
/// }
/// ```
public struct TimeToLeaveUpdates: AsyncSequence, Sendable {
    /// One change of the trip.
    public typealias Element = TimeToLeaveUpdate

    /// The underlying event stream.
    public let events: EventSource

    /// Opens the stream (at the first `next()`).
    public func makeAsyncIterator() -> Iterator { Iterator(base: events.makeAsyncIterator()) }

    /// Delivers the updates; not to be shared between tasks.
    public struct Iterator: AsyncIteratorProtocol {
        var base: EventSource.Iterator
        var done = false
        var delivered = false

        /// The next update; nil after `expired`, when the watch was stopped, at the stream's end,
        /// or on cancellation.
        public mutating func next() async throws(WayfinderError) -> TimeToLeaveUpdate? {
            guard !done else { return nil }
            let event: ServerSentEvent?
            do {
                event = try await base.next()
            } catch .notFound(let message) {
                done = true
                // Gone after updates were delivered: the watch was stopped (here or elsewhere).
                if delivered { return nil }
                throw .notFound(message)
            }
            guard let event else { done = true; return nil }
            let update = try TimeToLeaveUpdate(event)
            delivered = true
            if update.kind == .expired { done = true }
            return update
        }
    }
}

extension WayfinderClient {
    /// Starts watching a trip: the server answers at once with the latest moment to leave, then
    /// re-plans every minute and after traffic changes (follow them with ``timeToLeaveUpdates(watchID:resumingAfter:)``).
    ///
    /// - Throws: ``WayfinderError/noRoute(_:)`` with the seed's "No routes found satisfying requested
    ///   time…" when the arrival time is past or cannot be met.
    public func startTimeToLeave(_ request: TimeToLeaveRequest) async throws(WayfinderError) -> TimeToLeaveWatch {
        let body: Data
        do { body = try JSONEncoder().encode(request.wire) } catch { throw .invalidQuery("the request cannot be encoded: \(error)", parameter: nil) }
        let data = try await send(Endpoint("POST", "/timetoleave/1/watches", body: body, contentType: "application/json"))
        return try TimeToLeaveWatch(ResponseDecoding.decode(WatchDocument.self, from: data))
    }

    /// The watch's current state.
    public func timeToLeaveWatch(id: String) async throws(WayfinderError) -> TimeToLeaveWatch {
        try TimeToLeaveWatch(await get(Self.watchPath(id), as: WatchDocument.self))
    }

    /// Every watch on the server, without their routes.
    public func timeToLeaveWatches() async throws(WayfinderError) -> [TimeToLeaveWatch] {
        var result: [TimeToLeaveWatch] = []
        for w in try await get("/timetoleave/1/watches", as: WatchListing.self).watches { result.append(try TimeToLeaveWatch(w)) }
        return result
    }

    /// Stops watching the trip (its event streams end).
    public func stopTimeToLeave(id: String) async throws(WayfinderError) {
        _ = try await send(Endpoint("DELETE", Self.watchPath(id)))
    }

    /// Takes the better route the server offered (``TimeToLeaveWatch/betterRoute``) as the watched one.
    public func acceptBetterRoute(watchID: String) async throws(WayfinderError) -> TimeToLeaveWatch {
        let data = try await send(Endpoint("POST", Self.watchPath(watchID) + "/accept"))
        return try TimeToLeaveWatch(ResponseDecoding.decode(WatchDocument.self, from: data))
    }

    /// The watch's updates as they happen (Server-Sent Events), resuming after event
    /// `resumingAfter` when given (otherwise the server starts with the current plan).
    public func timeToLeaveUpdates(watchID: String, resumingAfter lastEventID: String? = nil) -> TimeToLeaveUpdates {
        TimeToLeaveUpdates(events: eventSource(path: Self.watchPath(watchID) + "/events", lastEventID: lastEventID))
    }

    /// A server-sent event stream of this server at `path` (such as `/timetoleave/1/watches/ID/events`).
    public func eventSource(path: String, lastEventID: String? = nil) -> EventSource {
        EventSource(url: url(path, query: []), headers: configuration.headers, lastEventID: lastEventID, configuration: configuration.eventStream)
    }

    static func watchPath(_ id: String) -> String { "/timetoleave/1/watches/\(PercentEncoding.encode(id))" }
}

/// RFC 3339 for optional informational times: nil instead of an error when unreadable.
enum RFC3339Lenient {
    static func parse(_ text: String) -> Date? { try? RouteTime.parse(text, field: "") }
}
