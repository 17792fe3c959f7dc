import Testing
import GeoCore
import OSMPBF
@testable import Places

/// Postcode-only search: a postcode with a `postal_code` boundary answers with the boundary's area;
/// one without, with the area of the addresses that carry it.
@Suite("Postcodes") struct PostcodeTests {
    let store: SQLitePlaceStore

    init() throws {
        var m = TestMap()
        m.street("Posti", [(0, 0), (1_000, 0)])
        m.address("Posti", "1", 0, 10, postcode: "00500")
        m.address("Posti", "3", 200, 10, postcode: "00500")
        m.address("Posti", "5", 800, 10, postcode: "00510")
        m.boundary(id: 9, 700, -100, 1_100, 100, ["boundary": "postal_code", "postal_code": "00510"])
        // A named bus platform carries the only address with 00520; an unnamed one the only 00530.
        m.area([(300, 20), (340, 20), (340, 24), (300, 24)],
               ["public_transport": "platform", "name": "Postitalo", "addr:street": "Posti", "addr:postcode": "00520"])
        m.area([(400, 20), (440, 20), (440, 24), (400, 24)], ["public_transport": "platform", "addr:postcode": "00530"])
        store = try m.store().0
    }

    @Test func aPostcodeFromAddressesIsTheirArea() throws {
        let top = try #require(try store.search(PlaceSearchQuery(text: "00500")).results.first)
        #expect(top.kind == .postcode && top.name == "00500")
        #expect(Geodesy.distanceMeters(top.position, TestMap.coordinate(100, 10)) < 2)
        #expect(top.extent != nil)
    }

    @Test func aPostcodeBoundaryGivesItsOwnArea() throws {
        let top = try #require(try store.search(PlaceSearchQuery(text: "00510")).results.first)
        #expect(top.kind == .postcode && top.osmType == .relation && top.osmID == 9)
        #expect(Geodesy.distanceMeters(top.position, TestMap.coordinate(900, 0)) < 2)
    }

    @Test func aNamedPlatformIsSearchableAndCountsForItsPostcode() throws {
        #expect(try store.search(PlaceSearchQuery(text: "Postitalo")).results.first?.name == "Postitalo")
        let top = try #require(try store.search(PlaceSearchQuery(text: "00520")).results.first)
        #expect(top.kind == .postcode && top.name == "00520")
        #expect(try store.search(PlaceSearchQuery(text: "00530")).results.contains { $0.kind == .postcode && $0.name == "00530" } == false)
    }
}
