public import Foundation
public import MapsAPI

/// The answer to a ``RouteRequest``: the best route first, then alternatives.
public struct RouteResponse: Sendable {
    /// The routes, best first; never empty (no route is ``WayfinderError/noRoute(_:)``).
    public var routes: [Route]
    /// Each requested location as given and where it met the road network.
    public var snappedLocations: [SnappedLocation]
    /// With ``RouteRequest/computeBestOrder``: the waypoints' indices in visiting order
    /// (indices into ``RouteRequest/waypoints``); nil otherwise.
    public var optimizedWaypointOrder: [Int]?
    /// The request that produced this answer, to re-plan from (``RouteRequest/addingStop(_:)``).
    public var request: RouteRequest
    /// The server's document exactly as received (TomTom Calculate Route, format 0.0.12).
    public var body: CalculateRouteResponse

    /// Reads a Calculate Route document answering `request`.
    public init(_ body: CalculateRouteResponse, request: RouteRequest) throws(WayfinderError) {
        self.body = body
        self.request = request
        var routes: [Route] = []
        for (i, r) in body.routes.enumerated() { routes.append(try Route(r, isAlternative: i > 0)) }
        guard !routes.isEmpty else { throw .noRoute("the server found no route") }
        self.routes = routes
        snappedLocations = (body.waypoints ?? []).map(SnappedLocation.init)
        optimizedWaypointOrder = body.optimizedWaypoints.map { list in
            list.sorted { $0.optimizedIndex < $1.optimizedIndex }.map(\.providedIndex)
        }
    }

    /// The best route.
    public var route: Route { routes[0] }
}

/// A requested location and the road point it was matched to.
public struct SnappedLocation: Sendable, Hashable {
    /// The location as requested.
    public var requested: Coordinate
    /// The nearest point on a road usable by the travel mode.
    public var snapped: Coordinate
    /// Metres between the two.
    public var distanceMeters: Double
    /// The road's name ("" when unnamed).
    public var roadName: String

    init(_ w: SnappedWaypoint) {
        requested = Coordinate(w.input)
        snapped = Coordinate(w.snapped)
        distanceMeters = w.distanceInMeters
        roadName = w.name
    }
}

/// One route, as MKRoute describes it: distance, time, notices, polyline, steps.
public struct Route: Sendable {
    /// Length in metres.
    public var distanceMeters: Int
    /// Expected travel time in seconds, traffic included.
    public var travelTimeSeconds: Int
    /// Seconds lost to live traffic compared with usual traffic (0 without live traffic).
    public var trafficDelaySeconds: Int
    /// Metres of the route where live traffic is slower than usual.
    public var trafficLengthMeters: Int
    /// Travel time in seconds on empty roads, when the server computed it.
    public var noTrafficTravelTimeSeconds: Int?
    /// Travel time in seconds with usual (historical) traffic, when the server computed it.
    public var historicTrafficTravelTimeSeconds: Int?
    /// Estimated fuel in litres for a typical car, when the mode burns any.
    public var fuelConsumptionLiters: Double?
    /// When the trip starts.
    public var departureTime: Date
    /// When the trip ends.
    public var arrivalTime: Date
    /// The departure as the server wrote it, with the dataset's UTC offset (`2026-12-01T08:05:00+01:00`).
    public var departureTimeText: String
    /// The arrival as the server wrote it, with the dataset's UTC offset.
    public var arrivalTimeText: String
    /// The mode the route is for.
    public var travelMode: TravelMode?
    /// Where a bicycle is walked (footways, pedestrian areas, against a one-way, steps), as ranges of
    /// `polyline` indices: the server's `pedestrian` travel-mode sections of a bicycle route.
    public var walkedSections: [ClosedRange<Int>]
    /// Whether this is an alternative rather than the best route.
    public var isAlternative: Bool
    /// Things the traveller should know: tolls, ferries, unpaved roads, restricted access,
    /// closures nearby, avoided roads that had to be used (MKRoute's `advisoryNotices`).
    public var advisoryNotices: [String]
    /// One leg per pair of consecutive locations.
    public var legs: [RouteLeg]
    /// The turn-by-turn steps (empty when only a summary was asked for).
    public var steps: [RouteStep]
    /// The server's route object exactly as received (summary, legs, sections, guidance).
    public var body: RouteBody

