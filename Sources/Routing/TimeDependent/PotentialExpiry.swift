public import RoadNetwork

/// Where a band's lower bounds stop holding, and the bounds (the week's) that hold after that.
///
/// A band's bounds are valid for arcs driven within its hours, so alone they are exact only for
/// routes that end before the hours do. Combined with a bound that always holds, they give one
/// potential that is exact for every route: at the end of an arc reached at time t, with the band
/// holding until T, the time still to go R satisfies
///
///     R ≥ max(week(v), min(band(v), T − t))
///
/// (if R ≤ T − t the rest of the route is driven within the band's hours, so R ≥ band(v);
/// otherwise R > T − t). The bound is consistent: along an arc of time c, T − t falls by exactly c,
/// and an arc that ends after T costs more than T − t. So a route that outlasts its band needs no
/// second search, and the search leaves the band's corridor only near where the band runs out.
/// Backward (arrive-by) searches use the mirror image: the band holds for arcs entered after a
/// moment F, and the bound from the sources to an arc entered at t is max(week, min(band, t − F)).
public struct PotentialExpiry {
    /// Bounds that hold at every moment, prepared for the same targets (or sources) as the band's.
    public let potential: CCHPotential
    public let lowerBound: LowerBound
    /// Seconds since 1970: forward, the end of the band's hours; backward, their start.
    public let moment: Double

    public init(potential: CCHPotential, lowerBound: LowerBound, moment: Double) {
        self.potential = potential
        self.lowerBound = lowerBound
        self.moment = moment
    }

    /// Milliseconds in the search's label units until the band runs out: forward labels count up
    /// from the departure, backward ones (lateness) up from the reference moment back in time.
    func limitMs(from origin: Double, forward: Bool) -> UInt32 {
        let seconds = forward ? moment - origin : origin - moment
        return UInt32(min(Double(UInt32.max - 1), max(0, seconds * 1000)))
    }

    /// The combined bound for a node whose band bound is `band` and label `labelMs`, with
    /// `week()` the always-valid bound there (read only when the band's does not hold).
    @inline(__always)
    static func combine(band: UInt32, labelMs: UInt32, limitMs: UInt32, week: () -> UInt32) -> UInt32 {
        let (sum, overflow) = labelMs.addingReportingOverflow(band)
        if !overflow && sum <= limitMs { return band }
        let always = week()
        if always == CCHPotential.infinity { return always }
        return max(always, limitMs > labelMs ? limitMs - labelMs : 0)
    }
}
