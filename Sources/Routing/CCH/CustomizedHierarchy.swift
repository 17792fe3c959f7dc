import Synchronization

/// A customized CCH with a pool of CH-potentials over it (one per concurrent query and
/// direction), so that A* searches need no per-query allocation.
public final class CustomizedHierarchy: @unchecked Sendable {
    public let cch: CCHMetric
    private let potentials = Mutex<[(towardsTargets: Bool, potential: CCHPotential)]>([])

    public init(structure: CCHStructure, turnWeight: [UInt32]) {
        cch = CCHMetric(structure: structure, turnWeight: turnWeight)
    }

    public init(cch: CCHMetric) { self.cch = cch }

    /// Runs `body` with a potential towards the targets (forward searches) or from the sources.
    public func withPotential<R>(towardsTargets: Bool, _ body: (CCHPotential) -> R) -> R {
        let potential = potentials.withLock { list -> CCHPotential? in
            guard let i = list.firstIndex(where: { $0.towardsTargets == towardsTargets }) else { return nil }
            return list.remove(at: i).potential
        } ?? CCHPotential(metric: cch, towardsTargets: towardsTargets)
        defer { potentials.withLock { $0.append((towardsTargets, potential)) } }
        return body(potential)
    }
}