    /// Reads one route of a Calculate Route document.
    public init(_ body: RouteBody, isAlternative: Bool = false) throws(WayfinderError) {
        self.body = body
        self.isAlternative = isAlternative
        let s = body.summary
        distanceMeters = s.lengthInMeters
        travelTimeSeconds = s.travelTimeInSeconds
        trafficDelaySeconds = s.trafficDelayInSeconds
        trafficLengthMeters = s.trafficLengthInMeters
        noTrafficTravelTimeSeconds = s.noTrafficTravelTimeInSeconds
        historicTrafficTravelTimeSeconds = s.historicTrafficTravelTimeInSeconds
        fuelConsumptionLiters = s.fuelConsumptionInLiters
        departureTimeText = s.departureTime
        arrivalTimeText = s.arrivalTime
        departureTime = try RouteTime.parse(s.departureTime, field: "departureTime")
        arrivalTime = try RouteTime.parse(s.arrivalTime, field: "arrivalTime")
        // A bicycle route has `pedestrian` pieces where the bicycle is walked: the other mode is the route's.
        let travelSections = body.sections.filter { $0.sectionType == "TRAVEL_MODE" }
        let modes = travelSections.compactMap { $0.travelMode.flatMap(TravelMode.init(rawValue:)) }
        travelMode = modes.first { $0 != .pedestrian } ?? modes.first
        walkedSections = travelMode == .pedestrian ? [] : travelSections.filter { $0.travelMode == "pedestrian" }
            .map { $0.startPointIndex...max($0.startPointIndex, $0.endPointIndex) }
        advisoryNotices = body.advisoryNotices ?? []
        var legs: [RouteLeg] = []
        for leg in body.legs { legs.append(try RouteLeg(leg)) }
        self.legs = legs
        steps = (body.steps ?? []).map(RouteStep.init)
    }

    /// Every point of the route, legs one after the other (the index space of the server's
    /// `sections` and instructions' `pointIndex`; consecutive legs share their joining point).
    public var polyline: [Coordinate] { legs.flatMap(\.polyline) }

    /// The route's extent; nil when it has no points.
    public var boundingBox: BoundingBox? { BoundingBox(containing: polyline) }

    /// Travel time as a `TimeInterval`, for date arithmetic and MapKit-style code.
    public var expectedTravelTime: TimeInterval { TimeInterval(travelTimeSeconds) }
}

/// The part of a route between two consecutive requested locations.
public struct RouteLeg: Sendable {
    /// Length in metres.
    public var distanceMeters: Int
    /// Travel time in seconds.
    public var travelTimeSeconds: Int
    /// When the leg starts.
    public var departureTime: Date
    /// When the leg ends.
    public var arrivalTime: Date
    /// The leg's points (empty when only a summary was asked for).
    public var polyline: [Coordinate]

    init(_ leg: RouteLegBody) throws(WayfinderError) {
        distanceMeters = leg.summary.lengthInMeters
        travelTimeSeconds = leg.summary.travelTimeInSeconds
        departureTime = try RouteTime.parse(leg.summary.departureTime, field: "legs.summary.departureTime")
        arrivalTime = try RouteTime.parse(leg.summary.arrivalTime, field: "legs.summary.arrivalTime")
        polyline = (leg.points ?? []).map(Coordinate.init)
    }
}

/// One step of a route, as MKRoute.Step has it: what to do, then how far to go.
public struct RouteStep: Sendable, Hashable {
    /// What to do, in words ("Turn left onto Avenue de la Costa").
    public var instructions: String
    /// Metres until the next step.
    public var distanceMeters: Int
    /// Seconds until the next step.
    public var travelTimeSeconds: Int
    /// The manoeuvre at the start of the step.
    public var maneuver: Maneuver
    /// The street the step follows, when named.
    public var street: String?
    /// The step's points, from the manoeuvre to the next one.
    public var polyline: [Coordinate]

