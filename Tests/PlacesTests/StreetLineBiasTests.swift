import Testing
import GeoCore
@testable import Places

/// Typing a street's first letters near that street finds it even when the street is long: its
/// line passes the bias point though its stored position, the middle of the line, is far away.
@Suite("Streets through the bias point") struct StreetLineBiasTests {
    @Test func aLongRoadThroughTheBiasPointComesFirst() throws {
        var m = TestMap()
        // 12 km of road from the bias point eastwards, and sixty short streets of the same prefix
        // 1-3 km north of it, each nearer by its middle than the long road's middle (6 km away).
        m.street("Carretera General", [(0, 0), (4_000, 0), (8_000, 0), (12_000, 0)], highway: "tertiary")
        for i in 0..<60 {
            let x = Double(i % 10) * 300, y = 1_000 + Double(i / 10) * 300
            _ = m.street("Carretera de Vila \(i + 1)", [(x, y), (x + 100, y)])
        }
        let store = try m.store().0
        let bias = TestMap.coordinate(50, 5)
        let r = try store.search(PlaceSearchQuery(text: "Carret", typeahead: true, bias: bias, kinds: [.street]))
        #expect(r.results.first?.name == "Carretera General", "\(r.results.prefix(3).map(\.name))")
        #expect((r.results.first?.distanceMeters ?? .infinity) < 20)
        // Beside a short street, that street comes first: the long road gains only where it passes.
        let beside = try store.search(PlaceSearchQuery(text: "Carret", typeahead: true, bias: TestMap.coordinate(2_750, 2_505), kinds: [.street]))
        #expect(beside.results.first?.name == "Carretera de Vila 60", "\(beside.results.prefix(3).map(\.name))")
    }
}
