import Foundation
import MapsTestSupport
import OSMPBF
import SQLite
import GeoCore
@testable import Places

/// The Helsinki and Monaco samples indexed once per test process.
enum SampleIndexes {
    struct Built: Sendable {
        var store: SQLitePlaceStore
        var path: String
        var statistics: PlacesIndexBuilder.Statistics
        var buildSeconds: Double
    }

    static let helsinki: Result<Built, any Error> = build(Fixtures.helsinki, name: "helsinki")
    static let monaco: Result<Built, any Error> = build(Fixtures.monaco, name: "monaco")

    static func build(_ pbf: String, name: String) -> Result<Built, any Error> {
        Result {
            let path = Fixtures.temporaryDirectory("places-\(name)").appendingPathComponent("places.sqlite").path
            let started = ContinuousClock.now
            let stats = try PlacesIndexBuilder(options: .init(sourceDescription: pbf)).build(from: try PBFReader(path: pbf), to: path)
            let seconds = (ContinuousClock.now - started).seconds
            return Built(store: try SQLitePlaceStore(path: path), path: path, statistics: stats, buildSeconds: seconds)
        }
    }

    /// Every address made from a way (a building outline): its point, street and number.
    static func buildingAddresses(_ path: String) throws -> [(position: Coordinate, street: String, number: String)] {
        let db = try Database(path: path, mode: .readOnly)
        let s = try db.prepare("SELECT lat_e7, lon_e7, street, housenumber FROM place WHERE kind = 0 AND osm_type = 1 AND flags & 1 = 0")
        var out: [(Coordinate, String, String)] = []
        while try s.step() { out.append((Coordinate(latitudeE7: s.int32(0), longitudeE7: s.int32(1)), s.text(2), s.text(3))) }
        return out
    }

    /// The bounding box of every place in the index.
    static func extent(_ path: String) throws -> BoundingBox {
        let db = try Database(path: path, mode: .readOnly)
        let s = try db.prepare("SELECT MIN(lat_e7), MIN(lon_e7), MAX(lat_e7), MAX(lon_e7) FROM place")
        _ = try s.step()
        return BoundingBox(minLatitudeE7: s.int32(0), minLongitudeE7: s.int32(1), maxLatitudeE7: s.int32(2), maxLongitudeE7: s.int32(3))
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
    var milliseconds: Double { seconds * 1_000 }
}
