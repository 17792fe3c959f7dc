/// What a search or reverse-geocoding result is.
public enum PlaceKind: UInt8, Sendable, CaseIterable, Codable {
    /// A house number on a street (OSM `addr:*`), including numbers interpolated along `addr:interpolation` ways.
    case address = 0
    /// A named street: every OSM way of the same name in one area, merged.
    case street = 1
    /// A point of interest: a shop, restaurant, ATM, station, named building, …
    case poi = 2
    /// A settlement or part of one (`place=city`, `town`, `village`, `suburb`, `neighbourhood`, …).
    case locality = 3
    /// A postcode's area: its `postal_code` boundary where the map has one, else the addresses carrying it.
    case postcode = 4

    /// Parses "address", "street", "poi", "locality" (and "place", "geography" for localities).
    public init?(name: String) {
        switch name.lowercased() {
        case "address", "addr", "pad", "point address": self = .address
        case "street", "str": self = .street
        case "poi": self = .poi
        case "locality", "place", "geography", "geo": self = .locality
        case "postcode", "postalcode", "postal_code", "zip": self = .postcode
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .address: "address"
        case .street: "street"
        case .poi: "poi"
        case .locality: "locality"
        case .postcode: "postcode"
        }
    }
}
