import Foundation
import Testing
import GeoCore
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing
import RoutePlanning

/// Alternatives on seeded random networks (one-ways, barriers, turn restrictions), planned by the
/// production engine: every alternative is a path the graph can drive, within the stretch and
/// sharing bounds, and its reported time is what re-timing it gives.
@Suite("Alternatives on random networks") struct AlternativeOracleTests {
    static let departure = Scenario.quietHour.timeIntervalSince1970 + 5 * 3600

    struct Tally { var routes = 0, alternatives = 0 }

    static func check(_ request: PlanRequest, planning: PlanningEngine, graph: RoadGraph, tally: inout Tally) {
        guard let plan = planning.plan(request).plan else { return }
        tally.routes += 1
        let best = plan.best
        func arcs(_ route: TimedRoute) -> Set<ArcID> { Set(route.legs.flatMap { $0.arcs.map { graph.arcOriginal[$0.arc.index] } }) }
        func shared(_ route: TimedRoute, _ with: Set<ArcID>) -> Double {
            route.legs.reduce(0) { $0 + $1.arcs.filter { with.contains(graph.arcOriginal[$0.arc.index]) }.reduce(0) { $0 + $1.lengthMeters } }
        }
        var offered = [arcs(best)]
        for alternative in plan.routes.dropFirst() {
            tally.alternatives += 1
            let label = "\(request.waypoints.count) points, \(request.timing), alternative \(offered.count)"
            #expect(alternative.legs.count == best.legs.count, "\(label): legs")
            #expect(planning.fits(alternative.path), "\(label): consecutive arcs are not joined by an allowed turn")
            #expect(alternative.durationSeconds <= best.durationSeconds * 1.4 + 1,
                    "\(label): \(alternative.durationSeconds) s against the best \(best.durationSeconds) s")
            let length = alternative.legs.reduce(0) { $0 + $1.lengthMeters }
            for (k, set) in offered.enumerated() {
                #expect(shared(alternative, set) <= 0.75 * length + 0.5, "\(label): shares over 75 % with route \(k)")
            }
            let retimed = planning.time(alternative.path, departingAt: alternative.departure)
            #expect(retimed.map { abs($0.durationSeconds - alternative.durationSeconds) < 0.01 } ?? false,
                    "\(label): reported \(alternative.durationSeconds) s, re-timed \(retimed?.durationSeconds ?? -1) s")
            offered.append(arcs(alternative))
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomNetworks(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 14, height: 12)
        let (planning, _) = Scenario.engines(try Extractor(profiles: Profile.all).run(source: InMemoryOSMSource([block])))
        let graph = try #require(planning.graph(.car))
        // Random points over the network's box (about 1.7 km by 1.4 km south-east of the origin).
        var rng = SplitMix64(seed: seed &* 17)
        func point() -> Coordinate {
            Coordinate(latitude: 60.2 - Double(rng.next() % 1000) / 1000 * 0.0130,
                       longitude: 24.9 + Double(rng.next() % 1000) / 1000 * 0.0300)
        }
        var tally = Tally()
        for q in 0..<30 {
            var request = PlanRequest(waypoints: q % 3 == 2 ? [point(), point(), point()] : [point(), point()], mode: .car)
            request.maxAlternatives = 3
            if q % 2 == 1 { request.timing = .departAt(Self.departure) }
            Self.check(request, planning: planning, graph: graph, tally: &tally)
        }
        #expect(tally.routes >= 15, "seed \(seed): only \(tally.routes) routes")
        #expect(tally.alternatives >= 5, "seed \(seed): only \(tally.alternatives) alternatives in \(tally.routes) routes")
    }
}

/// With a departure time the candidates are judged by their time-dependent durations: a road
/// that is fine at night but crawls at rush hour is an alternative at night only.
@Suite("Alternatives in traffic") struct AlternativesInTrafficTests {
    @Test func rushHourRoadIsNoAlternativeAtRushHour() throws {
        let s = try TimeAndTrafficTests.scenario()
        let clock = TestClock(TimeAndTrafficTests.mondayThreeAM)
        let service = try TimeAndTrafficTests.service(s, clock: clock)
        var night = s.query(["a", "d"])
        night.departAt = TimeAndTrafficTests.mondayThreeAM
        night.maxAlternatives = 2
        let atNight = try service.calculateRoute(night).routes.map { s.nodes($0) }
        #expect(atNight == ["abd", "acd"])
        var rush = night
        rush.departAt = TimeAndTrafficTests.mondayEightAM
        let atRush = try service.calculateRoute(rush).routes
        #expect(atRush.map { s.nodes($0) } == ["acd"], "ab crawls at 8 km/h from 07:00: driving it is no alternative then")
    }
}
