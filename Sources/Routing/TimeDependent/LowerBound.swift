public import RoadNetwork

/// Travel times that no arc undercuts over some span of time: each arc's free-flow time times its
/// smallest factor in that span (live speeds included when they may apply). Turns cost their
/// plain duration. A* potentials computed from these weights are admissible and consistent for
/// every arc entered within the span, which is what keeps the time-dependent searches exact.
public struct LowerBound: @unchecked Sendable {
    /// Milliseconds per arc (rounded down).
    public let arcWeight: [UInt32]
    @usableFromInline let turnDuration: UnsafeBufferPointer<UInt32>
    @usableFromInline let turnTarget: UnsafeBufferPointer<ArcID>

    public init(graph: RoadGraph, arcWeight: [UInt32]) {
        precondition(arcWeight.count == graph.arcCount)
        self.arcWeight = arcWeight
        turnDuration = graph.turnDurationMs
        turnTarget = graph.turnTarget
    }

    /// The weight of turn `t` and the whole arc it enters.
    @inlinable
    public func turnWeight(_ t: Int) -> UInt32 { Metric.add(turnDuration[t], arcWeight[turnTarget[t].index]) }

    /// Every turn's weight, for customization.
    public var turnWeights: [UInt32] { (0..<turnTarget.count).map(turnWeight) }

    /// Weight of the part of an arc after `fraction` (rounded down: still a lower bound).
    @inlinable
    public func remaining(_ p: ArcPosition) -> UInt32 { UInt32((Double(arcWeight[p.arc.index]) * (1 - p.fraction)).rounded(.down)) }

    /// Weight of the part of an arc up to `fraction` (rounded down).
    @inlinable
    public func covered(_ p: ArcPosition) -> UInt32 { UInt32((Double(arcWeight[p.arc.index]) * p.fraction).rounded(.down)) }

    /// The smallest factor per profile over `slots` (all 672 when nil), 1 without history.
    static func minimumFactors(_ table: TravelTimeTable, slots: SlotMask?) -> [Double] {
        let perWeek = TravelTimeTable.slotsPerWeek
        let profiles = table.profileFactors.count / perWeek
        return (0..<profiles).map { p in
            guard table.useHistorical else { return 1 }
            var m = Double.infinity
            for s in 0..<perWeek where slots?.contains(s) ?? true {
                m = min(m, Double(table.profileFactors[p * perWeek + s]))
            }
            return m / Double(TravelTimeTable.factorScale)
        }
    }

    /// Lower bounds over the week slots `slots` (the whole week when nil); with `live`, also below
    /// every live travel time in the table (it may apply whenever the span meets the live period).
    public static func make(_ graph: RoadGraph, table: TravelTimeTable, slots: SlotMask? = nil, live: Bool) -> LowerBound {
        let factors = minimumFactors(table, slots: slots)
        let arc = (0..<graph.arcCount).map { a -> UInt32 in
            var f = factors[Int(table.profileOfArc[a])]
            if live && table.useLive, let (ms, _) = table.live.speed(a) {
                f = min(f, Double(ms) / Double(max(1, table.freeFlowMs[a])))
            }
            return UInt32((Double(table.freeFlowMs[a]) * f).rounded(.down))
        }
        return LowerBound(graph: graph, arcWeight: arc)
    }
}

/// A set of the week's 672 quarter-hour slots.
public struct SlotMask: Sendable, Equatable {
    var words = [UInt64](repeating: 0, count: (TravelTimeTable.slotsPerWeek + 63) / 64)

    public init() {}

    public init(slots: some Sequence<Int>) {
        for s in slots { insert(s) }
    }

    public mutating func insert(_ slot: Int) {
        let s = ((slot % TravelTimeTable.slotsPerWeek) + TravelTimeTable.slotsPerWeek) % TravelTimeTable.slotsPerWeek
        words[s >> 6] |= 1 << UInt64(s & 63)
    }

    public func contains(_ slot: Int) -> Bool {
        let s = ((slot % TravelTimeTable.slotsPerWeek) + TravelTimeTable.slotsPerWeek) % TravelTimeTable.slotsPerWeek
        return words[s >> 6] & (1 << UInt64(s & 63)) != 0
    }

    public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
}

/// A lower bound with its customized hierarchy, ready to hand out potentials.
public final class LowerBoundHierarchy: @unchecked Sendable {
    public let bound: LowerBound
    public let hierarchy: CustomizedHierarchy

    public init(bound: LowerBound, structure: CCHStructure) {
        self.bound = bound
        hierarchy = CustomizedHierarchy(structure: structure, turnWeight: bound.turnWeights)
    }

    init(bound: LowerBound, hierarchy: CustomizedHierarchy) {
        self.bound = bound
        self.hierarchy = hierarchy
    }
}
