public import Foundation
public import MapsAPI
public import Traffic
import RoadNetwork
import RoutePlanning

extension MapsService {
    /// The live and historical traffic files of the dataset (`state/traffic`).
    public var trafficStore: TrafficStore { planning.trafficStore }

    /// Applies a live update (OSRM segment speed CSV, or closures): saved to `state/` for other
    /// replicas and restarts, and published to queries atomically.
    public func applyTraffic(_ bytes: [UInt8], kind: LiveUpdate.Kind, expiresInSeconds: Double, source: String) throws(APIError) -> TrafficUpdateReport {
        let applied: TrafficApplication
        do {
            applied = try planning.applyTraffic(bytes, kind: kind, expiresInSeconds: expiresInSeconds, source: source)
        } catch {
            switch error {
            case .expiryOutOfRange: throw .badInput("expiresIn must be between 1 second and 7 days", parameter: "expiresIn")
            case .malformed(let message): throw .badInput(message, parameter: "body")
            case .notSaved(let reason): throw APIError(.unavailable, "the update could not be saved: \(reason)")
            }
        }
        let u = applied.update
        return TrafficUpdateReport(id: u.id, kind: kind.rawValue, entries: u.entries.count, matchedSegments: applied.matchedLines,
                                   unmatchedSegments: u.entries.count - applied.matchedLines,
                                   expiresAt: RFC3339.format(Date(timeIntervalSince1970: u.expiresAt), in: timeZone),
                                   parseMilliseconds: applied.parseMilliseconds, applyMilliseconds: applied.applyMilliseconds)
    }

    /// Rebuilds the traffic snapshots when `state/traffic` changed (or `force`), or every 5 minutes.
    @discardableResult
    public func refreshTraffic(force: Bool = false) -> TrafficModel.MatchReport? {
        planning.refreshTraffic(force: force)
    }

    public func trafficStatus() -> TrafficStatusReport {
        let state = planning.trafficState()
        var modes: [String: TrafficStatusReport.Mode] = [:]
        for (mode, s) in state.modes {
            modes[mode.rawValue] = .init(generation: s.generation, liveArcs: s.liveArcs, closedArcs: s.closedArcs,
                                         snapshotAt: RFC3339.format(s.snapshotAt, in: timeZone))
        }
        return TrafficStatusReport(updates: state.updates.map { u in
            .init(id: u.id, kind: u.kind.rawValue, entries: u.entries.count, source: u.source,
                  createdAt: RFC3339.format(Date(timeIntervalSince1970: u.createdAt), in: timeZone),
                  expiresAt: RFC3339.format(Date(timeIntervalSince1970: u.expiresAt), in: timeZone))
        }, modes: modes)
    }
}
