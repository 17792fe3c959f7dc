import Foundation
import Testing
import MapsTestSupport
import MapsService
import Dataset
import DatasetImport
import RoadNetwork
import RoutePlanning
import GeoCore

/// The Helsinki clip's `no_left_turn` limited by `day_on`/`day_off`/`hour_on`/`hour_off`
/// (Mo–Fr 07:00–18:00), which used to hold at all times: a route from its `from` road to its `to`
/// road makes the turn outside those hours and not inside them.
@Suite(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
struct HelsinkiConditionalTests {
    /// Monday 2026-11-30 00:00 in Helsinki.
    static let mondayMidnight = 1_795_989_600.0
    static let clock = TestClock(Date(timeIntervalSince1970: mondayMidnight + 3 * 3_600))
    static let service: MapsService? = {
        let dir = Fixtures.temporaryDirectory("wayfinder-helsinki-conditional")
        var options = DatasetImporter.Options(extractPath: Fixtures.helsinki, outputPath: dir.path)
        options.profiles = [.car]
        options.skipPlaces = true
        options.skipBaseMap = true
        guard (try? DatasetImporter(options: options).run()) != nil, let dataset = try? Dataset(path: dir.path) else { return nil }
        return try? MapsService(dataset: dataset, clock: { clock.now })
    }()

    /// Whether a route makes turn `t`.
    func makes(_ route: TimedRoute, turn t: Int, graph: RoadGraph) -> Bool {
        let arcs = route.legs.flatMap(\.arcs).map(\.arc)
        let from = graph.arcOriginal[graph.turnSource[t].index], to = graph.arcOriginal[graph.turnTarget[t].index]
        return zip(arcs, arcs.dropFirst()).contains { $0 == from && $1 == to }
    }

    @Test func dayOnHourOnTurnHoldsOnlyInItsHours() throws {
        let service = try #require(Self.service)
        let graph = try #require(service.planning.graph(.car))
        #expect(graph.conditionals.turns.count == 1)
        let t = Int(try #require(graph.conditionals.turns.first))
        // From the middle of the arc before the turn to the middle of the arc after it.
        let before = graph.shape(of: graph.turnSource[t]), after = graph.shape(of: graph.turnTarget[t])
        func middle(_ shape: [Coordinate]) -> Coordinate {
            shape.count > 2 ? shape[shape.count / 2] : Geodesy.interpolate(shape[0], shape[1], 0.5)
        }
        let start = middle(before), end = middle(after)
        func route(day: Int, hour: Int) throws -> TimedRoute {
            var request = PlanRequest(waypoints: [start, end], mode: .car)
            request.timing = .departAt(Self.mondayMidnight + Double(day * 86_400 + hour * 3_600))
            return try #require(service.planning.plan(request).plan?.best)
        }
        let night = try route(day: 0, hour: 3), morning = try route(day: 0, hour: 8), sunday = try route(day: 6, hour: 8)
        #expect(makes(night, turn: t, graph: graph))
        #expect(!makes(morning, turn: t, graph: graph))
        #expect(morning.lengthMeters > night.lengthMeters)
        #expect(makes(sunday, turn: t, graph: graph))
    }
}
