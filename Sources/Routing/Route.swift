public import RoadNetwork
public import GeoCore

/// A route found on the road graph: legs between consecutive waypoints, in metres and seconds.
public struct Route: Sendable {
    public var legs: [RouteLeg]
    /// The waypoints as given and as snapped onto the road.
    public var endpoints: [RouteEndpoint]
    /// The metric's total cost (its `WeightUnit`: rate-weighted ms for fastest car routes, cm for shortest); for comparisons, not display.
    public var cost: UInt32

    public init(legs: [RouteLeg], endpoints: [RouteEndpoint], cost: UInt32) {
        self.legs = legs
        self.endpoints = endpoints
        self.cost = cost
    }

    public var lengthMeters: Double { legs.reduce(0) { $0 + $1.lengthMeters } }
    public var durationSeconds: Double { legs.reduce(0) { $0 + $1.durationSeconds } }
    public var points: [Coordinate] {
        var all: [Coordinate] = []
        for leg in legs {
            all.append(contentsOf: all.last == leg.points.first ? Array(leg.points.dropFirst()) : leg.points)
        }
        return all
    }
}

/// One leg: the arcs driven, each with how much of it is covered and when.
public struct RouteLeg: Sendable {
    public var pieces: [Piece]
    public var points: [Coordinate]

    /// One arc of the leg and the part of it the route covers.
    public struct Piece: Sendable {
        public var arc: ArcID
        public var fromFraction: Double
        public var toFraction: Double
        public var lengthMeters: Double
        /// Seconds to drive this piece, including the turn into it.
        public var durationSeconds: Double
        /// Seconds of that which the turn into this piece costs.
        public var turnSeconds: Double
        /// Index in `points` where this piece starts.
        public var firstPoint: Int
    }

    public var lengthMeters: Double { pieces.reduce(0) { $0 + $1.lengthMeters } }
    public var durationSeconds: Double { pieces.reduce(0) { $0 + $1.durationSeconds } }
}

extension RouteLeg {
    /// Builds a leg from a path of arcs with free-flow durations; `start`/`end` are the fractions on
    /// the first and last arc.
    public init(graph: RoadGraph, arcs: [ArcID], start: Double, end: Double) {
        var pieces: [Piece] = []
        var points: [Coordinate] = []
        for (i, arc) in arcs.enumerated() {
            let from = i == 0 ? start : 0
            let to = i == arcs.count - 1 ? end : 1
            let covered = max(0, to - from)
            var turn = 0.0
            if i > 0 {
                let previous = arcs[i - 1]
                for t in graph.turns(from: previous) where graph.arcOriginal[graph.turnTarget[t].index] == graph.arcOriginal[arc.index] {
                    turn = Double(graph.turnDurationMs[t]) / 1000
                    break
                }
            }
            let shape = graph.shape(of: arc)
            let slice = Self.slice(shape, from: from, to: to)
            let firstPoint = points.isEmpty ? 0 : points.count - 1
            points.append(contentsOf: points.isEmpty ? slice : Array(slice.dropFirst()))
            pieces.append(Piece(arc: arc, fromFraction: from, toFraction: to,
                                lengthMeters: Double(graph.lengthCm(of: arc)) / 100 * covered,
                                durationSeconds: Double(graph.arcDurationMs[arc.index]) / 1000 * covered + turn,
                                turnSeconds: turn, firstPoint: firstPoint))
        }
        self.pieces = pieces
        self.points = points
    }

    /// The part of a polyline between two fractions of its length.
    static func slice(_ shape: [Coordinate], from: Double, to: Double) -> [Coordinate] {
        guard shape.count >= 2 else { return shape }
        var cumulative = [0.0]
        for i in 1..<shape.count { cumulative.append(cumulative[i - 1] + Geodesy.distanceMeters(shape[i - 1], shape[i])) }
        let total = cumulative[cumulative.count - 1]
        guard total > 0 else { return [shape[0], shape[shape.count - 1]] }
        func point(at fraction: Double) -> (Coordinate, Int) {
            let d = fraction * total
            var i = 1
            while i < shape.count - 1 && cumulative[i] < d { i += 1 }
            let segment = cumulative[i] - cumulative[i - 1]
            let f = segment > 0 ? (d - cumulative[i - 1]) / segment : 0
            return (Geodesy.interpolate(shape[i - 1], shape[i], min(1, max(0, f))), i)
        }
        let (a, ia) = point(at: from)
        let (b, ib) = point(at: to)
        var out = [a]
        if ia < ib { out.append(contentsOf: shape[ia..<ib]) }
        if out.last != b || out.count == 1 { out.append(b) }
        return out
    }
}
