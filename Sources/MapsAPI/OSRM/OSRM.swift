/// OSRM v1 response shapes (API-SHAPES §3), so OSRM clients (routingpy, osrm-frontend) work.
public enum OSRM {
    public struct RouteResponse: Codable, Sendable {
        public var code = "Ok"
        public var routes: [Route]
        public var waypoints: [Waypoint]

        public init(routes: [Route], waypoints: [Waypoint]) {
            self.routes = routes
            self.waypoints = waypoints
        }
    }

    public struct Route: Codable, Sendable {
        public var geometry: Geometry?
        public var legs: [Leg]
        public var weight_name = "routability"
        public var weight: Double
        public var duration: Double
        public var distance: Double
        /// Wayfinder's addition: where the times come from (`freeFlow`, `live`, `importedProfiles`,
        /// `learnedProfiles`, `demoCongestion`).
        public var time_sources: [String]?

        public init(geometry: Geometry? = nil, legs: [Leg], weight: Double, duration: Double, distance: Double) {
            self.geometry = geometry
            self.legs = legs
            self.weight = weight
            self.duration = duration
            self.distance = distance
        }
    }

    public struct Leg: Codable, Sendable {
        public var steps: [Step]
        public var summary: String
        public var weight: Double
        public var duration: Double
        public var distance: Double
        public var annotation: Annotation?

        public init(steps: [Step], summary: String, weight: Double, duration: Double, distance: Double,
                    annotation: Annotation? = nil) {
            self.steps = steps
            self.summary = summary
            self.weight = weight
            self.duration = duration
            self.distance = distance
            self.annotation = annotation
        }
    }

    public struct Annotation: Codable, Sendable {
        public var distance: [Double]?
        public var duration: [Double]?
        public var speed: [Double]?
        public var nodes: [Int64]?
        public var weight: [Double]?
        /// Per segment, the index in `metadata.datasource_names` of where its time came from.
        public var datasources: [Int]?
        public var metadata: Metadata?

        public struct Metadata: Codable, Sendable {
            public var datasource_names: [String]
            public init(datasource_names: [String]) { self.datasource_names = datasource_names }
        }

        public init(distance: [Double]? = nil, duration: [Double]? = nil, speed: [Double]? = nil, nodes: [Int64]? = nil,
                    weight: [Double]? = nil, datasources: [Int]? = nil, metadata: Metadata? = nil) {
            self.distance = distance
            self.duration = duration
            self.speed = speed
            self.nodes = nodes
            self.weight = weight
            self.datasources = datasources
            self.metadata = metadata
        }
    }

    public struct Step: Codable, Sendable {
        public var geometry: Geometry
        public var maneuver: Maneuver
        public var mode: String
        public var driving_side: String
        public var name: String
        public var ref: String?
        /// Where the road leads, as signed ("A 5: Darmstadt, Frankfurt"); omitted when unsigned.
        public var destinations: String?
        /// The exit number of a ramp; omitted when it has none.
        public var exits: String?
        /// The name of a rotary (a large named circle).
        public var rotary_name: String?
        public var intersections: [Intersection]
        public var weight: Double
        public var duration: Double
        public var distance: Double

        public init(geometry: Geometry, maneuver: Maneuver, mode: String, driving_side: String, name: String,
                    ref: String? = nil, destinations: String? = nil, exits: String? = nil, rotary_name: String? = nil,
                    intersections: [Intersection], weight: Double, duration: Double, distance: Double) {
            self.geometry = geometry
            self.maneuver = maneuver
            self.mode = mode
            self.driving_side = driving_side
            self.name = name
            self.ref = ref
            self.destinations = destinations
            self.exits = exits
            self.rotary_name = rotary_name
            self.intersections = intersections
            self.weight = weight
            self.duration = duration
            self.distance = distance
        }
    }

    public struct Maneuver: Codable, Sendable {
        public var bearing_after: Int
        public var bearing_before: Int
        public var location: [Double]
        public var type: String
        public var modifier: String?
        public var exit: Int?
        /// The instruction as text in the asked `language` (as Mapbox's Directions API words it).
        public var instruction: String?

        public init(bearing_after: Int, bearing_before: Int, location: [Double], type: String, modifier: String? = nil,
                    exit: Int? = nil, instruction: String? = nil) {
            self.bearing_after = bearing_after
            self.bearing_before = bearing_before
            self.location = location
            self.type = type
            self.modifier = modifier
            self.exit = exit
            self.instruction = instruction
        }
    }

    public struct Intersection: Codable, Sendable {
        public var location: [Double]
        public var bearings: [Int]
        public var entry: [Bool]
        public var out: Int?
        public var `in`: Int?
        public var lanes: [Lane]?

        public init(location: [Double], bearings: [Int], entry: [Bool], out: Int? = nil, in entering: Int? = nil, lanes: [Lane]? = nil) {
            self.location = location
            self.bearings = bearings
            self.entry = entry
            self.out = out
            self.`in` = entering
            self.lanes = lanes
        }
    }

    /// A lane at an intersection: its markings (`left`, `straight`, `slight right`, `none`, …) and whether the route can use it.
    public struct Lane: Codable, Sendable, Equatable {
        public var indications: [String]
        public var valid: Bool

        public init(indications: [String], valid: Bool) {
            self.indications = indications
            self.valid = valid
        }
    }

    public struct Waypoint: Codable, Sendable {
        public var hint: String?
        public var distance: Double
        public var name: String
        public var location: [Double]
        public var nodes: [Int64]?

        public init(hint: String? = nil, distance: Double, name: String, location: [Double], nodes: [Int64]? = nil) {
            self.hint = hint
            self.distance = distance
            self.name = name
            self.location = location
            self.nodes = nodes
        }
    }

    /// A geometry as an encoded string or a GeoJSON LineString.
    public enum Geometry: Codable, Sendable {
        case encoded(String)
        case geoJSON([[Double]])

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .encoded(let s):
                var c = encoder.singleValueContainer()
                try c.encode(s)
            case .geoJSON(let coordinates):
                var c = encoder.singleValueContainer()
                try c.encode(Line(coordinates: coordinates))
            }
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) { self = .encoded(s); return }
            self = .geoJSON(try c.decode(Line.self).coordinates)
        }

        struct Line: Codable { var type = "LineString"; var coordinates: [[Double]] }
    }

    public struct NearestResponse: Codable, Sendable {
        public var code = "Ok"
        public var waypoints: [Waypoint]

        public init(waypoints: [Waypoint]) {
            self.waypoints = waypoints
        }
    }

    public struct TableResponse: Codable, Sendable {
        public var code = "Ok"
        public var durations: [[Double?]]?
        public var distances: [[Double?]]?
        public var sources: [Waypoint]
        public var destinations: [Waypoint]

        public init(durations: [[Double?]]? = nil, distances: [[Double?]]? = nil, sources: [Waypoint], destinations: [Waypoint]) {
            self.durations = durations
            self.distances = distances
            self.sources = sources
            self.destinations = destinations
        }
    }

    public struct ErrorBody: Codable, Sendable {
        public var code: String
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }
}
