public import Traffic

/// What travel times are made of beyond free flow and live traffic: the invented demo congestion
/// (off unless asked for) and how many observations a learned slot needs.
public struct TimeModelSettings: Sendable, Equatable {
    /// The invented weekly congestion factors by road class (`HistoricalProfiles`), for demos only
    /// (`wayfinder serve --demo-congestion`): they are not data and change every ETA.
    public var demoCongestion: Bool
    /// Observations a segment's quarter-hour of the week needs before its learned speed counts.
    public var minimumObservations: Int

    public init(demoCongestion: Bool = false, minimumObservations: Int = SpeedLearner.defaultMinimumObservations) {
        self.demoCongestion = demoCongestion
        self.minimumObservations = minimumObservations
    }
}
