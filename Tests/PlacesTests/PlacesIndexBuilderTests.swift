import Testing
import Foundation
import GeoCore
import OSMPBF
import SQLite
import MapsTestSupport
@testable import Places

@Suite("Index builder") struct PlacesIndexBuilderTests {
    @Test func writesAtomicallyAndReplaces() throws {
        var m = TestMap()
        m.street("Katu", [(0, 0), (100, 0)])
        m.address("Katu", "1", 10, 10)
        let dir = Fixtures.temporaryDirectory("places-atomic")
        let path = dir.appendingPathComponent("places.sqlite").path
        let builder = PlacesIndexBuilder()
        let first = try builder.build(from: InMemoryOSMSource([m.block()]), to: path)
        #expect(first.addresses == 1 && first.streets == 1)
        m.node(50, 5, ["amenity": "cafe", "name": "Kahvila"])
        let reader = try SQLitePlaceStore(path: path)
        let second = try builder.build(from: InMemoryOSMSource([m.block()]), to: path)
        #expect(second.pois == 1)
        // A store opened before keeps reading the old file; a new one sees the new file.
        #expect(try reader.search(PlaceSearchQuery(text: "Kahvila")).results.isEmpty)
        #expect(try SQLitePlaceStore(path: path).search(PlaceSearchQuery(text: "Kahvila")).results.count == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
        #expect(second.fileSizeBytes > 0)
    }

    @Test func missingOrForeignFilesAreErrors() throws {
        #expect(throws: PlacesError.self) { _ = try SQLitePlaceStore(path: "/nonexistent/places.sqlite") }
        let dir = Fixtures.temporaryDirectory("places-foreign")
        let path = dir.appendingPathComponent("other.sqlite").path
        try Database(path: path, mode: .readWriteCreate).exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES('format_version', '999')")
        #expect(throws: PlacesError.self) { _ = try SQLitePlaceStore(path: path) }
    }

    @Test func duplicateAddressesAreMergedAndPOIsWithoutOneGetOnlyTheirStreet() throws {
        var m = TestMap()
        m.street("Katu", [(0, 0), (200, 0)])
        m.address("Katu", "4", 50, 10, postcode: nil)
        m.node(52, 12, ["addr:street": "Katu", "addr:housenumber": "4", "addr:postcode": "00500", "entrance": "main"])
        m.node(55, 15, ["shop": "bakery", "name": "Leipomo"])
        m.node(150, 60, ["amenity": "pharmacy", "name": "Apteekki"])
        let (store, stats) = try m.store()
        #expect(stats.addresses == 1)
        #expect(stats.duplicateAddressesDropped == 1)
        let address = try #require(try store.search(PlaceSearchQuery(text: "Katu 4")).results.first)
        #expect(address.address.postcode == "00500")
        let bakery = try #require(try store.search(PlaceSearchQuery(text: "Leipomo")).results.first)
        // 5 m from Katu 4 but not inside it: the street only, as Nominatim (AddressAsNominatimTests).
        #expect(bakery.address.streetNameAndNumber == "Katu")
        #expect(bakery.categories == ["bakery"])
        let pharmacy = try #require(try store.search(PlaceSearchQuery(text: "Apteekki")).results.first)
        #expect(pharmacy.address.streetName == "Katu")
        #expect(pharmacy.address.houseNumber == nil)
    }

    @Test func malformedObjectsAreSkipped() throws {
        var m = TestMap()
        m.way([999_001, 999_002], ["highway": "residential", "name": "Haamukatu"])   // nodes missing from the extract
        m.way([], ["amenity": "cafe", "name": "Tyhjä"])
        m.node(0, 0, ["amenity": "cafe"])   // no name: still a café, called by its category
        m.node(10, 10, ["addr:housenumber": "5"])   // a number without a street
        m.node(20, 20, ["name": ""])
        let (store, stats) = try m.store()
        #expect(stats.streets == 0)
        #expect(stats.addresses == 0)
        #expect(stats.pois == 1)
        #expect(try store.search(PlaceSearchQuery(text: "Café")).results.first?.name == "Café")
    }

    @Test func multipolygonRelationsGetACentroid() throws {
        var m = TestMap()
        let ring = [(0.0, 0.0), (100, 0), (100, 100), (0, 100)].map { m.node($0.0, $0.1) }
        let outer = m.way(ring + [ring[0]], [:])
        m.builder.addRelation(id: 7, members: [(type: .way, id: outer, role: "outer")],
                              tags: ["type": "multipolygon", "tourism": "museum", "name": "Museo", "addr:street": "Katu", "addr:housenumber": "1"])
        let (store, _) = try m.store()
        let museum = try #require(try store.search(PlaceSearchQuery(text: "Museo")).results.first)
        #expect(museum.osmType == .relation && museum.osmID == 7)
        #expect(Geodesy.distanceMeters(museum.position, TestMap.coordinate(50, 50)) < 1)
        #expect(museum.extent != nil)
    }
}

extension TestMap {
    func block() -> OSMBlock { builder.block }
}
