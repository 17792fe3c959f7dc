import Foundation
import MapsAPI
import RoadNetwork
import Routing
import RoutePlanning

/// What a watch asks for, normalised: places resolved, defaults applied, the arrival as an instant.
struct WatchSpec: Codable, Sendable, Equatable {
    var origin: WatchPlace
    var destination: WatchPlace
    var waypoints: [WatchPlace]
    /// Seconds since 1970.
    var arriveAt: Double
    var travelMode: TravelMode
    var routeType: RouteType
    var avoid: [Avoidance]
    var preparationSeconds: Int
    var traffic: Bool
}

/// One planned route: the numbers the document shows, the route as the document shows it, and
/// the arcs it drives (re-timed at each re-plan).
struct PlanState: Codable, Sendable {
    /// Seconds since 1970, whole seconds (the departure is rounded down, so leaving then is safe).
    var departure: Double
    var arrival: Double
    var travelTimeSeconds: Int
    var noTrafficSeconds: Int?
    var historicSeconds: Int?
    var trafficDelaySeconds: Int
    var lengthMeters: Int
    var route: RouteBody
    /// The arcs driven; nil in watches stored before routes were kept as arcs (those are re-planned).
    var path: RoutePath?
}

/// A better route on offer, with what it gains.
struct OfferState: Codable, Sendable {
    var plan: PlanState
    var gainSeconds: Int
}

/// Everything persisted about a watch (one JSON row in `timetoleave.sqlite`).
struct WatchRecord: Codable, Sendable {
    var id: String
    /// Who made it (`WatchOwner`); nil in watches stored before owners were kept, which are anonymous.
    var owner: String?
    var spec: WatchSpec
    var createdAt: Double
    var plan: PlanState?
    var offer: OfferState?
    /// Set while leaving now cannot arrive in time: by how many seconds.
    var lateBySeconds: Int?
    /// The departure last announced (by `plan`, `traffic-change`, or `late`, which says "leave now"): changes are measured from it.
    var announcedDeparture: Double?
    /// The lateness last announced by a `late` event.
    var announcedLateBy: Int?
    var timeToLeaveAnnounced = false
    var expired = false
    var lastPlannedAt: Double?
    var nextPlanAt: Double
    var planCount = 0
    var lastEventID = 0
    var lastEvent: WatchEvent?
    var lastError: String?
}

/// Tuning for the watch service.
public struct WatchConfiguration: Sendable {
    /// Re-plan each watch this often (the seed: every 60 s).
    public var replanIntervalSeconds: Double = 60
    /// A re-plan announces a `traffic-change` when the departure moved by at least this much (else `no-change`).
    public var thresholdSeconds: Double = 30
    /// At most this many re-plans per tick; the rest wait for the next tick (the due ones first).
    public var maxReplansPerTick = 25
    /// And at most this much wall time of re-planning per tick.
    public var tickBudgetSeconds = 0.5
    /// Real time between ticks of the background loop (`start()`).
    public var tickIntervalSeconds = 1.0
    /// Events kept per watch for `Last-Event-ID` resumption.
    public var eventsKeptPerWatch = 20
    /// An expired watch stays readable this long after its arrival time, then is removed.
    public var retentionAfterArrivalSeconds: Double = 3600
    /// Arrival times further ahead than this are refused.
    public var maxArriveAheadSeconds: Double = 7 * 86_400
    /// Watches at most (beyond: 503).
    public var maxWatches = 100_000
    /// Watches not yet expired one owner may hold (beyond: 429).
    public var maxWatchesPerOwner = 100

    public init() {}
}

/// Who a watch belongs to: the identity of the client that made it (a digest of its API key), or
/// `anonymous` when the server has no keys. Only its owner sees it; to anyone else it is absent.
public enum WatchOwner {
    public static let anonymous = "anonymous"
}

extension WatchRecord {
    func ownedBy(_ owner: String) -> Bool { (self.owner ?? WatchOwner.anonymous) == owner }
}
