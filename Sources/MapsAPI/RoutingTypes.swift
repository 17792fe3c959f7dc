public import Foundation

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
    public init(summary: RouteSummary, points: [LatLon]?) {
        self.summary = summary
        self.points = points
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

    public init(startPointIndex: Int, endPointIndex: Int, sectionType: String, travelMode: String? = nil) {
        self.startPointIndex = startPointIndex
        self.endPointIndex = endPointIndex
        self.sectionType = sectionType
        self.travelMode = travelMode
    }
}

public struct Guidance: Codable, Sendable {
    public var instructions: [Instruction]
    public var instructionGroups: [InstructionGroup]
    public init(instructions: [Instruction], instructionGroups: [InstructionGroup]) {
        self.instructions = instructions
        self.instructionGroups = instructionGroups
    }
}

public struct Instruction: Codable, Sendable, Equatable {
    public var routeOffsetInMeters: Int
    public var travelTimeInSeconds: Int
    public var point: LatLon
    public var pointIndex: Int
    public var instructionType: String
    public var street: String?
    public var roadNumbers: [String]?
    public var countryCode: String?
    public var junctionType: String?
    public var turnAngleInDecimalDegrees: Int?
    public var roundaboutExitNumber: Int?
    public var possibleCombineWithNext: Bool
    public var drivingSide: String
    public var maneuver: String
    public var message: String?
    public var combinedMessage: String?

    public init(routeOffsetInMeters: Int, travelTimeInSeconds: Int, point: LatLon, pointIndex: Int, instructionType: String,
                street: String?, roadNumbers: [String]?, junctionType: String?, turnAngleInDecimalDegrees: Int?,
                roundaboutExitNumber: Int?, possibleCombineWithNext: Bool, drivingSide: String, maneuver: String,
                message: String?, combinedMessage: String?) {
        self.routeOffsetInMeters = routeOffsetInMeters
        self.travelTimeInSeconds = travelTimeInSeconds
        self.point = point
        self.pointIndex = pointIndex
        self.instructionType = instructionType
        self.street = street
        self.roadNumbers = roadNumbers
        self.junctionType = junctionType
        self.turnAngleInDecimalDegrees = turnAngleInDecimalDegrees
        self.roundaboutExitNumber = roundaboutExitNumber
        self.possibleCombineWithNext = possibleCombineWithNext
        self.drivingSide = drivingSide
        self.maneuver = maneuver
        self.message = message
        self.combinedMessage = combinedMessage
    }
}

public struct InstructionGroup: Codable, Sendable, Equatable {
    public var firstInstructionIndex: Int
    public var lastInstructionIndex: Int
    public var groupLengthInMeters: Int
    public var groupMessage: String?
    public init(firstInstructionIndex: Int, lastInstructionIndex: Int, groupLengthInMeters: Int, groupMessage: String?) {
        self.firstInstructionIndex = firstInstructionIndex
        self.lastInstructionIndex = lastInstructionIndex
        self.groupLengthInMeters = groupLengthInMeters
        self.groupMessage = groupMessage
    }
}

/// One step of a route as MKRoute.Step describes it.
public struct RouteStepBody: Codable, Sendable, Equatable {
    public var instruction: String
    public var distanceInMeters: Int
    public var travelTimeInSeconds: Int
    public var maneuver: String
    public var street: String?
    public var points: [LatLon]
    public init(instruction: String, distanceInMeters: Int, travelTimeInSeconds: Int, maneuver: String, street: String?,
                points: [LatLon]) {
        self.instruction = instruction
        self.distanceInMeters = distanceInMeters
        self.travelTimeInSeconds = travelTimeInSeconds
        self.maneuver = maneuver
        self.street = street
        self.points = points
    }
}
