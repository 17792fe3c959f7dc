public import GeoCore
public import RoadNetwork
public import RoutePlanning

/// What guidance needs of a route: the arcs each leg drives, how far and how long, and where
/// each waypoint was asked for (to tell on which side a destination lies).
public struct GuidanceRoute: Sendable {
    public struct Piece: Sendable {
        public var arc: ArcID
        public var lengthMeters: Double
        public var durationSeconds: Double
        /// Index in the leg's `points` where the piece starts.
        public var firstPoint: Int

        public init(arc: ArcID, lengthMeters: Double, durationSeconds: Double, firstPoint: Int) {
            self.arc = arc
            self.lengthMeters = lengthMeters
            self.durationSeconds = durationSeconds
            self.firstPoint = firstPoint
        }
    }

    public struct Leg: Sendable {
        public var pieces: [Piece]
        public var points: [Coordinate]
        /// The waypoint the leg ends at, as given (not snapped).
        public var destination: Coordinate

        public init(pieces: [Piece], points: [Coordinate], destination: Coordinate) {
            self.pieces = pieces
            self.points = points
            self.destination = destination
        }

        public var lengthMeters: Double { pieces.reduce(0) { $0 + $1.lengthMeters } }
    }

    public var legs: [Leg]

    public init(legs: [Leg]) { self.legs = legs }

    /// The legs of a planned route.
    public init(_ route: TimedRoute) {
        legs = route.legs.enumerated().map { i, leg in
            Leg(pieces: leg.arcs.map { Piece(arc: $0.arc, lengthMeters: $0.lengthMeters, durationSeconds: $0.durationSeconds, firstPoint: $0.firstPoint) },
                points: leg.points,
                destination: i + 1 < route.waypoints.count ? route.waypoints[i + 1].input : leg.points[leg.points.count - 1])
        }
    }
}
