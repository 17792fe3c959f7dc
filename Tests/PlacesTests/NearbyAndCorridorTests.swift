import Testing
import GeoCore
import OSMPBF
@testable import Places

/// POIs along an east–west road: fuel stations at 1 km and 5 km (one 50 m off the road, one 800 m off),
/// restaurants, an ATM; the road runs from (0, 0) to (10 km, 0).
@Suite("Nearby and corridor queries") struct NearbyAndCorridorTests {
    let store: SQLitePlaceStore
    let route = [TestMap.coordinate(0, 0), TestMap.coordinate(5_000, 0), TestMap.coordinate(10_000, 0)]

    init() throws {
        var m = TestMap()
        m.street("Tie", [(0, 0), (5_000, 0), (10_000, 0)], highway: "primary")
        m.node(1_000, 50, ["amenity": "fuel", "name": "Neste Tie", "phone": "+358 1"])
        m.node(5_000, 800, ["amenity": "fuel", "name": "ABC Kaukana"])
        m.node(7_000, -120, ["amenity": "fuel", "name": "Shell Seitsemän"])
        m.node(100, 30, ["amenity": "restaurant", "name": "Alku Grill", "phone": "+358 2"])
        m.node(300, 30, ["amenity": "restaurant", "name": "Toinen Bistro"])
        m.node(9_900, 10, ["amenity": "restaurant", "name": "Loppu Grill"])
        m.node(200, -40, ["amenity": "bank", "atm": "yes", "name": "Pankki"])
        store = try m.store().0
    }

    @Test func nearbyIsNearestFirstWithPhones() throws {
        let r = try store.nearby(NearbyQuery(center: TestMap.coordinate(0, 0), radiusMeters: 1_000, categories: ["restaurant"]))
        #expect(r.map(\.name) == ["Alku Grill", "Toinen Bistro"])
        #expect(r.first?.phone == "+358 2")
        #expect((r.first?.distanceMeters ?? 0) > 90 && (r.first?.distanceMeters ?? 0) < 110)
        let all = try store.nearby(NearbyQuery(center: TestMap.coordinate(0, 0), radiusMeters: 20_000, limit: 100))
        #expect(all.count == 7)
        #expect(all.map { $0.distanceMeters ?? 0 } == all.map { $0.distanceMeters ?? 0 }.sorted())
        let atm = try store.nearby(NearbyQuery(center: TestMap.coordinate(0, 0), radiusMeters: 1_000, categories: ["7397"]))
        #expect(atm.map(\.name) == ["Pankki"])
        let named = try store.nearby(NearbyQuery(center: TestMap.coordinate(0, 0), radiusMeters: 20_000, text: "gri"))
        #expect(named.map(\.name) == ["Alku Grill", "Loppu Grill"])
        #expect(try store.nearby(NearbyQuery(center: TestMap.coordinate(0, 0), radiusMeters: 20_000, categories: ["hospital"])).isEmpty)
        #expect(try store.nearby(NearbyQuery(center: TestMap.coordinate(0, 0), radiusMeters: 0)).isEmpty)
    }

    @Test func corridorKeepsPlacesWithinTheDistance() throws {
        let fuel = try store.corridor(CorridorQuery(polyline: route, maxDistanceMeters: 200, categories: ["fuel"]))
        #expect(Set(fuel.map(\.place.name)) == ["Neste Tie", "Shell Seitsemän"])
        let neste = try #require(fuel.first { $0.place.name == "Neste Tie" })
        #expect(abs(neste.distanceFromRouteMeters - 50) < 1)
        #expect(abs(neste.offsetAlongRouteMeters - 1_000) < 2)
        #expect(neste.segmentIndex == 0)
        let shell = try #require(fuel.first { $0.place.name == "Shell Seitsemän" })
        #expect(shell.segmentIndex == 1)
        #expect(abs(shell.offsetAlongRouteMeters - 7_000) < 2)
        let wide = try store.corridor(CorridorQuery(polyline: route, maxDistanceMeters: 1_000, text: "gas station"))
        #expect(wide.count == 3)
        let text = try store.corridor(CorridorQuery(polyline: route, maxDistanceMeters: 100, text: "grill"))
        #expect(Set(text.map(\.place.name)) == ["Alku Grill", "Loppu Grill"])
        #expect(try store.corridor(CorridorQuery(polyline: route, maxDistanceMeters: 100, categories: ["hotel"])).isEmpty)
        #expect(try store.corridor(CorridorQuery(polyline: [route[0]], maxDistanceMeters: 100)).isEmpty)
    }

    @Test func corridorChunksCoverLongSegments() {
        let line = [TestMap.coordinate(0, 0), TestMap.coordinate(9_000, 9_000)]
        let along = [0, Geodesy.distanceMeters(line[0], line[1])]
        let chunks = SQLitePlaceStore.chunks(line, along: along, maxLengthMeters: 1_000)
        #expect(chunks.count == 13)
        #expect(chunks.first?.points.first == line[0])
        #expect(chunks.last?.points.last == line[1])
    }
}
