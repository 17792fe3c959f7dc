/// The body of TomTom's `POST /search/2/searchAlongRoute/{query}.json`: the route as driven.
public struct AlongRouteRequestBody: Codable, Sendable {
    public struct Route: Codable, Sendable {
        public var points: [SearchPosition]
        public init(points: [SearchPosition]) { self.points = points }
    }

    public var route: Route

    public init(points: [SearchPosition]) { route = Route(points: points) }
}

/// The body of TomTom's `POST /routing/1/calculateRoute/…`: supporting points, avoid areas and
/// vignettes, of which Wayfinder reads the supporting points to validate them (the route goes
/// through the locations of the path).
public struct CalculateRouteRequestBody: Codable, Sendable {
    public var supportingPoints: [LatLon]?

    public init(supportingPoints: [LatLon]? = nil) { self.supportingPoints = supportingPoints }
}
