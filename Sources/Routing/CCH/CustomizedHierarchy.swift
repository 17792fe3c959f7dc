public import RoadNetwork
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

extension CustomizedHierarchy {
    /// Above this share of changed turns a full customization is faster than a partial one:
    /// scattered changes reach many of the costly upper nodes. Measured on Porto (`bench
    /// routing`'s `partialCustomization`, process CPU against a full customization of the same
    /// weights in the same run, both on two threads): 0.1 % of arcs at random 0.36×, 1 % 0.77×,
    /// 10 % 1.44×; the limit lies between the last two.
    public static let partialShareLimit = 0.02

    /// The hierarchy for `turnWeight`, made from `base` (customized for `baseTurnWeight`): a copy
    /// of its weights brought up to date by partial customization when few turns changed, a full
    /// customization otherwise; `base` itself when nothing changed.
    /// - Complexity: O(turns) to find the changes, then O(affected CCH arcs × their lower
    ///   triangles) or a full customization.
    public static func updating(_ base: CustomizedHierarchy, from baseTurnWeight: [UInt32], to turnWeight: [UInt32],
                                graph: RoadGraph) -> CustomizedHierarchy {
        precondition(baseTurnWeight.count == turnWeight.count)
        let limit = Int(Double(turnWeight.count) * partialShareLimit)
        var changed: [Int] = []
        for t in 0..<turnWeight.count where baseTurnWeight[t] != turnWeight[t] {
            changed.append(t)
            if changed.count > limit { return CustomizedHierarchy(cch: CCHMetric(like: base.cch, turnWeight: turnWeight)) }
        }
        guard !changed.isEmpty else { return base }
        let cch = CCHMetric(copying: base.cch)
        cch.customize(changed: changed, turnWeight: turnWeight, graph: graph)
        return CustomizedHierarchy(cch: cch)
    }
}
