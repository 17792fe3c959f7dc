public import GeoCore

/// Positions drawn as ASCII art, after OSRM's cucumber node maps: letters are road nodes, digits
/// are points off the road, everything else is decoration. One character column is half a grid
/// cell, so `a b` and one row down are the same distance apart.
public struct GridMap: Sendable {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case duplicateNode(Character)
        case unknownNode(Character, inWay: String)

        public var description: String {
            switch self {
            case .duplicateNode(let c): return "node \"\(c)\" is drawn twice"
            case .unknownNode(let c, let way): return "way \"\(way)\" uses node \"\(c)\", which is not drawn"
            }
        }
    }

    public let positions: [Character: Coordinate]
    public let gridMeters: Double
    public static let origin = Coordinate(latitude: 60.0, longitude: 24.0)

    public init(_ drawing: String, gridMeters: Double = 100) throws(Error) {
        self.gridMeters = gridMeters
        var positions: [Character: Coordinate] = [:]
        let metersPerDegreeLon = Geodesy.metersPerDegreeLatitude * Geodesy.cosine(ofLatitude: Self.origin.latitude)
        for (row, line) in drawing.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, ch) in line.enumerated() where ch.isLetter || ch.isNumber {
                guard positions[ch] == nil else { throw .duplicateNode(ch) }
                let east = Double(column) * 0.5 * gridMeters, south = Double(row) * gridMeters
                positions[ch] = Coordinate(latitude: Self.origin.latitude - south / Geodesy.metersPerDegreeLatitude,
                                           longitude: Self.origin.longitude + east / metersPerDegreeLon)
            }
        }
        self.positions = positions
    }

    public subscript(_ c: Character) -> Coordinate? { positions[c] }

    public func character(at coordinate: Coordinate) -> Character? {
        for (c, p) in positions where c.isLetter && Geodesy.distanceMeters(p, coordinate) < 0.05 { return c }
        return nil
    }
}
