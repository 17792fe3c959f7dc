/// The functional class of a road, from OSM's `highway=*` (or `route=ferry`).
///
/// Ordered from most to least important; traffic profiles, eco and thrilling weights and
/// guidance all key on it.
public enum RoadClass: UInt8, Sendable, CaseIterable, Comparable, BitwiseCopyable {
    case motorway, motorwayLink, trunk, trunkLink, primary, primaryLink, secondary, secondaryLink
    case tertiary, tertiaryLink, unclassified, residential, livingStreet, service, track
    case cycleway, path, footway, pedestrian, steps, ferry, other

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The OSM `highway` value (or `ferry`) this class comes from.
    public var osmValue: String {
        switch self {
        case .motorway: "motorway"
        case .motorwayLink: "motorway_link"
        case .trunk: "trunk"
        case .trunkLink: "trunk_link"
        case .primary: "primary"
        case .primaryLink: "primary_link"
        case .secondary: "secondary"
        case .secondaryLink: "secondary_link"
        case .tertiary: "tertiary"
        case .tertiaryLink: "tertiary_link"
        case .unclassified: "unclassified"
        case .residential: "residential"
        case .livingStreet: "living_street"
        case .service: "service"
        case .track: "track"
        case .cycleway: "cycleway"
        case .path: "path"
        case .footway: "footway"
        case .pedestrian: "pedestrian"
        case .steps: "steps"
        case .ferry: "ferry"
        case .other: "other"
        }
    }

    public init(osmHighway value: String) {
        self = Self.byOSMValue[value] ?? .other
    }

    private static let byOSMValue: [String: RoadClass] = Dictionary(
        uniqueKeysWithValues: RoadClass.allCases.map { ($0.osmValue, $0) }
    ).merging(["road": .unclassified, "bus_guideway": .service, "busway": .service, "bridleway": .path,
               "corridor": .footway, "platform": .footway, "pier": .footway], uniquingKeysWith: { a, _ in a })

    public var isLink: Bool { [.motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink].contains(self) }
    public var isMotorway: Bool { self == .motorway || self == .motorwayLink }
    /// Roads of the main network (primary and above): thrilling routes avoid them, eco prefers them.
    public var isMajor: Bool { self <= .primaryLink }
}

/// Facts about a way that routing options and advisories look at.
public struct WayFlags: OptionSet, Sendable, BitwiseCopyable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let toll = WayFlags(rawValue: 1 << 0)
    public static let unpaved = WayFlags(rawValue: 1 << 1)
    public static let ferry = WayFlags(rawValue: 1 << 2)
    public static let roundabout = WayFlags(rawValue: 1 << 3)
    public static let tunnel = WayFlags(rawValue: 1 << 4)
    public static let bridge = WayFlags(rawValue: 1 << 5)
    /// Access only for private use, destination, delivery, customers: usable to start or end there, not to pass through.
    public static let restrictedAccess = WayFlags(rawValue: 1 << 6)
    // 1 << 7 was the way-wide pushing flag; pushing is per direction now (`ArcFlags.pushing`).
    /// A taxi/bus-only way or lane that a private car may not use.
    public static let psvOnly = WayFlags(rawValue: 1 << 8)
    public static let motorroad = WayFlags(rawValue: 1 << 9)
    public static let steps = WayFlags(rawValue: 1 << 10)
    /// `junction=circular`: a ring that is not a roundabout by the rules (guidance calls it a rotary).
    public static let circular = WayFlags(rawValue: 1 << 11)
    /// A public-transport platform (`highway=platform`): a place to wait, not where a trip snaps.
    public static let platform = WayFlags(rawValue: 1 << 12)
    /// Made for cycling: a cycleway, a cycle street, a road with a cycle lane or track, `bicycle=designated`,
    /// a way of a `route=bicycle` relation (set by profiles with cycle-lane tables; quiet bicycle routes prefer these).
    public static let cycleFriendly = WayFlags(rawValue: 1 << 13)
    /// Motor traffic at 60 km/h or more by the way's `maxspeed` (set by profiles with cycle-lane tables).
    public static let fastTraffic = WayFlags(rawValue: 1 << 14)
}

/// Per-arc facts that depend on the direction or on the graph as a whole.
public struct ArcFlags: OptionSet, Sendable, BitwiseCopyable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Not in the largest strongly connected part of the network (a clipped stub, a closed parking
    /// lot): snapping prefers other arcs, as OSRM does for its small components.
    public static let smallComponent = ArcFlags(rawValue: 1 << 0)
    /// A copy of another arc made for a via-way turn restriction.
    public static let restrictionCopy = ArcFlags(rawValue: 1 << 1)
    /// In the largest strongly connected component: every such arc reaches every other.
    public static let largestComponent = ArcFlags(rawValue: 1 << 2)
    /// In a small piece that only a ferry joins to the rest (a pier stub across the water, an
    /// islet): snapping prefers a road of the large part when one is about as near.
    public static let ferryOnlyPiece = ArcFlags(rawValue: 1 << 3)
    /// The bicycle is pushed along this arc at walking pace (a footway, steps, `bicycle=dismount`,
    /// or against a one-way without a contraflow exception): OSRM's "pushing bike" mode.
    public static let pushing = ArcFlags(rawValue: 1 << 4)
    /// Open road that belongs to an area of restricted access: reached only from restricted roads
    /// and leading on to open ones (a one-way street out of a destination-only one). A route may
    /// end there as on the restricted roads.
    public static let restrictedPocket = ArcFlags(rawValue: 1 << 5)
}

/// The kinds of road user a graph is built for.
public enum TravelMode: String, Sendable, CaseIterable, Codable {
    case car, taxi, bicycle, pedestrian

    /// Live and historical traffic apply to motor traffic only.
    public var usesTraffic: Bool { self == .car || self == .taxi }
}
