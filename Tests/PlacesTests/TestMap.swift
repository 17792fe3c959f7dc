import Foundation
import GeoCore
import OSMPBF
import MapsTestSupport
@testable import Places

/// A tiny map drawn in metres east and north of a point in Helsinki, indexed into a temporary file.
struct TestMap {
    var builder = OSMBlockBuilder()
    private var nextNodeID: Int64 = 1
    private var nextWayID: Int64 = 1
    static let origin = Coordinate(latitude: 60.17, longitude: 24.94)

    static func coordinate(_ east: Double, _ north: Double) -> Coordinate {
        let lat = origin.latitude + north / Geodesy.metersPerDegreeLatitude
        let lon = origin.longitude + east / (Geodesy.metersPerDegreeLatitude * Geodesy.cosine(ofLatitude: origin.latitude))
        return Coordinate(latitude: lat, longitude: lon)
    }

    @discardableResult
    mutating func node(_ east: Double, _ north: Double, _ tags: Tags = Tags()) -> Int64 {
        let id = nextNodeID
        nextNodeID += 1
        let c = Self.coordinate(east, north)
        builder.addNode(id: id, latitudeE7: c.latitudeE7, longitudeE7: c.longitudeE7, tags: tags)
        return id
    }

    @discardableResult
    mutating func way(_ refs: [Int64], _ tags: Tags) -> Int64 {
        let id = nextWayID
        nextWayID += 1
        builder.addWay(id: id, refs: refs, tags: tags)
        return id
    }

    /// A straight street through the given points (metres).
    @discardableResult
    mutating func street(_ name: String, _ points: [(Double, Double)], highway: String = "residential", extra: Tags = Tags()) -> Int64 {
        let refs = points.map { node($0.0, $0.1) }
        var tags: Tags = ["highway": highway, "name": name]
        tags.pairs += extra.pairs
        return way(refs, tags)
    }

    /// A house number node.
    @discardableResult
    mutating func address(_ street: String, _ number: String, _ east: Double, _ north: Double, postcode: String? = "00100",
                          city: String? = "Helsinki") -> Int64 {
        var tags: Tags = ["addr:street": street, "addr:housenumber": number]
        if let postcode { tags.pairs.append((key: "addr:postcode", value: postcode)) }
        if let city { tags.pairs.append((key: "addr:city", value: city)) }
        return node(east, north, tags)
    }

    /// Builds the index into a fresh temporary directory and opens it.
    func store(countryCode: String? = "FI") throws -> (SQLitePlaceStore, PlacesIndexBuilder.Statistics) {
        let dir = Fixtures.temporaryDirectory("places-test")
        let path = dir.appendingPathComponent("places.sqlite").path
        let stats = try PlacesIndexBuilder(options: .init(defaultCountryCode: countryCode))
            .build(from: InMemoryOSMSource([builder.block]), to: path)
        return (try SQLitePlaceStore(path: path), stats)
    }
}

extension PlaceSearchResponse {
    var names: [String] { results.map(\.name) }
}

extension TestMap {
    /// A closed way through the corners (metres), with `tags`; returns the way id.
    @discardableResult
    mutating func area(_ corners: [(Double, Double)], _ tags: Tags) -> Int64 {
        let refs = corners.map { node($0.0, $0.1) }
        return way(refs + [refs[0]], tags)
    }

    /// A building outline carrying an address.
    @discardableResult
    mutating func building(_ street: String, _ number: String, _ corners: [(Double, Double)], extra: Tags = Tags()) -> Int64 {
        var tags: Tags = ["building": "yes", "addr:street": street, "addr:housenumber": number]
        tags.pairs += extra.pairs
        return area(corners, tags)
    }

    /// A boundary relation around a square (metres from `(x0, y0)` to `(x1, y1)`).
    mutating func boundary(id: Int64, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ tags: Tags) {
        let ring = area([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], [:])
        var t: Tags = ["type": "boundary"]
        t.pairs += tags.pairs
        builder.addRelation(id: id, members: [(type: .way, id: ring, role: "outer")], tags: t)
    }
}
