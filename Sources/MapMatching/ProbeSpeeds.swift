public import RoadNetwork
import GeoCore
import Synchronization

/// Road speeds from probe vehicles: each vehicle's batches are matched as they arrive, the time
/// it took to drive every piece of road it covered from end to end is measured (a piece is one
/// segment of an arc's shape, between two OSM nodes, so a jam on part of a long arc is seen
/// where it is and a vehicle that drove only part of an arc still counts for that part; the
/// whole traversal counts, so a wait at a signal counts once, as it does for every driver,
/// rather than as a zero point speed), and a piece's speed is its length over the median
/// traversal time of the vehicles that drove it within the window — only once at least
/// `minVehicles` different vehicles did: one vehicle never sets a speed.
public final class ProbeSpeedEstimator: @unchecked Sendable {
    public struct Settings: Sendable {
        /// Traversals older than this (by their exit time) no longer count.
        public var windowSeconds = 900.0
        /// Distinct vehicles an arc needs in the window; never below 2.
        public var minVehicles = 3
        /// Positions taken from one vehicle per minute of its own time; the rest are dropped.
        public var maxPointsPerVehiclePerMinute = 120
        /// Vehicles remembered at once; a vehicle silent for `forgetSeconds` is forgotten.
        public var maxVehicles = 100_000
        public var forgetSeconds = 1800.0
        /// Positions of a vehicle's last batch kept to join its next one.
        public var tailPoints = 8
        public init() {}
    }

    /// One vehicle's batch as it goes into the matcher.
    public struct Admitted: Sendable {
        /// The kept tail of its previous batch, then the new positions that were accepted.
        public var trace: [TracePoint]
        /// How many of `trace`'s positions come from the previous batch.
        public var tailCount: Int
        /// Traversals ending at or before this time were counted with an earlier batch.
        public var countedUntil: Double
        public var olderThanLastSeen = 0
        public var rateLimited = 0
        public var tooManyVehicles = 0
    }

    public let settings: Settings
    struct Vehicle {
        var tail: [TracePoint] = []
        var lastTime = -Double.infinity
        var minute = -Double.infinity
        var inMinute = 0
    }
    /// A piece of road: segment `segment` (counted in travel order) of original arc `arc`.
    public struct Piece: Hashable, Sendable, Comparable {
        public var arc: ArcID
        public var segment: Int
        public static func < (a: Piece, b: Piece) -> Bool { (a.arc.rawValue, a.segment) < (b.arc.rawValue, b.segment) }
    }
    /// A piece's speed from the vehicles that drove it.
    public struct PieceSpeed: Sendable {
        public var piece: Piece
        public var kmh: Double
        public var vehicles: Int
    }
    struct Observation { var vehicle: String; var exit: Double; var seconds: Double }
    struct Observed { var meters: Double; var list: [Observation] }
    private let state = Mutex<(vehicles: [String: Vehicle], pieces: [Piece: Observed])>(([:], [:]))

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Takes a vehicle's positions (times present and not decreasing, checked by the caller):
    /// drops those at or before the last it sent and those over its rate.
    public func admit(vehicle: String, points: [TracePoint]) -> Admitted {
        state.withLock { s in
            var v = s.vehicles[vehicle] ?? Vehicle()
            var out = Admitted(trace: v.tail, tailCount: v.tail.count, countedUntil: v.lastTime)
            if s.vehicles[vehicle] == nil {
                if s.vehicles.count >= settings.maxVehicles, let newest = points.last?.time {
                    s.vehicles = s.vehicles.filter { newest - $0.value.lastTime < settings.forgetSeconds }
                }
                if s.vehicles.count >= settings.maxVehicles { out.tooManyVehicles = points.count; out.trace = []; out.tailCount = 0; return out }
            }
            for p in points {
                guard let t = p.time, t > v.lastTime else { out.olderThanLastSeen += 1; continue }
                let minute = (t / 60).rounded(.down)
                if minute != v.minute { v.minute = minute; v.inMinute = 0 }
                guard v.inMinute < settings.maxPointsPerVehiclePerMinute else { out.rateLimited += 1; continue }
                v.inMinute += 1
                v.lastTime = t
                out.trace.append(p)
            }
            v.tail = Array(out.trace.suffix(settings.tailPoints))
            s.vehicles[vehicle] = v
            return out
        }
    }

