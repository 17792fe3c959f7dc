import Testing
import GeoCore
@testable import Places

/// Nominatim's `zoom=16` answers with the nearest "major street" (rank 26: any road down to residential,
/// living streets, pedestrian streets, tracks) and `zoom=17` with the nearest street of any kind (rank 27:
/// links, service roads, paths too). Drawn in metres, all running east from x = 0 to 300:
///
///     y=200  ===== Isotie (tertiary) =====
///     y=60   ===== Asuntokatu (residential) =====
///     y=40   ----- Kävelykatu (pedestrian) -----      (only in the second map)
///     y=20   ----- Liittymä (primary_link) -----
///     y=5    ----- Huoltotie (service) -----
///     y=0    • the point (100, 0)
@Suite("Reverse zoom 16 and 17 choose streets by Nominatim's ranks") struct ReverseZoomStreetTests {
    func store(pedestrian: Bool) throws -> SQLitePlaceStore {
        var m = TestMap()
        m.street("Isotie", [(0, 200), (300, 200)], highway: "tertiary")
        m.street("Asuntokatu", [(0, 60), (300, 60)], highway: "residential")
        if pedestrian { m.street("Kävelykatu", [(0, 40), (300, 40)], highway: "pedestrian") }
        m.street("Liittymä", [(0, 20), (300, 20)], highway: "primary_link")
        m.street("Huoltotie", [(0, 5), (300, 5)], highway: "service")
        return try m.store().0
    }

    func street(_ store: SQLitePlaceStore, zoom: Int) throws -> String? {
        var q = ReverseGeocodeQuery(position: TestMap.coordinate(100, 0))
        q.maxRank = ReverseGeocodeQuery.maxRank(zoom: zoom)
        return try store.reverseGeocode(q)?.place.name
    }

    @Test func zoom17TakesTheNearestStreetOfAnyKind() throws {
        #expect(try street(store(pedestrian: false), zoom: 17) == "Huoltotie")
    }

    @Test func zoom16SkipsLinksAndServiceRoadsButNotResidentialStreets() throws {
        #expect(try street(store(pedestrian: false), zoom: 16) == "Asuntokatu")
    }

    @Test func zoom16TakesAPedestrianStreet() throws {
        #expect(try street(store(pedestrian: true), zoom: 16) == "Kävelykatu")
    }
}