    /// Reads one step of the server's route.
    public init(_ step: RouteStepBody) {
        instructions = step.instruction
        distanceMeters = step.distanceInMeters
        travelTimeSeconds = step.travelTimeInSeconds
        maneuver = Maneuver(rawValue: step.maneuver)
        street = step.street
        polyline = step.points.map(Coordinate.init)
    }

    /// Where the manoeuvre happens; nil for a step without points.
    public var location: Coordinate? { polyline.first }
}

/// A manoeuvre, by TomTom's names (`TURN_LEFT`, `ROUNDABOUT_RIGHT`, …). An open set: a
/// newer server may send names this SDK does not list.
public struct Maneuver: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// TomTom's upper-snake-case name.
    public var rawValue: String
    /// A manoeuvre by its TomTom name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The TomTom name.
    public var description: String { rawValue }

    /// Leave from the origin.
    public static let depart = Maneuver(rawValue: "DEPART")
    /// Arrive at the destination.
    public static let arrive = Maneuver(rawValue: "ARRIVE")
    /// Arrive; the destination is on the left.
    public static let arriveLeft = Maneuver(rawValue: "ARRIVE_LEFT")
    /// Arrive; the destination is on the right.
    public static let arriveRight = Maneuver(rawValue: "ARRIVE_RIGHT")
    /// Go straight on.
    public static let straight = Maneuver(rawValue: "STRAIGHT")
    /// Keep right at a fork.
    public static let keepRight = Maneuver(rawValue: "KEEP_RIGHT")
    /// Bear right.
    public static let bearRight = Maneuver(rawValue: "BEAR_RIGHT")
    /// Turn right.
    public static let turnRight = Maneuver(rawValue: "TURN_RIGHT")
    /// Turn sharp right.
    public static let sharpRight = Maneuver(rawValue: "SHARP_RIGHT")
    /// Keep left at a fork.
    public static let keepLeft = Maneuver(rawValue: "KEEP_LEFT")
    /// Bear left.
    public static let bearLeft = Maneuver(rawValue: "BEAR_LEFT")
    /// Turn left.
    public static let turnLeft = Maneuver(rawValue: "TURN_LEFT")
    /// Turn sharp left.
    public static let sharpLeft = Maneuver(rawValue: "SHARP_LEFT")
    /// Make a U-turn.
    public static let makeUTurn = Maneuver(rawValue: "MAKE_UTURN")
    /// Take the motorway.
    public static let enterMotorway = Maneuver(rawValue: "ENTER_MOTORWAY")
    /// Take the exit.
    public static let takeExit = Maneuver(rawValue: "TAKE_EXIT")
    /// Take the ferry.
    public static let takeFerry = Maneuver(rawValue: "TAKE_FERRY")
    /// Cross the roundabout (straight on).
    public static let roundaboutCross = Maneuver(rawValue: "ROUNDABOUT_CROSS")
    /// At the roundabout, turn right.
    public static let roundaboutRight = Maneuver(rawValue: "ROUNDABOUT_RIGHT")
    /// At the roundabout, turn left.
    public static let roundaboutLeft = Maneuver(rawValue: "ROUNDABOUT_LEFT")
    /// At the roundabout, go back.
    public static let roundaboutBack = Maneuver(rawValue: "ROUNDABOUT_BACK")
    /// Follow the road.
    public static let follow = Maneuver(rawValue: "FOLLOW")
    /// A waypoint is reached.
    public static let waypointReached = Maneuver(rawValue: "WAYPOINT_REACHED")
    /// A waypoint is reached on the left.
    public static let waypointLeft = Maneuver(rawValue: "WAYPOINT_LEFT")
    /// A waypoint is reached on the right.
    public static let waypointRight = Maneuver(rawValue: "WAYPOINT_RIGHT")

    /// Whether this ends the route.
    public var isArrival: Bool { rawValue.hasPrefix("ARRIVE") }
}

/// The server's RFC 3339 times ("2026-12-01T08:05:00+01:00").
enum RouteTime {
    static func parse(_ text: String, field: String) throws(WayfinderError) -> Date {
        guard let date = RFC3339.parse(text, defaultTimeZone: TimeZone(identifier: "UTC") ?? .current) else {
            throw .decodingFailed("\(field) \"\(text)\" is not an RFC 3339 date-time")
        }
        return date
    }
}
