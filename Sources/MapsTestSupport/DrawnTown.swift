public import Foundation
public import GeoCore
public import OSMPBF

/// A small town drawn on the grid, with what the API has to show: named streets of several
/// classes (one of them one-way), places to find (a restaurant and a department store with phone
/// numbers, a café, a market square, a cash machine, a suburb) and addresses. The handler tests
/// run on it, and `Tests/Fixtures/drawn-town.osm.pbf` is this map written by `PBFWriter` (the
/// fixture test checks the file is what the drawing gives).
///
/// ```
///   a - - - - b - - - - c - - - - d      Mannerheimintie (primary)
///   |  R   M  | N  S    |         |
///   e - - - - f - - - - g - - - - h      Aleksanterinkatu (residential)
///   |         |    C    |    K  A |
///   i - - - - j - - - - k - - - - l      Esplanadi (secondary)
/// ```
/// Kaivokatu (a e i) and Unioninkatu (d h l) are tertiary, Keskuskatu (b f j) one-way south,
/// Mikonkatu (c g k) residential. The grid is 100 m, so a to d is 1.5 km.
public enum DrawnTown {
    public static let drawing = """
          P
        a - - - - b - - - - c - - - - d
        |  R   M  | N  S    |         |
        e - - - - f - - - - g - - - - h
        |         |    C    |    K  A |
        i - - - - j - - - - k - - - - l
        """

    public static let ways: KeyValuePairs<String, Tags> = [
        "abcd": ["highway": "primary", "name": "Mannerheimintie"],
        "efgh": ["highway": "residential", "name": "Aleksanterinkatu"],
        "ijkl": ["highway": "secondary", "name": "Esplanadi"],
        "aei": ["highway": "tertiary", "name": "Kaivokatu"],
        "bfj": ["highway": "residential", "name": "Keskuskatu", "oneway": "yes"],
        "cgk": ["highway": "residential", "name": "Mikonkatu"],
        "dhl": ["highway": "tertiary", "name": "Unioninkatu"],
    ]

    public static let nodes: [Character: Tags] = [
        "R": ["amenity": "restaurant", "name": "Ravintola Kappeli", "phone": "+358 9 1234 5678", "cuisine": "finnish",
              "addr:street": "Mannerheimintie", "addr:housenumber": "3"],
        "S": ["shop": "department_store", "name": "Stockmann", "phone": "+358 9 121 3000",
              "addr:street": "Mannerheimintie", "addr:housenumber": "7"],
        "C": ["amenity": "cafe", "name": "Café Ekberg", "opening_hours": "Mo-Fr 07:30-19:00"],
        "K": ["amenity": "marketplace", "name": "Kauppatori"],
        "A": ["amenity": "atm", "operator": "Otto"],
        "M": ["addr:street": "Mannerheimintie", "addr:housenumber": "5", "addr:postcode": "00100", "addr:city": "Helsinki"],
        "N": ["addr:street": "Mannerheimintie", "addr:housenumber": "6", "addr:postcode": "00100", "addr:city": "Helsinki"],
        "P": ["place": "suburb", "name": "Kamppi"],
    ]

    public static func scenario() throws -> Scenario {
        try Scenario(drawing, ways: ways, nodes: nodes)
    }

    /// Where the committed fixture lives.
    public static var fixturePath: String {
        Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/drawn-town.osm.pbf").path
    }

    /// The map as an `.osm.pbf`, written by the project's own writer.
    public static func write(to path: String) throws {
        try scenario().writePBF(to: path)
    }
}

extension Scenario {
    /// The drawn map written as an `.osm.pbf` by `PBFWriter` (what an import reads).
    public func writePBF(to path: String) throws {
        let writer = try PBFWriter(path: path, boundingBox: nil)
        try writer.write(block)
        try writer.finish()
    }

    /// "lat,lon" of a drawn point, as TomTom's paths and queries take it.
    public func latLon(_ c: Character) -> String { coordinate(c).formatted(decimals: 6) }

    /// "lon,lat" of a drawn point, as OSRM's paths take it.
    public func lonLat(_ c: Character) -> String {
        let p = coordinate(c)
        return "\(Coordinate.format(p.longitude, 6)),\(Coordinate.format(p.latitude, 6))"
    }
}
