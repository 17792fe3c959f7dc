public import GeoCore
public import RoadNetwork
import Foundation

/// Traces that can be graded: a known drive along arcs sampled like a GPS receiver would, with
/// Gaussian noise, outliers and gaps, and the truth kept beside it.
public struct SimulatedTrace: Sendable {
    public var points: [TracePoint]
    /// The edge each fix was really on.
    public var trueEdges: [EdgeID]
    /// The directed OSM segments driven, with the metres of each that were driven.
    public var trueSegments: [DirectedSegment: Double]
}

/// A directed stretch between two consecutive OSM nodes.
public struct DirectedSegment: Hashable, Sendable {
    public var from: Int64
    public var to: Int64
    public init(from: Int64, to: Int64) { self.from = from; self.to = to }
}

/// One arc of a drive: the part covered and how long it took.
public struct DrivenPiece: Sendable {
    public var arc: ArcID
    public var from: Double
    public var to: Double
    public var seconds: Double
    public init(arc: ArcID, from: Double, to: Double, seconds: Double) {
        self.arc = arc; self.from = from; self.to = to; self.seconds = seconds
    }
}

public struct TraceSimulation: Sendable {
    public var intervalSeconds: Double
    /// σ of each axis of the position error, metres.
    public var noiseMeters: Double
    /// Share of fixes thrown 60–150 m off.
    public var outlierShare = 0.02
    /// Whether to leave out one run of fixes (45 s of them) in the middle.
    public var gap = false

    public init(intervalSeconds: Double, noiseMeters: Double) {
        self.intervalSeconds = intervalSeconds
        self.noiseMeters = noiseMeters
    }

    public func trace(_ graph: RoadGraph, drive: [DrivenPiece], start: Double, using rng: inout some RandomNumberGenerator) -> SimulatedTrace {
        // The drive as a polyline with a time at every vertex, and the edge of each stretch.
        var vertices: [(point: Coordinate, time: Double, edge: EdgeID)] = []
        var spans: [(arc: ArcID, from: Double, to: Double, start: Double, seconds: Double)] = []
        var time = start
        for piece in drive {
            spans.append((piece.arc, piece.from, piece.to, time, piece.seconds))
            let shape = graph.shape(of: piece.arc)
            var cumulative = [0.0]
            for (a, b) in zip(shape, shape.dropFirst()) { cumulative.append(cumulative.last! + Geodesy.distanceMeters(a, b)) }
            let total = max(0.01, cumulative.last!)
            let lo = piece.from * total, hi = piece.to * total
            let edge = graph.edge(of: piece.arc)
            func at(_ d: Double) -> Coordinate {
                var i = 1
                while i < shape.count - 1 && cumulative[i] < d { i += 1 }
                let span = cumulative[i] - cumulative[i - 1]
                return Geodesy.interpolate(shape[i - 1], shape[i], span > 0 ? min(1, max(0, (d - cumulative[i - 1]) / span)) : 0)
            }
            let speed = (hi - lo) / max(0.001, piece.seconds)
            var marks = [lo]
            for c in cumulative where c > lo && c < hi { marks.append(c) }
            marks.append(hi)
            for d in marks { vertices.append((at(d), time + (d - lo) / max(0.001, speed), edge)) }
            time += piece.seconds
        }
        var points: [TracePoint] = [], edges: [EdgeID] = []
        guard let first = vertices.first, let last = vertices.last else { return SimulatedTrace(points: [], trueEdges: [], trueSegments: [:]) }
        let gapStart = gap ? first.time + (last.time - first.time) / 2 : .infinity
        var k = 0
        var t = first.time
        while t <= last.time {
            defer { t += intervalSeconds }
            if t >= gapStart && t < gapStart + 45 { continue }
            while k + 1 < vertices.count - 1 && vertices[k + 1].time < t { k += 1 }
            let a = vertices[k], b = vertices[min(k + 1, vertices.count - 1)]
            let f = b.time > a.time ? min(1, max(0, (t - a.time) / (b.time - a.time))) : 0
            let truth = Geodesy.interpolate(a.point, b.point, f)
            var (dx, dy) = (gaussian(&rng) * noiseMeters, gaussian(&rng) * noiseMeters)
            if Double(rng.next() % 10_000) / 10_000 < outlierShare {
                let angle = Double(rng.next() % 360) * Double.pi / 180, reach = 60 + Double(rng.next() % 90)
                dx = cos(angle) * reach; dy = sin(angle) * reach
            }
            points.append(TracePoint(Self.offset(truth, east: dx, north: dy), time: t, accuracyMeters: nil))
            edges.append(b.edge)
        }
        // The truth is what was driven between the first fix and the last.
        var segments: [DirectedSegment: Double] = [:]
        if let t0 = points.first?.time, let t1 = points.last?.time {
            for span in spans {
                let a = max(t0, span.start), b = min(t1, span.start + span.seconds)
                guard b > a, span.seconds > 0 else { continue }
                let from = span.from + (span.to - span.from) * (a - span.start) / span.seconds
                let to = span.from + (span.to - span.from) * (b - span.start) / span.seconds
                let shape = graph.shape(of: span.arc), ids = graph.shapeOSMIDs(of: span.arc)
                var cumulative = [0.0]
                for (p, q) in zip(shape, shape.dropFirst()) { cumulative.append(cumulative.last! + Geodesy.distanceMeters(p, q)) }
                let total = cumulative.last!
                for i in 0..<(ids.count - 1) {
                    let driven = min(cumulative[i + 1], to * total) - max(cumulative[i], from * total)
                    if driven > 0.01 { segments[DirectedSegment(from: ids[i], to: ids[i + 1]), default: 0] += driven }
                }
            }
        }
        return SimulatedTrace(points: points, trueEdges: edges, trueSegments: segments)
    }

