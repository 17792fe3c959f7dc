public import OSMPBF

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
}
