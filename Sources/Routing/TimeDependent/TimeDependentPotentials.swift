public import RoadNetwork

/// The lower bounds time-dependent searches take their A* potentials from: the whole week and a
/// few bands of it (`BandPlan`), each customized once on the dataset's historical profiles.
///
/// Why this and not TD-CCH/CATCHUp or TCH: those store a travel-time *function* per shortcut. With
/// a weekly profile on every segment (672 quarter-hours, so up to 1,344 breakpoints per arc and
/// more per shortcut after linking), the functions of a country's shortcuts do not fit in memory,
/// and every live update would have to rebuild them. Lower bounds are one number per shortcut per
/// band, customized like any metric, and A* over them is exact for any travel-time model that is
/// FIFO. What they cost is tightness: a bound over the whole week makes every arc as fast as at
/// night and a rush-hour search settles a wide ellipse; a bound over a band of a few hours that
/// contains the trip is within a few per cent of the real times, and the search stays in the
/// route's corridor. A band's bounds hold only for arcs driven within its hours; past them the
/// week's take over (`PotentialExpiry`), so a route that outlasts its band stays exact.
///
/// The numbers that decided it (Porto, 148k arcs, a weekly profile on every segment plus a 5 %
/// live overlay, 1,000 depart-at queries over a weekday, with the upper bound of
/// `TimeDependentLegSearch+UpperBound`): 598 labels settled at the median and 15.7k at p99, or
/// 1.4 ms and 13 ms of CPU on a shared 2-core machine, the week's and four bands' bounds costing
/// five customizations. A TD-CCH was not built here, so its size is not measured; what keeps the
/// tail is now long trips across the map in the rush hours, whose bands are a few hours wide, and
/// that is where tighter (shorter) bands or time-dependent shortcuts would have to be compared.
public final class TimeDependentPotentials: @unchecked Sendable {
    public struct Band: Sendable {
        public let band: TimeBand
        let slots: SlotMask
        public let hierarchy: LowerBoundHierarchy
        /// The band's summed lower bound (higher is tighter), to pick among bands that fit.
        let tightness: Double
    }

    public let week: LowerBoundHierarchy
    public let bands: [Band]

    /// - Parameter table: the historical travel times (live data is ignored here; see `live`).
    public init(graph: RoadGraph, structure: CCHStructure, table: TravelTimeTable, bandCount: Int) {
        var historical = table
        historical.useLive = false
        week = LowerBoundHierarchy(bound: .make(graph, table: historical, live: false), structure: structure)
        bands = BandPlan.choose(historical, count: bandCount).map { band in
            let slots = band.slots
            let bound = LowerBound.make(graph, table: historical, slots: slots, live: false)
            var total = 0.0
            for w in bound.arcWeight { total += Double(w) }
            return Band(band: band, slots: slots, hierarchy: LowerBoundHierarchy(bound: bound, structure: structure), tightness: total)
        }
    }

    /// The tightest bounds that hold for every arc entered between `start` and `end` (seconds
    /// since 1970): a band's (its index) or the week's (nil), and the moment until which they
    /// hold (+∞ for the week's).
    public func forward(from start: Double, to end: Double, table: TravelTimeTable) -> (band: Int?, validUntil: Double) {
        guard let b = tightest(from: start, to: end, table: table) else { return (nil, .infinity) }
        var t = (start / 900).rounded(.down) * 900
        var steps = 0
        while bands[b].slots.contains(table.slot(at: t)) && steps < TravelTimeTable.slotsPerWeek { t += 900; steps += 1 }
        return (b, steps >= TravelTimeTable.slotsPerWeek ? .infinity : t)
    }

    /// The same for a backward search: bounds that hold from the returned moment up to `end`.
    public func backward(from start: Double, to end: Double, table: TravelTimeTable) -> (band: Int?, validFrom: Double) {
        guard let b = tightest(from: start, to: end, table: table) else { return (nil, -.infinity) }
        // The start of the earliest slot of the band's run that ends at `end`.
        var t = (end / 900).rounded(.down) * 900
        var steps = 0
        while bands[b].slots.contains(table.slot(at: t - 900)) && steps < TravelTimeTable.slotsPerWeek { t -= 900; steps += 1 }
        return (b, steps >= TravelTimeTable.slotsPerWeek ? -.infinity : t)
    }

    /// A band's bounds (nil: the week's).
    public func hierarchy(_ band: Int?) -> LowerBoundHierarchy { band.map { bands[$0].hierarchy } ?? week }

    func tightest(from start: Double, to end: Double, table: TravelTimeTable) -> Int? {
        guard end >= start, end - start < 6 * 86_400 else { return nil }
        var best: Int?
        for (i, band) in bands.enumerated() where best.map({ band.tightness > bands[$0].tightness }) ?? true {
            var t = start, fits = true
            while fits {
                fits = band.slots.contains(table.slot(at: t))
                if t >= end { break }
                t = min(end, (t / 900).rounded(.down) * 900 + 900)
            }
            if fits { best = i }
        }
        return best
    }

    /// A band's bounds (the week's for nil) lowered wherever the table's live speeds are faster,
    /// so that they also hold while live data is in force (customized partially: only the live arcs'
    /// triangles are recomputed). Nil when no live speed undercuts them
    /// (live data mostly reports slowdowns; then the historical bounds hold as they are).
    public func live(_ graph: RoadGraph, structure: CCHStructure, table: TravelTimeTable, band: Int?) -> LowerBoundHierarchy? {
        guard table.useLive else { return nil }
        var lowered = hierarchy(band).bound.arcWeight
        var any = false
        for (i, arc) in table.live.speedArcs.enumerated() where table.live.speedMs[i] < lowered[Int(arc)] {
            lowered[Int(arc)] = table.live.speedMs[i]
            any = true
        }
        guard any else { return nil }
        // Only the live arcs moved: the band's hierarchy brought up to date by partial customization.
        let base = hierarchy(band), bound = LowerBound(graph: graph, arcWeight: lowered)
        return LowerBoundHierarchy(bound: bound, hierarchy: .updating(base.hierarchy, from: base.bound.turnWeights,
                                                                      to: bound.turnWeights, graph: graph))
    }
}
