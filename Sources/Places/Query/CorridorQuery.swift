public import GeoCore

/// POIs within a distance of a polyline (candidates for search along a route).
public struct CorridorQuery: Sendable, Equatable {
    /// The route, at least two points.
    public var polyline: [Coordinate]
    /// Straight-line distance from the polyline, in metres.
    public var maxDistanceMeters: Double
    /// Words to match (name, address, cuisine, brand; last word as prefix), or a category name ("gas station").
    public var text: String?
    /// Category filters: string ids, TomTom ids or names.
    public var categories: [String]
    /// Most candidates returned, nearest to the route first.
    public var limit: Int
    public var language: String?

    public init(polyline: [Coordinate], maxDistanceMeters: Double, text: String? = nil, categories: [String] = [],
                limit: Int = 200, language: String? = nil) {
        self.polyline = polyline
        self.maxDistanceMeters = maxDistanceMeters
        self.text = text
        self.categories = categories
        self.limit = limit
        self.language = language
    }
}

/// One POI near the route and where it is relative to the route.
public struct CorridorMatch: Sendable, Equatable {
    public var place: PlaceResult
    /// Straight-line distance from the polyline.
    public var distanceFromRouteMeters: Double
    /// Metres along the polyline from its start to the point nearest the place.
    public var offsetAlongRouteMeters: Double
    /// Index of the polyline segment (from point `i` to `i + 1`) nearest the place.
    public var segmentIndex: Int
    /// The point of the polyline nearest the place.
    public var nearestRoutePoint: Coordinate

    public init(place: PlaceResult, distanceFromRouteMeters: Double, offsetAlongRouteMeters: Double, segmentIndex: Int,
                nearestRoutePoint: Coordinate) {
        self.place = place
        self.distanceFromRouteMeters = distanceFromRouteMeters
        self.offsetAlongRouteMeters = offsetAlongRouteMeters
        self.segmentIndex = segmentIndex
        self.nearestRoutePoint = nearestRoutePoint
    }
}
