public import Foundation
public import MapsAPI
public import MapMatching
import RoadNetwork
import RoutePlanning
import Synchronization

/// The probe traffic of a running service: the estimator and the live update it last published
/// (each publication replaces the previous one, so `state/traffic` holds one probe update).
public final class ProbeFeed: Sendable {
    public let estimator: ProbeSpeedEstimator
    let lastUpdate = Mutex<(id: String?, speeds: [ProbeSpeedEstimator.Piece: Int])>((nil, [:]))

    public init(settings: ProbeSpeedEstimator.Settings = .init()) { estimator = ProbeSpeedEstimator(settings: settings) }
}

/// A probe upload read and checked (every track has a vehicle id and ordered times), not yet matched.
public struct ProbeUpload: Sendable {
    let tracks: [UploadedTrack]
    /// The positions it holds (what its quota is charged).
    public var pointCount: Int { tracks.reduce(0) { $0 + $1.points.count } }
}

extension MapsService {
    /// Reads and checks a `POST /traffic/1/probes` body (GPX, GeoJSON or CSV) without matching it.
    public func readProbes(_ bytes: [UInt8]) throws(APIError) -> ProbeUpload {
        let tracks = try TraceFormats.parse(bytes, maxPoints: limits.maxTracePoints)
        for (i, track) in tracks.enumerated() {
            guard let vehicle = track.vehicle, !vehicle.isEmpty, vehicle.utf8.count <= 128 else {
                throw .badInput("track \(i) has no vehicle id (GPX trk name, GeoJSON properties.vehicle, CSV vehicle column; at most 128 bytes)", parameter: "body")
            }
            for (k, p) in track.points.enumerated() {
                guard let t = p.time else { throw .badInput("vehicle \(vehicle): position \(k) has no time; probes need times", parameter: "body") }
                if k > 0, let previous = track.points[k - 1].time, t < previous {
                    throw .badInput("vehicle \(vehicle): times must not decrease (position \(k))", parameter: "body")
                }
            }
        }
        return ProbeUpload(tracks: tracks)
    }

    /// `readProbes`, then `ingestProbes` of what it read.
    public func ingestProbes(_ bytes: [UInt8], expiresInSeconds: Double) throws(APIError) -> ProbeReport {
        try ingestProbes(try readProbes(bytes), expiresInSeconds: expiresInSeconds)
    }

    /// `POST /traffic/1/probes`: batches of timestamped positions per vehicle, matched on arrival;
    /// the speeds of segments enough vehicles drove within the window go live (OSRM segment
    /// speeds, expiring after `expiresInSeconds`), beside uploads of the CSV feed. Segments no
    /// probe drove keep whatever speed they had.
    public func ingestProbes(_ upload: ProbeUpload, expiresInSeconds: Double) throws(APIError) -> ProbeReport {
        let modes = [TravelMode.car] + TravelMode.allCases.filter { $0 != .car && $0.usesTraffic }
        guard let mode = modes.first(where: { planning.graph($0) != nil }), let graph = planning.graph(mode) else {
            throw .badInput("this dataset has no graph that takes traffic", parameter: "body")
        }
        guard expiresInSeconds > 0, expiresInSeconds <= PlanningEngine.maxTrafficExpirySeconds else {
            throw .badInput("expiresIn must be between 1 second and 7 days", parameter: "expiresIn")
        }
        let tracks = upload.tracks
        let estimator = probes.estimator
        var dropped: [String: Int] = [:]
        var matchedPoints = 0, traversals = 0, points = 0
        var parameters = MatchParameters()
        parameters.defaultAccuracyMeters = 10
        for track in tracks {
            let vehicle = track.vehicle!
            points += track.points.count
            let admitted = estimator.admit(vehicle: vehicle, points: track.points)
            dropped["olderThanLastSeen", default: 0] += admitted.olderThanLastSeen
            dropped["rateLimited", default: 0] += admitted.rateLimited
            dropped["tooManyVehicles", default: 0] += admitted.tooManyVehicles
            let fresh = admitted.tailCount
            guard admitted.trace.count >= 2, let outcome = planning.match(admitted.trace, mode: mode, parameters: parameters) else {
                dropped["unmatched", default: 0] += max(0, admitted.trace.count - fresh)
                continue
            }
            let result = MatchResult(matchings: outcome.stretches.map(\.matching), points: outcome.points)
            let newMatched = result.points[fresh...].filter { $0 != nil }.count
            matchedPoints += newMatched
            dropped["unmatched", default: 0] += admitted.trace.count - fresh - newMatched
            traversals += estimator.record(vehicle: vehicle, admitted: admitted, result: result, graph: graph)
        }
        let now = clock().timeIntervalSince1970
        let speeds = estimator.speeds(now: now)
        var report = ProbeReport(vehicles: tracks.count, points: points, matchedPoints: matchedPoints, dropped: dropped.filter { $0.value > 0 },
                                 traversals: traversals, speeds: [], update: nil, expiresAt: nil)
        var lines = ""
        var published: [ProbeSpeedEstimator.Piece: Int] = [:]
        for s in speeds {
            let ids = graph.shapeOSMIDs(of: s.piece.arc)
            guard s.piece.segment + 1 < ids.count else { continue }
            let a = ids[s.piece.segment], b = ids[s.piece.segment + 1]
            let kmh = (s.kmh * 10).rounded() / 10
            published[s.piece] = Int(kmh * 10)
            lines += "\(a),\(b),\(kmh)\n"
            report.speeds.append(.init(from: a, to: b, speedKmh: kmh, vehicles: s.vehicles))
        }
        let previous = probes.lastUpdate.withLock { $0 }
        guard !lines.isEmpty, published != previous.speeds else { return report }
        let applied = try applyTraffic(Array(lines.utf8), kind: .speeds, expiresInSeconds: expiresInSeconds, source: "probes")
        if let old = previous.id { _ = trafficStore.remove(id: old) }
        probes.lastUpdate.withLock { $0 = (applied.id, published) }
        report.update = applied.id
        report.expiresAt = applied.expiresAt
        return report
    }
}
