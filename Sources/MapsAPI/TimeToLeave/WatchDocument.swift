/// A watch as the API shows it: what was asked, the current plan, and the event that produced
/// this state. `GET /timetoleave/1/watches/{id}` returns it, and every Server-Sent Event carries
/// it whole as its `data`. Times are RFC 3339 in the dataset's time zone; durations are seconds.
public struct WatchDocument: Codable, Sendable {
    public var id: String
    /// `waiting` (before `prepareBy`), `getReady` (between `prepareBy` and `departureTime`),
    /// `leaveNow` (the departure time has come), `late` (the arrival can no longer be met: see
    /// `lateBySeconds`), `expired` (the arrival time has passed).
    public var status: String
    /// The server's time when this document was made (clients count down from `departureTime`
    /// relative to it, which avoids trusting the client's clock).
    public var now: String
    public var createdAt: String

    // What was asked (normalised: places resolved, defaults filled in).
    public var origin: WatchPlace
    public var destination: WatchPlace
    public var waypoints: [WatchPlace]
    public var arriveAt: String
    public var travelMode: String
    public var routeType: String
    public var avoid: [String]
    public var preparationTime: Int
    public var traffic: Bool

    // The plan on the watched route.
    /// The latest moment to leave and still arrive by `arriveAt` (when late: now, the soonest one can leave).
    public var departureTime: String?
    /// When to start getting ready: `departureTime` minus `preparationTime`.
    public var prepareBy: String?
    /// Predicted arrival when leaving at `departureTime`.
    public var arrivalTime: String?
    public var secondsUntilDeparture: Int?
    public var secondsUntilPrepareBy: Int?
    /// Travel time with traffic (live and historical, or historical only when `traffic` is false).
    public var travelTimeInSeconds: Int?
    /// Travel time at free-flow speeds.
    public var noTrafficTravelTimeInSeconds: Int?
    /// Travel time with historical speeds only.
    public var historicTrafficTravelTimeInSeconds: Int?
    /// Seconds live traffic adds to the usual (historical) travel time.
    public var trafficDelayInSeconds: Int?
    public var lengthInMeters: Int?
    /// How late leaving now arrives (present only with status `late`).
    public var lateBySeconds: Int?
    /// The watched route, as TomTom's Calculate Route shapes a route (`summary`, `legs[].points`).
    public var route: RouteBody?
    /// A better route found on re-planning: offered, never swapped in silently
    /// (`POST /timetoleave/1/watches/{id}/accept` takes it).
    public var betterRoute: RouteOffer?

    // Re-planning.
    public var lastPlannedAt: String?
    public var nextPlanAt: String?
    public var planCount: Int
    public var replanIntervalSeconds: Int
    public var thresholdSeconds: Int
    /// Why the last re-plan failed, when it did (the previous plan is kept).
    public var lastError: String?
    /// The id of the newest event (SSE `id`).
    public var lastEventId: Int
    /// The event this document was sent with (in `GET`: the newest event).
    public var event: WatchEvent?

    public init(id: String, status: String, now: String, createdAt: String, origin: WatchPlace, destination: WatchPlace,
                waypoints: [WatchPlace], arriveAt: String, travelMode: String, routeType: String, avoid: [String],
                preparationTime: Int, traffic: Bool, departureTime: String? = nil, prepareBy: String? = nil,
                arrivalTime: String? = nil, secondsUntilDeparture: Int? = nil, secondsUntilPrepareBy: Int? = nil,
                travelTimeInSeconds: Int? = nil, noTrafficTravelTimeInSeconds: Int? = nil,
                historicTrafficTravelTimeInSeconds: Int? = nil, trafficDelayInSeconds: Int? = nil, lengthInMeters: Int? = nil,
                lateBySeconds: Int? = nil, route: RouteBody? = nil, betterRoute: RouteOffer? = nil,
                lastPlannedAt: String? = nil, nextPlanAt: String? = nil, planCount: Int, replanIntervalSeconds: Int,
                thresholdSeconds: Int, lastError: String? = nil, lastEventId: Int, event: WatchEvent? = nil) {
        self.id = id
        self.status = status
        self.now = now
        self.createdAt = createdAt
        self.origin = origin
        self.destination = destination
        self.waypoints = waypoints
        self.arriveAt = arriveAt
        self.travelMode = travelMode
        self.routeType = routeType
        self.avoid = avoid
        self.preparationTime = preparationTime
        self.traffic = traffic
        self.departureTime = departureTime
        self.prepareBy = prepareBy
        self.arrivalTime = arrivalTime
        self.secondsUntilDeparture = secondsUntilDeparture
        self.secondsUntilPrepareBy = secondsUntilPrepareBy
        self.travelTimeInSeconds = travelTimeInSeconds
        self.noTrafficTravelTimeInSeconds = noTrafficTravelTimeInSeconds
        self.historicTrafficTravelTimeInSeconds = historicTrafficTravelTimeInSeconds
        self.trafficDelayInSeconds = trafficDelayInSeconds
        self.lengthInMeters = lengthInMeters
        self.lateBySeconds = lateBySeconds
        self.route = route
        self.betterRoute = betterRoute
        self.lastPlannedAt = lastPlannedAt
        self.nextPlanAt = nextPlanAt
        self.planCount = planCount
        self.replanIntervalSeconds = replanIntervalSeconds
        self.thresholdSeconds = thresholdSeconds
        self.lastError = lastError
        self.lastEventId = lastEventId
        self.event = event
    }
}