    static func offset(_ c: Coordinate, east: Double, north: Double) -> Coordinate {
        let lat = c.latitude + north / Geodesy.metersPerDegreeLatitude
        let lon = c.longitude + east / (Geodesy.metersPerDegreeLatitude * max(0.05, Geodesy.cosine(ofLatitude: c.latitude)))
        return Coordinate(latitude: lat, longitude: lon)
    }

    func gaussian(_ rng: inout some RandomNumberGenerator) -> Double {
        let u1 = max(1e-12, Double(rng.next() >> 11) / Double(1 << 53)), u2 = Double(rng.next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

/// How well a match recovered a simulated drive.
public struct MatchGrade: Sendable {
    /// Share of the true route's length whose directed segments the match drives.
    public var lengthShare: Double
    /// Share of fixes matched onto the road they were really on: onto their edge, or within
    /// 1.5 m of it (a fix matched at a junction is on every road that meets there).
    public var pointShare: Double

    public init(_ trace: SimulatedTrace, result: MatchResult, graph: RoadGraph) {
        var matched = Set<DirectedSegment>()
        for matching in result.matchings {
            for leg in matching.legs {
                for (i, arc) in leg.arcs.enumerated() {
                    let from = i == 0 ? leg.start : 0, to = i == leg.arcs.count - 1 ? leg.end : 1
                    let ids = graph.shapeOSMIDs(of: arc), shape = graph.shape(of: arc)
                    var cumulative = [0.0]
                    for (a, b) in zip(shape, shape.dropFirst()) { cumulative.append(cumulative.last! + Geodesy.distanceMeters(a, b)) }
                    let total = max(0.01, cumulative.last!)
                    for s in 0..<(ids.count - 1) where cumulative[s + 1] / total > from && cumulative[s] / total < to {
                        matched.insert(DirectedSegment(from: ids[s], to: ids[s + 1]))
                    }
                }
            }
        }
        let total = trace.trueSegments.values.reduce(0, +)
        let hit = trace.trueSegments.filter { matched.contains($0.key) }.values.reduce(0, +)
        lengthShare = total > 0 ? hit / total : 0
        var right = 0
        for (i, edge) in trace.trueEdges.enumerated() {
            guard let snap = result.points[i]?.snap else { continue }
            if snap.edge == edge || Self.distanceMeters(snap.point, to: edge, graph) <= 1.5 { right += 1 }
        }
        pointShare = trace.trueEdges.isEmpty ? 0 : Double(right) / Double(trace.trueEdges.count)
    }

    static func distanceMeters(_ p: Coordinate, to edge: EdgeID, _ graph: RoadGraph) -> Double {
        var best = Double.infinity
        for i in Int(graph.edgeShapeStart[edge.index])..<(Int(graph.edgeShapeStart[edge.index + 1]) - 1) {
            let (q, _) = Geodesy.project(p, ontoSegment: graph.shapeCoordinates[i], graph.shapeCoordinates[i + 1])
            best = min(best, Geodesy.distanceMeters(p, q))
        }
        return best
    }
}
