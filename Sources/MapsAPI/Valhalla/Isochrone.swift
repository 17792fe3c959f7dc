/// Valhalla's `/isochrone`: the request (`GET /isochrone?json=…` or a POST body) and the GeoJSON
/// FeatureCollection it answers with, one Feature per contour, largest contour first.
public enum Valhalla {
    public struct IsochroneRequest: Codable, Sendable {
        public struct Location: Codable, Sendable {
            public var lat: Double
            public var lon: Double
            public init(lat: Double, lon: Double) { self.lat = lat; self.lon = lon }
        }

        public struct Contour: Codable, Sendable {
            /// Minutes.
            public var time: Double?
            /// Kilometres.
            public var distance: Double?
            /// Hex without `#`.
            public var color: String?
            public init(time: Double? = nil, distance: Double? = nil, color: String? = nil) {
                self.time = time
                self.distance = distance
                self.color = color
            }
        }

        /// `type` 0 current, 1 depart at, 2 arrive by, 3 invariant; `value` a local `YYYY-MM-DDTHH:MM`.
        public struct DateTime: Codable, Sendable {
            public var type: Int
            public var value: String?
            public init(type: Int, value: String? = nil) { self.type = type; self.value = value }
        }

        public var locations: [Location]
        public var costing: String
        public var contours: [Contour]
        public var polygons: Bool?
        public var denoise: Double?
        public var generalize: Double?
        public var date_time: DateTime?
        public var reverse: Bool?
        public var show_locations: Bool?
        public var id: String?

        public init(locations: [Location], costing: String, contours: [Contour]) {
            self.locations = locations
            self.costing = costing
            self.contours = contours
        }
    }

    public struct FeatureCollection: Codable, Sendable {
        public var type = "FeatureCollection"
        public var features: [Feature]
        public var id: String?
        public init(features: [Feature], id: String? = nil) { self.features = features; self.id = id }
    }

    public struct Feature: Codable, Sendable {
        public var type = "Feature"
        public var geometry: Geometry
        public var properties: Properties
        public init(geometry: Geometry, properties: Properties) { self.geometry = geometry; self.properties = properties }
    }

    /// A GeoJSON geometry: Polygon / MultiPolygon for `polygons: true`, LineString /
    /// MultiLineString otherwise, MultiPoint for `show_locations`; positions are `[lon, lat]`.
    public enum Geometry: Codable, Sendable {
        case polygon([[[Double]]])
        case multiPolygon([[[[Double]]]])
        case lineString([[Double]])
        case multiLineString([[[Double]]])
        case multiPoint([[Double]])

        enum CodingKeys: String, CodingKey { case type, coordinates }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            switch try c.decode(String.self, forKey: .type) {
            case "Polygon": self = .polygon(try c.decode([[[Double]]].self, forKey: .coordinates))
            case "MultiPolygon": self = .multiPolygon(try c.decode([[[[Double]]]].self, forKey: .coordinates))
            case "LineString": self = .lineString(try c.decode([[Double]].self, forKey: .coordinates))
            case "MultiLineString": self = .multiLineString(try c.decode([[[Double]]].self, forKey: .coordinates))
            case "MultiPoint": self = .multiPoint(try c.decode([[Double]].self, forKey: .coordinates))
            case let other: throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown geometry \(other)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .polygon(let p): try c.encode("Polygon", forKey: .type); try c.encode(p, forKey: .coordinates)
            case .multiPolygon(let p): try c.encode("MultiPolygon", forKey: .type); try c.encode(p, forKey: .coordinates)
            case .lineString(let p): try c.encode("LineString", forKey: .type); try c.encode(p, forKey: .coordinates)
            case .multiLineString(let p): try c.encode("MultiLineString", forKey: .type); try c.encode(p, forKey: .coordinates)
            case .multiPoint(let p): try c.encode("MultiPoint", forKey: .type); try c.encode(p, forKey: .coordinates)
            }
        }
    }

    public struct Properties: Codable, Sendable {
        /// Minutes or kilometres, as asked.
        public var contour: Double?
        /// `time` or `distance`.
        public var metric: String?
        public var color: String?
        public var fill: String?
        public var fillColor: String?
        public var fillOpacity: Double?
        public var opacity: Double?
        enum CodingKeys: String, CodingKey {
            case contour, metric, color, fill, fillColor, fillOpacity, opacity
        }
        public init(contour: Double?, metric: String?, color: String?) {
            self.contour = contour
            self.metric = metric
            self.color = color
            fill = color
            fillColor = color
            fillOpacity = color == nil ? nil : 0.33
            opacity = color == nil ? nil : 0.33
        }
    }

    /// Valhalla's error body: `{"error_code":…,"error":…,"status_code":400,"status":"Bad Request"}`.
    public struct ErrorBody: Codable, Sendable {
        public var error_code: Int
        public var error: String
        public var status_code: Int
        public var status: String
        public init(code: Int, message: String, statusCode: Int = 400) {
            error_code = code
            error = message
            status_code = statusCode
            status = statusCode == 400 ? "Bad Request" : "Error"
        }
    }
}