/// A resolved place: coordinates, and the name the geocoder gave it when it came from a query.
public struct WatchPlace: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    /// The geocoder's address or POI name, when the place was given by name.
    public var name: String?
    /// The text the client sent, when the place was given by name.
    public var query: String?

    public init(lat: Double, lon: Double, name: String? = nil, query: String? = nil) {
        self.lat = lat
        self.lon = lon
        self.name = name
        self.query = query
    }
}

/// One event of a watch, numbered from 1 per watch (the SSE `id`).
public struct WatchEvent: Codable, Sendable, Equatable {
    public var id: Int
    /// `plan`, `traffic-change`, `no-change`, `time-to-leave`, `late`, `expired`.
    public var type: String
    public var at: String
    /// The seed app's wording where it has one: "Route recalculated due to change in traffic: 120 sec",
    /// "Time's UP! Time to leave!".
    public var message: String
    /// The same said plainly: "Leave 2 min earlier", "You will arrive 4 min late".
    public var friendlyMessage: String
    /// For `traffic-change`: the seed's N, previous departure minus new departure (positive: leave earlier).
    public var departureChangeSeconds: Int?
    public var previousDepartureTime: String?
    /// For `late`: how late leaving now arrives.
    public var lateBySeconds: Int?
    /// True when the watched route itself changed (an offer was accepted, or the old route can no longer be driven).
    public var routeChanged: Bool?

    public init(id: Int, type: String, at: String, message: String, friendlyMessage: String,
                departureChangeSeconds: Int? = nil, previousDepartureTime: String? = nil, lateBySeconds: Int? = nil,
                routeChanged: Bool? = nil) {
        self.id = id
        self.type = type
        self.at = at
        self.message = message
        self.friendlyMessage = friendlyMessage
        self.departureChangeSeconds = departureChangeSeconds
        self.previousDepartureTime = previousDepartureTime
        self.lateBySeconds = lateBySeconds
        self.routeChanged = routeChanged
    }
}

/// A route that beats the watched one, offered to the client.
public struct RouteOffer: Codable, Sendable {
    public var departureTime: String
    public var arrivalTime: String
    public var travelTimeInSeconds: Int
    public var trafficDelayInSeconds: Int
    public var lengthInMeters: Int
    /// How much later one can leave on it (or, when late, how much earlier it arrives), in seconds.
    public var gainSeconds: Int
    public var message: String
    public var route: RouteBody

    public init(departureTime: String, arrivalTime: String, travelTimeInSeconds: Int, trafficDelayInSeconds: Int,
                lengthInMeters: Int, gainSeconds: Int, message: String, route: RouteBody) {
        self.departureTime = departureTime
        self.arrivalTime = arrivalTime
        self.travelTimeInSeconds = travelTimeInSeconds
        self.trafficDelayInSeconds = trafficDelayInSeconds
        self.lengthInMeters = lengthInMeters
        self.gainSeconds = gainSeconds
        self.message = message
        self.route = route
    }
}

/// The event names of the Server-Sent Events stream.
public enum WatchEventType: String, Codable, Sendable, CaseIterable {
    case plan
    case trafficChange = "traffic-change"
    case noChange = "no-change"
    case timeToLeave = "time-to-leave"
    case late
    case expired
}

/// `GET /timetoleave/1/watches`: every watch, without routes.
public struct WatchListing: Codable, Sendable {
    public var watches: [WatchDocument]
    public init(watches: [WatchDocument]) { self.watches = watches }
}
