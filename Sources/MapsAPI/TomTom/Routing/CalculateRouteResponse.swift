/// `{latitude, longitude}` as TomTom's routing API writes points.
public struct LatLon: Codable, Sendable, Equatable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// TomTom Calculate Route response (`formatVersion` 0.0.12), with Wayfinder's additions
/// (`waypoints`, per-route `steps` and `advisoryNotices`) in fields TomTom clients ignore.
public struct CalculateRouteResponse: Codable, Sendable {
    public var formatVersion: String = "0.0.12"
    public var routes: [RouteBody]
    public var optimizedWaypoints: [OptimizedWaypoint]?
    /// The waypoints as given and as snapped onto the road network.
    public var waypoints: [SnappedWaypoint]?
    public var report: Report?

    public init(routes: [RouteBody], optimizedWaypoints: [OptimizedWaypoint]? = nil, waypoints: [SnappedWaypoint]? = nil,
                report: Report? = nil) {
        self.routes = routes
        self.optimizedWaypoints = optimizedWaypoints
        self.waypoints = waypoints
        self.report = report
    }

    public struct Report: Codable, Sendable {
        public var effectiveSettings: [KeyValue]
        public init(effectiveSettings: [KeyValue]) { self.effectiveSettings = effectiveSettings }
    }

    public struct KeyValue: Codable, Sendable {
        public var key: String
        public var value: String
        public init(key: String, value: String) { self.key = key; self.value = value }
    }
}

public struct OptimizedWaypoint: Codable, Sendable, Equatable {
    public var providedIndex: Int
    public var optimizedIndex: Int
    public init(providedIndex: Int, optimizedIndex: Int) {
        self.providedIndex = providedIndex
        self.optimizedIndex = optimizedIndex
    }
}

public struct SnappedWaypoint: Codable, Sendable {
    public var input: LatLon
    public var snapped: LatLon
    public var distanceInMeters: Double
    /// Name of the road the waypoint snapped to ("" when unnamed).
    public var name: String
    public init(input: LatLon, snapped: LatLon, distanceInMeters: Double, name: String) {
        self.input = input
        self.snapped = snapped
        self.distanceInMeters = distanceInMeters
        self.name = name
    }
}

public struct RouteBody: Codable, Sendable {
    public var summary: RouteSummary
    public var legs: [RouteLegBody]
    public var sections: [RouteSection]
    public var guidance: Guidance?
    /// Steps as MKRoute.Step has them: instruction, distance, time, maneuver, street, points.
    public var steps: [RouteStepBody]?
    /// Notices as MKRoute.advisoryNotices: tolls, ferries, unpaved roads, restricted access, closures.
    public var advisoryNotices: [String]?

    public init(summary: RouteSummary, legs: [RouteLegBody], sections: [RouteSection], guidance: Guidance? = nil,
                steps: [RouteStepBody]? = nil, advisoryNotices: [String]? = nil) {
        self.summary = summary
        self.legs = legs
        self.sections = sections
        self.guidance = guidance
        self.steps = steps
        self.advisoryNotices = advisoryNotices
    }
}

public struct RouteSummary: Codable, Sendable, Equatable {
    public var lengthInMeters: Int
    public var travelTimeInSeconds: Int
    public var trafficDelayInSeconds: Int
    public var trafficLengthInMeters: Int
    public var departureTime: String
    public var arrivalTime: String
    public var noTrafficTravelTimeInSeconds: Int?
    public var historicTrafficTravelTimeInSeconds: Int?
    public var liveTrafficIncidentsTravelTimeInSeconds: Int?
    public var fuelConsumptionInLiters: Double?
    public var deviationDistance: Int?
    public var deviationTime: Int?
    /// Wayfinder's addition, on a route's summary: where its times come from (`freeFlow`, `live`,
    /// `importedProfiles`, `learnedProfiles`, `demoCongestion`).
    public var timeSources: [String]?

    public init(lengthInMeters: Int, travelTimeInSeconds: Int, trafficDelayInSeconds: Int = 0, trafficLengthInMeters: Int = 0,
                departureTime: String, arrivalTime: String) {
        self.lengthInMeters = lengthInMeters
        self.travelTimeInSeconds = travelTimeInSeconds
        self.trafficDelayInSeconds = trafficDelayInSeconds
        self.trafficLengthInMeters = trafficLengthInMeters
        self.departureTime = departureTime
        self.arrivalTime = arrivalTime
    }
}

public struct RouteLegBody: Codable, Sendable {
    public var summary: RouteSummary
    public var points: [LatLon]?
    /// `routeRepresentation=encodedPolyline`: the points as Google's encoded polyline, in place of `points`.
    public var encodedPolyline: String?
    /// Decimal digits of the encoded polyline (TomTom writes 7).
    public var encodedPolylinePrecision: Int?

    public init(summary: RouteSummary, points: [LatLon]?, encodedPolyline: String? = nil, encodedPolylinePrecision: Int? = nil) {
        self.summary = summary
        self.points = points
        self.encodedPolyline = encodedPolyline
        self.encodedPolylinePrecision = encodedPolylinePrecision
    }
}

/// One lane of a LANES section: the directions painted on it, and the one to follow when the route uses it.
public struct SectionLane: Codable, Sendable, Equatable {
    /// STRAIGHT, SLIGHT_RIGHT, RIGHT, SHARP_RIGHT, RIGHT_U_TURN, SLIGHT_LEFT, LEFT, SHARP_LEFT, LEFT_U_TURN.
    public var directions: [String]
    public var follow: String?

    public init(directions: [String], follow: String?) {
        self.directions = directions
        self.follow = follow
    }
}

public struct RouteSection: Codable, Sendable, Equatable {
    public var startPointIndex: Int
    public var endPointIndex: Int
    public var sectionType: String
    public var travelMode: String?
    public var simpleCategory: String?
    public var effectiveSpeedInKmh: Int?
    public var delayInSeconds: Int?
    public var magnitudeOfDelay: Int?
    /// LANES sections: the lanes before a junction, left to right.
    public var lanes: [SectionLane]?

    public init(startPointIndex: Int, endPointIndex: Int, sectionType: String, travelMode: String? = nil) {
        self.startPointIndex = startPointIndex
        self.endPointIndex = endPointIndex
        self.sectionType = sectionType
        self.travelMode = travelMode
    }
}
