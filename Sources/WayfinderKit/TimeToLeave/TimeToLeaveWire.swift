import Foundation
import MapsAPI

// The wire shapes of `/timetoleave/1/watches` (issue 7). They mirror the server's
// `TimeToLeave.WatchRequest` and `TimeToLeave.WatchDocument`, which live in a server module the
// SDK cannot import; `WayfinderKitTests` round-trips them against the server's own types so the
// two cannot drift. When those types move to MapsAPI, these mirrors go.

struct WatchRequestWire: Codable, Sendable {
    struct Place: Codable, Sendable {
        var lat: Double?
        var lon: Double?
        var query: String?
    }
    var origin: Place
    var destination: Place
    var waypoints: [Place]?
    var arriveAt: String
    var travelMode: String?
    var routeType: String?
    var avoid: [String]?
    var preparationTime: Double?
    var traffic: Bool?
}

struct WatchDocumentWire: Codable, Sendable {
    struct Place: Codable, Sendable {
        var lat: Double
        var lon: Double
        var name: String?
        var query: String?
    }
    struct Event: Codable, Sendable {
        var id: Int
        var type: String
        var at: String
        var message: String
        var friendlyMessage: String
        var departureChangeSeconds: Int?
        var previousDepartureTime: String?
        var lateBySeconds: Int?
        var routeChanged: Bool?
    }
    struct Offer: Codable, Sendable {
        var departureTime: String
        var arrivalTime: String
        var travelTimeInSeconds: Int
        var trafficDelayInSeconds: Int
        var lengthInMeters: Int
        var gainSeconds: Int
        var message: String
        var route: RouteBody
    }

    var id: String
    var status: String
    var now: String
    var createdAt: String
    var origin: Place
    var destination: Place
    var waypoints: [Place]
    var arriveAt: String
    var travelMode: String
    var routeType: String
    var avoid: [String]
    var preparationTime: Int
    var traffic: Bool
    var departureTime: String?
    var prepareBy: String?
    var arrivalTime: String?
    var secondsUntilDeparture: Int?
    var secondsUntilPrepareBy: Int?
    var travelTimeInSeconds: Int?
    var noTrafficTravelTimeInSeconds: Int?
    var historicTrafficTravelTimeInSeconds: Int?
    var trafficDelayInSeconds: Int?
    var lengthInMeters: Int?
    var lateBySeconds: Int?
    var route: RouteBody?
    var betterRoute: Offer?
    var lastPlannedAt: String?
    var nextPlanAt: String?
    var planCount: Int
    var replanIntervalSeconds: Int
    var thresholdSeconds: Int
    var lastError: String?
    var lastEventId: Int
    var event: Event?
}
