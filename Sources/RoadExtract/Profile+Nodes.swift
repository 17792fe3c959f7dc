public import OSMPBF

/// Which directions of the ways through a node its traffic signal holds: `forward` stops traffic
/// travelling along a way's node order as it arrives at the node, `backward` traffic against it.
public enum SignalDirection: Sendable, Equatable { case both, forward, backward }

extension Profile {
    /// Whether a node's barrier (or its access tags) stops this mode.
    ///
    /// Access tags on the node win (a bollard with `motor_vehicle=yes` lets cars through); then
    /// the barrier type: motor profiles pass only listed barriers, walking and cycling are stopped
    /// only by listed ones.
    public func isBlocked(byNode tags: Tags) -> Bool {
        switch accessVerdict(tags, direction: nil) {
        case .denied: return true
        case .granted, .psvGranted, .restricted: return false
        case .unspecified: break
        }
        guard let barrier = tags["barrier"] else { return false }
        if !blockingBarriers.isEmpty || passableBarriers.isEmpty {
            return blockingBarriers.contains(barrier)
        }
        return !passableBarriers.contains(barrier)
    }

    /// Seconds this mode spends passing a node's barrier (`barrierPenaltySeconds`): none where the
    /// barrier stops it, or where the node's access tags say who may pass (as OSRM's car.lua,
    /// which reads a node's barrier only when no access tag is on it).
    public func barrierSeconds(_ tags: Tags) -> Double {
        guard let barrier = tags["barrier"], let seconds = barrierPenaltySeconds[barrier],
              case .unspecified = accessVerdict(tags, direction: nil), !isBlocked(byNode: tags) else { return 0 }
        return seconds
    }

    /// The directions a traffic signal node holds for this mode: the first of `signalDirectionKeys`
    /// present decides (`forward`, `backward`, anything else both), as OSRM's profiles read
    /// `traffic_signals:direction`; with no key present, or none listed, both.
    public func signalDirection(_ tags: Tags) -> SignalDirection {
        for key in signalDirectionKeys {
            guard let value = tags[key] else { continue }
            switch value {
            case "forward": return .forward
            case "backward": return .backward
            default: return .both
            }
        }
        return .both
    }
}
