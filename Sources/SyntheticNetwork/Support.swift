#if canImport(Glibc)
import Glibc
#endif
import GeoCore

/// A point in metres on the generator's flat plane (east, north).
struct PlanePoint {
    var x: Double
    var y: Double

    static func + (a: PlanePoint, b: PlanePoint) -> PlanePoint { PlanePoint(x: a.x + b.x, y: a.y + b.y) }
    static func - (a: PlanePoint, b: PlanePoint) -> PlanePoint { PlanePoint(x: a.x - b.x, y: a.y - b.y) }
    static func * (a: PlanePoint, k: Double) -> PlanePoint { PlanePoint(x: a.x * k, y: a.y * k) }

    var length: Double { (x * x + y * y).squareRoot() }

    func distance(to other: PlanePoint) -> Double { (self - other).length }

    func rotated(by radians: Double) -> PlanePoint {
        let c = cos(radians), s = sin(radians)
        return PlanePoint(x: x * c - y * s, y: x * s + y * c)
    }

    /// The unit vector 90° clockwise of this one (to the right of travel along it).
    var rightNormal: PlanePoint {
        let l = max(length, 1e-9)
        return PlanePoint(x: y / l, y: -x / l)
    }
}

/// The generator's road classes, lowest rank first so `max` picks the more important one.
enum RoadClass: UInt8, Comparable {
    case residential = 0, tertiary, secondary, primary, motorwayLink, motorway

    var highway: String {
        switch self {
        case .residential: "residential"
        case .tertiary: "tertiary"
        case .secondary: "secondary"
        case .primary: "primary"
        case .motorwayLink: "motorway_link"
        case .motorway: "motorway"
        }
    }

    static func < (a: RoadClass, b: RoadClass) -> Bool { a.rawValue < b.rawValue }
}

/// Names for towns and streets, made from syllables and a word list (deterministic per seed).
enum NameMaker {
    static let starts = ["Bar", "Cor", "Del", "Fen", "Gal", "Hal", "Kel", "Lin", "Mar", "Nor", "Ost", "Pel",
                         "Quin", "Ros", "Sel", "Tor", "Ul", "Val", "Wes", "Yar", "Zan", "Bel", "Dun", "Ash"]
    static let middles = ["", "a", "e", "i", "o", "en", "er", "il", "or", "an"]
    static let ends = ["ford", "ton", "ville", "berg", "mouth", "field", "wick", "stead", "by", "dale", "port", "heim"]
    static let words = ["Oak", "Maple", "Cedar", "Pine", "Elm", "Birch", "Willow", "Ash", "Chestnut", "Linden",
                        "Rose", "Mill", "Church", "Station", "Park", "Lake", "River", "Hill", "School", "Market",
                        "Garden", "Meadow", "Orchard", "Forest", "Bridge", "Castle", "Harbour", "Spring", "Valley", "Sunset",
                        "Poplar", "Hazel", "Holly", "Juniper", "Laurel", "Magnolia", "Rowan", "Spruce", "Walnut", "Yew"]

    static func town(_ rng: inout SplitMix64) -> String {
        starts[rng.below(starts.count)] + middles[rng.below(middles.count)] + ends[rng.below(ends.count)]
    }

    /// The name of the `index`-th street of a kind ("Street", "Avenue") in a town.
    static func street(_ index: Int, kind: String) -> String {
        let word = words[index % words.count]
        let round = index / words.count
        return round == 0 ? "\(word) \(kind)" : "\(word) \(kind) \(round + 1)"
    }
}
