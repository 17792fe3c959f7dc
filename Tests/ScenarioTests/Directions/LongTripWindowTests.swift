import Foundation
import Testing
import GeoCore
import MapsTestSupport
import MapsService
@testable import RoutePlanning
import Routing
import MapsAPI
import OSMPBF

/// Time-dependent searches are guided by lower bounds valid over a band of hours (or the week).
/// Trips that outlast their band must still come out exact: here two long roads with different
/// rush-hour profiles, checked against each road forced through a waypoint, at departures all
/// around the morning and evening peaks.
@Suite("Long trips across potential bands") struct LongTripWindowTests {
    //  a ------ t ------ b      primary, 40 km (arterial profile: 1.8 at 08:00, 1.25 by 10:00)
    //  |                 |
    //  c ------ u ------ d      motorway, 10 + 40 + 10 km (highway profile: sharper, earlier peak)
    static func scenario() throws -> Scenario {
        try Scenario("""
            a   t   b
            c   u   d
            """, gridMeters: 10_000, ways: ["atb": ["highway": "primary", "maxspeed": "70"],
                                            "acudb": ["highway": "motorway", "oneway": "no", "maxspeed": "100"]])
    }

    // Monday 2026-11-30, Helsinki time (UTC+2).
    static let mondayMidnight = 1_796_000_400.0 - 3 * 3600

    func seconds(_ service: MapsService, _ query: RouteQuery) throws -> Int {
        try service.calculateRoute(query).routes[0].summary.travelTimeInSeconds
    }

    @Test(arguments: [6.5, 7.25, 7.75, 8.25, 9.0, 9.75, 15.5, 16.25, 17.75])
    func departAtEqualsTheBetterForcedRoad(hour: Double) throws {
        let s = try Self.scenario()
        let departure = Date(timeIntervalSince1970: Self.mondayMidnight + hour * 3600)
        let service = try s.service(clock: TestClock(departure.addingTimeInterval(-86_400)))
        var free = s.query(["a", "b"]), top = s.query(["a", "t", "b"]), bottom = s.query(["a", "u", "b"])
        for q in [\RouteQuery.departAt] { free[keyPath: q] = departure; top[keyPath: q] = departure; bottom[keyPath: q] = departure }
        let best = try seconds(service, free)
        let forced = min(try seconds(service, top), try seconds(service, bottom))
        #expect(best > 1800, "the trip must outlast the first window")
        #expect(abs(best - forced) <= 1, "at \(hour) h: depart-at \(best) s, best forced road \(forced) s")
    }

    @Test(arguments: [7.5, 8.5, 9.5, 10.5, 17.0, 18.5])
    func arriveByIsTheLatestOfTheForcedRoads(hour: Double) throws {
        let s = try Self.scenario()
        let arrival = Date(timeIntervalSince1970: Self.mondayMidnight + hour * 3600)
        let service = try s.service(clock: TestClock(arrival.addingTimeInterval(-86_400)))
        func departure(_ stops: [Character]) throws -> Date {
            var q = s.query(stops)
            q.arriveAt = arrival
            let summary = try service.calculateRoute(q).routes[0].summary
            return try #require(RFC3339.parse(summary.departureTime, defaultTimeZone: service.timeZone))
        }
        let best = try departure(["a", "b"])
        let forced = max(try departure(["a", "t", "b"]), try departure(["a", "u", "b"]))
        #expect(arrival.timeIntervalSince(best) > 1800, "the trip must outlast the first window")
        #expect(abs(best.timeIntervalSince(forced)) <= 1, "arriving at \(hour) h: \(best) vs the later forced road \(forced)")
    }

    //  a b c d e
    //  f g h i j      rows and columns of 24 km roads, each of a seeded random class, so
    //  k l m n o      trips of 30–120 min cross the window ends at every kind of profile
    static func grid(seed: UInt64) throws -> Scenario {
        let rows = ["abcde", "fghij", "klmno"], columns = ["afk", "bgl", "chm", "din", "ejo"]
        let classes = ["motorway", "trunk", "primary", "secondary", "tertiary"]
        var rng = SplitMix64(seed: seed)
        let ways = (rows + columns).map { ($0, ["highway": classes[Int(rng.next() % 5)], "oneway": "no"] as Tags) }
        return try Scenario("a b c d e\nf g h i j\nk l m n o", gridMeters: 12_000, wayList: ways)
    }

    /// Every depart-at answer equals plain time-dependent Dijkstra's (no potentials) on the same
    /// snapshot, whichever band the search ended up using.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func windowedSearchesEqualPlainDijkstra(seed: UInt64) throws {
        let s = try Self.grid(seed: seed)
        let service = try s.service(clock: TestClock(Date(timeIntervalSince1970: Self.mondayMidnight - 86_400)))
        var rng = SplitMix64(seed: seed &+ 7)
        let names = Array("abcdefghijklmno")
        for _ in 0..<30 {
            let from = names[Int(rng.next() % 15)]
            var to = names[Int(rng.next() % 15)]
            if to == from { to = from == "a" ? "o" : "a" }
            // Around the peaks, where the bounds of a short window are far from the later factors.
            let time = Self.mondayMidnight + (rng.next() % 2 == 0 ? 6.5 : 14.5) * 3600 + Double(rng.next() % 240) * 60
            var q = s.query([from, to])
            q.departAt = Date(timeIntervalSince1970: time)
            let engine = try #require(service.planning.engine(.car))
            let calculation = RouteCalculation(engine: engine, snapshot: engine.snapshot, request: q.planRequest, now: time)
            let endpoints = try calculation.snapEndpoints().endpoints
            var plain = TimeDependentLegSearch(graph: engine.graph, table: engine.snapshot.table, departure: time, potential: nil, lowerBound: nil)
            let found = try #require(calculation.planner.route(endpoints, using: &plain).route)
            let oracle = try #require(RouteTiming.timed(found, graph: engine.graph, table: engine.snapshot.table, departure: time))
            let fast = try service.calculateRoute(q).routes[0].summary.travelTimeInSeconds
            #expect(abs(Double(fast) - oracle.durationSeconds) <= 1, "\(from)→\(to) at \(Int(time - Self.mondayMidnight) / 60) min: \(fast) s vs \(oracle.durationSeconds) s")
        }
    }
}
