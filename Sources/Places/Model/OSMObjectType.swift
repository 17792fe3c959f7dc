/// The OSM element a place comes from.
public enum OSMObjectType: UInt8, Sendable, Codable, CaseIterable {
    case node = 0, way = 1, relation = 2

    /// `node`, `way`, `relation` as Nominatim writes `osm_type`.
    public var name: String {
        switch self {
        case .node: "node"
        case .way: "way"
        case .relation: "relation"
        }
    }

    /// `N`, `W`, `R` as Nominatim's `osm_ids` parameter abbreviates them.
    public var letter: Character {
        switch self {
        case .node: "N"
        case .way: "W"
        case .relation: "R"
        }
    }

    public init?(name: String) {
        switch name.lowercased() {
        case "node", "n": self = .node
        case "way", "w": self = .way
        case "relation", "r": self = .relation
        default: return nil
        }
    }
}
