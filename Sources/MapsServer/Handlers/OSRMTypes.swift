import Foundation

/// OSRM v1 response shapes (API-SHAPES §3), so OSRM clients (routingpy, osrm-frontend) work.
enum OSRM {
    struct RouteResponse: Encodable {
        var code = "Ok"
        var routes: [Route]
        var waypoints: [Waypoint]
    }

    struct Route: Encodable {
        var geometry: Geometry?
        var legs: [Leg]
        var weight_name = "routability"
        var weight: Double
        var duration: Double
        var distance: Double
    }

    struct Leg: Encodable {
        var steps: [Step]
        var summary: String
        var weight: Double
        var duration: Double
        var distance: Double
        var annotation: Annotation?
    }

    struct Annotation: Encodable {
        var distance: [Double]?
        var duration: [Double]?
        var speed: [Double]?
        var nodes: [Int64]?
        var weight: [Double]?
    }

    struct Step: Encodable {
        var geometry: Geometry
        var maneuver: Maneuver
        var mode: String
        var driving_side: String
        var name: String
        var ref: String?
        var intersections: [Intersection]
        var weight: Double
        var duration: Double
        var distance: Double
    }

    struct Maneuver: Encodable {
        var bearing_after: Int
        var bearing_before: Int
        var location: [Double]
        var type: String
        var modifier: String?
        var exit: Int?
    }

    struct Intersection: Encodable {
        var location: [Double]
        var bearings: [Int]
        var entry: [Bool]
        var out: Int?
        var `in`: Int?
    }

    struct Waypoint: Encodable {
        var hint: String?
        var distance: Double
        var name: String
        var location: [Double]
        var nodes: [Int64]?
    }

    /// A geometry as an encoded string or a GeoJSON LineString.
    enum Geometry: Encodable {
        case encoded(String)
        case geoJSON([[Double]])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .encoded(let s):
                var c = encoder.singleValueContainer()
                try c.encode(s)
            case .geoJSON(let coordinates):
                struct Line: Encodable { var type = "LineString"; var coordinates: [[Double]] }
                var c = encoder.singleValueContainer()
                try c.encode(Line(coordinates: coordinates))
            }
        }
    }

    struct NearestResponse: Encodable {
        var code = "Ok"
        var waypoints: [Waypoint]
    }

    struct TableResponse: Encodable {
        var code = "Ok"
        var durations: [[Double?]]?
        var distances: [[Double?]]?
        var sources: [Waypoint]
        var destinations: [Waypoint]
    }

    struct ErrorBody: Encodable {
        var code: String
        var message: String
    }
}
