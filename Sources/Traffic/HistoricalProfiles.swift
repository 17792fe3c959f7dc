public import RoadNetwork

/// The default weekly congestion profiles, by road class: typical rush hours on weekdays (morning
/// around 8:00, evening around 17:00), a lighter midday, busier Saturday middays and quiet Sundays,
/// in the dataset's local time. Values are travel-time factors (1 = free flow, 1.8 = 80 % longer).
///
/// They are deliberately simple and labelled — a stand-in for measured historical speeds, which
/// operators supply per segment (`HistoricalSpeedFile`) where they have them.
public enum HistoricalProfiles {
    public struct Profile: Sendable {
        public var id: Int
        public var label: String
        /// 24 hourly factors for Monday–Friday, Saturday, Sunday.
        public var weekday: [Double], saturday: [Double], sunday: [Double]
    }

    public static let flat = Profile(id: 0, label: "no congestion (ferries, paths, off-peak roads)",
                                     weekday: Array(repeating: 1, count: 24), saturday: Array(repeating: 1, count: 24),
                                     sunday: Array(repeating: 1, count: 24))
    public static let highway = Profile(
        id: 1, label: "motorways and trunk roads: sharp commuter peaks",
        weekday: [1, 1, 1, 1, 1, 1.05, 1.3, 1.6, 1.5, 1.2, 1.1, 1.1, 1.1, 1.1, 1.2, 1.4, 1.7, 1.6, 1.3, 1.1, 1, 1, 1, 1],
        saturday: [1, 1, 1, 1, 1, 1, 1, 1, 1.05, 1.1, 1.15, 1.15, 1.15, 1.15, 1.15, 1.1, 1.1, 1.05, 1.05, 1, 1, 1, 1, 1],
        sunday: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.05, 1.05, 1.05, 1.05, 1.05, 1.1, 1.2, 1.2, 1.15, 1.05, 1, 1, 1, 1])
    public static let arterial = Profile(
        id: 2, label: "primary and secondary roads: the heaviest urban peaks",
        weekday: [1, 1, 1, 1, 1, 1.05, 1.25, 1.6, 1.8, 1.4, 1.25, 1.3, 1.35, 1.3, 1.3, 1.5, 1.8, 1.9, 1.5, 1.25, 1.1, 1.05, 1, 1],
        saturday: [1, 1, 1, 1, 1, 1, 1, 1.05, 1.1, 1.2, 1.3, 1.35, 1.35, 1.3, 1.3, 1.25, 1.25, 1.2, 1.15, 1.1, 1.05, 1, 1, 1],
        sunday: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1.05, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.05, 1, 1, 1, 1])
    public static let collector = Profile(
        id: 3, label: "tertiary and unclassified roads: moderate peaks",
        weekday: [1, 1, 1, 1, 1, 1, 1.1, 1.3, 1.4, 1.2, 1.1, 1.15, 1.15, 1.15, 1.15, 1.25, 1.4, 1.4, 1.25, 1.1, 1.05, 1, 1, 1],
        saturday: [1, 1, 1, 1, 1, 1, 1, 1, 1.05, 1.1, 1.15, 1.15, 1.15, 1.15, 1.1, 1.1, 1.1, 1.1, 1.05, 1, 1, 1, 1, 1],
        sunday: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1, 1, 1, 1, 1, 1])
    public static let local = Profile(
        id: 4, label: "residential and service streets: mild peaks",
        weekday: [1, 1, 1, 1, 1, 1, 1.05, 1.1, 1.15, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.1, 1.15, 1.15, 1.1, 1.05, 1, 1, 1, 1],
        saturday: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1, 1, 1, 1, 1, 1],
        sunday: Array(repeating: 1, count: 24))

    public static let all = [flat, highway, arterial, collector, local]

    /// The default profile for a road class.
    public static func profile(for roadClass: RoadClass) -> Profile {
        switch roadClass {
        case .motorway, .motorwayLink, .trunk, .trunkLink: highway
        case .primary, .primaryLink, .secondary, .secondaryLink: arterial
        case .tertiary, .tertiaryLink, .unclassified: collector
        case .residential, .livingStreet, .service: local
        default: flat
        }
    }

    /// 672 fixed-point factors (Monday 00:00 first), interpolated between hourly values so that a
    /// profile changes smoothly every 15 minutes.
    public static func slots(_ p: Profile) -> [UInt16] {
        var out: [UInt16] = []
        out.reserveCapacity(TravelTimeTable.slotsPerWeek)
        for day in 0..<7 {
            let hours = day < 5 ? p.weekday : (day == 5 ? p.saturday : p.sunday)
            let nextDay = day + 1 < 5 ? p.weekday : (day + 1 == 5 ? p.saturday : (day + 1 == 6 ? p.sunday : p.weekday))
            for q in 0..<96 {
                let h = q / 4, frac = Double(q % 4) / 4
                let a = hours[h], b = h + 1 < 24 ? hours[h + 1] : nextDay[0]
                let value = a + (b - a) * frac
                out.append(UInt16((value * Double(TravelTimeTable.factorScale)).rounded()))
            }
        }
        return out
    }
}
