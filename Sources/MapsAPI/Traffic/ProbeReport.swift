/// What the server did with a batch of probe positions (`POST /traffic/1/probes`, 202).
public struct ProbeReport: Sendable, Codable {
    /// Vehicles in the batch.
    public var vehicles: Int
    /// Positions received: the number a "probe points per minute" quota counts.
    public var points: Int
    /// Positions matched to a road.
    public var matchedPoints: Int
    /// Positions not used, by reason: `olderThanLastSeen` (a vehicle's position at or before one
    /// it sent already), `rateLimited` (more than the per-vehicle rate), `unmatched` (far from
    /// every road, or an outlier).
    public var dropped: [String: Int]
    /// Whole road segments whose traversal time this batch measured.
    public var traversals: Int
    /// Segments whose live speed the probes now set (each seen by enough vehicles in the window).
    public var speeds: [SegmentSpeed]
    /// The live update that carries them, when one was published with this batch.
    public var update: String?
    /// When that update stops counting (RFC 3339).
    public var expiresAt: String?

    public init(vehicles: Int, points: Int, matchedPoints: Int, dropped: [String: Int], traversals: Int, speeds: [SegmentSpeed],
                update: String?, expiresAt: String?) {
        self.vehicles = vehicles
        self.points = points
        self.matchedPoints = matchedPoints
        self.dropped = dropped
        self.traversals = traversals
        self.speeds = speeds
        self.update = update
        self.expiresAt = expiresAt
    }

    /// A segment's speed as the probes measured it.
    public struct SegmentSpeed: Sendable, Codable, Hashable {
        /// OSM node ids, in the direction of travel.
        public var from: Int64
        public var to: Int64
        public var speedKmh: Double
        /// Distinct vehicles whose traversals it comes from.
        public var vehicles: Int

        public init(from: Int64, to: Int64, speedKmh: Double, vehicles: Int) {
            self.from = from
            self.to = to
            self.speedKmh = speedKmh
            self.vehicles = vehicles
        }
    }
}