    /// Records the traversals of the pieces of road a matched batch covered end to end; returns
    /// how many were new.
    @discardableResult
    public func record(vehicle: String, admitted: Admitted, result: MatchResult, graph: RoadGraph) -> Int {
        let trace = admitted.trace
        var found: [(piece: Piece, meters: Double, exit: Double, seconds: Double)] = []
        for matching in result.matchings {
            let visits = Self.visits(matching, graph: graph)
            let times = matching.points.map { trace[$0].time ?? 0 }
            func time(at d: Double) -> Double {
                let fixDistance = visits.fixDistance
                var k = 1
                while k < fixDistance.count - 1 && fixDistance[k] < d { k += 1 }
                let span = fixDistance[k] - fixDistance[k - 1]
                let f = span > 0 ? min(1, max(0, (d - fixDistance[k - 1]) / span)) : 1
                return times[k - 1] + (times[k] - times[k - 1]) * f
            }
            for visit in visits.arcs {
                let length = Double(graph.lengthCm(of: visit.arc)) / 100
                let original = graph.arcOriginal[visit.arc.index]
                for (k, piece) in Self.pieces(of: visit.arc, graph: graph).enumerated()
                where visit.from <= piece.from + 1e-6 && visit.to >= piece.to - 1e-6 && piece.to > piece.from {
                    let entry = time(at: visit.start + piece.from * length), exit = time(at: visit.start + piece.to * length)
                    let seconds = exit - entry, meters = (piece.to - piece.from) * length
                    guard exit > admitted.countedUntil, seconds > 0, meters / seconds < 70 else { continue }
                    found.append((Piece(arc: original, segment: k), meters, exit, seconds))
                }
            }
        }
        state.withLock { s in
            for f in found {
                s.pieces[f.piece, default: Observed(meters: f.meters, list: [])].list.append(Observation(vehicle: vehicle, exit: f.exit, seconds: f.seconds))
            }
        }
        return found.count
    }

    /// The arcs a matching drove in order, each with the part of it covered (fractions) and the
    /// distance along the matching where the arc begins; and the distance along it at each fix.
    static func visits(_ matching: Matching, graph: RoadGraph) -> (arcs: [(arc: ArcID, from: Double, to: Double, start: Double)], fixDistance: [Double]) {
        var fixDistance = [0.0]
        var visits: [(arc: ArcID, from: Double, to: Double, start: Double)] = []
        var along = 0.0
        for leg in matching.legs {
            for (i, arc) in leg.arcs.enumerated() {
                let from = i == 0 ? leg.start : 0, to = i == leg.arcs.count - 1 ? leg.end : 1
                let length = Double(graph.lengthCm(of: arc)) / 100
                if let last = visits.last, last.arc == arc, i == 0, abs(last.to - from) < 1e-9 {
                    visits[visits.count - 1].to = to
                } else {
                    visits.append((arc, from, to, along - from * length))
                }
                along += length * max(0, to - from)
            }
            fixDistance.append(along)
        }
        return (visits, fixDistance)
    }

    /// The segments of an arc's shape in travel order, as fractions of the arc's length.
    static func pieces(of arc: ArcID, graph: RoadGraph) -> [(from: Double, to: Double)] {
        let shape = graph.shape(of: arc)
        var cumulative = [0.0]
        for (a, b) in zip(shape, shape.dropFirst()) { cumulative.append(cumulative[cumulative.count - 1] + Geodesy.distanceMeters(a, b)) }
        let total = cumulative[cumulative.count - 1]
        guard total > 0 else { return [(0, 1)] }
        return zip(cumulative, cumulative.dropFirst()).map { ($0 / total, $1 / total) }
    }

    /// Pieces with a speed from enough vehicles in the window ending at `now`, in km/h.
    public func speeds(now: Double) -> [PieceSpeed] {
        let minVehicles = max(2, settings.minVehicles)
        return state.withLock { s in
            var out: [PieceSpeed] = []
            for (piece, observed) in s.pieces {
                let recent = observed.list.filter { now - $0.exit <= settings.windowSeconds }
                if recent.isEmpty { s.pieces[piece] = nil; continue }
                s.pieces[piece]?.list = recent
                let perVehicle = Dictionary(grouping: recent, by: \.vehicle).values.map { Self.median($0.map(\.seconds)) }
                guard perVehicle.count >= minVehicles else { continue }
                out.append(PieceSpeed(piece: piece, kmh: observed.meters / Self.median(perVehicle) * 3.6, vehicles: perVehicle.count))
            }
            return out.sorted { $0.piece < $1.piece }
        }
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
