/// TomTom Calculate Reachable Range: `{"formatVersion":"0.0.1","reachableRange":{"center":{…},"boundary":[…]}}`.
public struct ReachableRangeResponse: Codable, Sendable {
    public var formatVersion = "0.0.1"
    public var reachableRange: ReachableRange

    public init(reachableRange: ReachableRange) { self.reachableRange = reachableRange }

    public struct ReachableRange: Codable, Sendable {
        /// The point on the road the range starts from.
        public var center: LatLon
        /// The outline of the largest reachable area, counter-clockwise, not closed (as TomTom's).
        public var boundary: [LatLon]

        public init(center: LatLon, boundary: [LatLon]) {
            self.center = center
            self.boundary = boundary
        }
    }
}
