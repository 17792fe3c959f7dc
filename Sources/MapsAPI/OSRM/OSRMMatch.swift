extension OSRM {
    /// `/match/v1`: the trace's matched stretches and, per input point, where it was matched.
    public struct MatchResponse: Codable, Sendable {
        public var code = "Ok"
        public var matchings: [Matching]
        /// One per input coordinate, in order; null where the point was not matched (an outlier,
        /// removed by `tidy`, or far from every road).
        public var tracepoints: [Tracepoint?]

        public init(matchings: [Matching], tracepoints: [Tracepoint?]) {
            self.matchings = matchings
            self.tracepoints = tracepoints
        }
    }

    /// A route object with the matcher's confidence.
    public struct Matching: Codable, Sendable {
        public var confidence: Double
        public var geometry: Geometry?
        public var legs: [Leg]
        public var weight_name = "routability"
        public var weight: Double
        public var duration: Double
        public var distance: Double

        public init(confidence: Double, route: Route) {
            self.confidence = confidence
            geometry = route.geometry
            legs = route.legs
            weight = route.weight
            duration = route.duration
            distance = route.distance
        }
    }

    public struct Tracepoint: Codable, Sendable {
        public var hint: String?
        /// Metres from the input point to its matched location.
        public var distance: Double
        public var name: String
        public var location: [Double]
        /// The matching it belongs to, and its index among that matching's waypoints.
        public var matchings_index: Int
        public var waypoint_index: Int
        /// Other candidate roads the point had.
        public var alternatives_count: Int

        public init(distance: Double, name: String, location: [Double], matchings_index: Int, waypoint_index: Int, alternatives_count: Int) {
            hint = ""
            self.distance = distance
            self.name = name
            self.location = location
            self.matchings_index = matchings_index
            self.waypoint_index = waypoint_index
            self.alternatives_count = alternatives_count
        }
    }
}
