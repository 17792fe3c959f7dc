/// What a street is used for, in TomTom's reverse-geocoding terms (`returnRoadUse`), with its OSM
/// class and speed limit as the index stores them per piece of street geometry.
public struct RoadAttributes: Sendable, Equatable {
    public enum Use: String, Sendable, CaseIterable {
        case limitedAccess = "LimitedAccess", arterial = "Arterial", terminal = "Terminal", ramp = "Ramp", rotary = "Rotary",
             localStreet = "LocalStreet"
    }

    /// OSM `highway` values by code (0 = anything else: footway, path, cycleway, …). Codes only grow: an
    /// index built before `track` and `road` had theirs reads them as 0.
    static let classes = ["", "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary",
                          "secondary_link", "tertiary", "tertiary_link", "unclassified", "residential", "living_street",
                          "service", "pedestrian", "track", "road"]

    /// Nominatim's "major streets", rank 26 in its address levels (what `zoom=16` answers with): every class of
    /// road down to residential, living streets, pedestrian streets and tracks; links, service roads and paths
    /// are rank 27 (`zoom=17`).
    public static let nominatimMajorStreets: Set<String> = ["motorway", "trunk", "primary", "secondary", "tertiary", "unclassified",
                                                            "residential", "living_street", "pedestrian", "track", "road"]

    public var highway: String
    public var isRoundabout: Bool
    /// km/h; nil when the map has no `maxspeed` for it.
    public var speedLimitKmh: Int?

    public init(highway: String, isRoundabout: Bool = false, speedLimitKmh: Int? = nil) {
        self.highway = highway
        self.isRoundabout = isRoundabout
        self.speedLimitKmh = speedLimitKmh
    }

    public var use: Use {
        if isRoundabout { return .rotary }
        switch highway {
        case "motorway", "trunk": return .limitedAccess
        case "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link": return .ramp
        case "primary", "secondary": return .arterial
        case "tertiary", "unclassified", "residential", "living_street": return .localStreet
        default: return .terminal
        }
    }

    /// Class code | roundabout bit | speed limit, as one integer.
    var code: Int64 {
        let c = Int64(Self.classes.firstIndex(of: highway) ?? 0)
        return c | (isRoundabout ? 1 << 5 : 0) | Int64(min(speedLimitKmh ?? 0, 0xFFFF)) << 8
    }

    init(code: Int64) {
        let c = Int(code & 0x1F)
        highway = c < Self.classes.count ? Self.classes[c] : ""
        isRoundabout = code & (1 << 5) != 0
        let speed = Int(code >> 8)
        speedLimitKmh = speed > 0 ? speed : nil
    }
}
