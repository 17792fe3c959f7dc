import Foundation
import Testing
import GeoCore
import MapsTestSupport
import RoadNetwork
import RoutePlanning

/// The planning API on drawn maps: every outcome as a value, routes timed arc by arc with where
/// each time comes from, and a known route re-timed forwards and backwards.
@Suite("Planning engine") struct PlanningEngineTests {
    //  a - - - b - - - c        primary, b c one-way east
    //                  |
    //                  d        residential
    static let scenario = try! Scenario("""
        a - - - b - - - c
                        |
                        d
        """, gridMeters: 200, ways: ["ab": ["highway": "primary"], "bc": ["highway": "primary", "oneway": "yes"],
                                     "cd": ["highway": "residential"]])
    static let now = Scenario.quietHour.timeIntervalSince1970

    func request(_ stops: [Character], _ change: (inout PlanRequest) -> Void = { _ in }) -> PlanRequest {
        var r = PlanRequest(waypoints: stops.map(Self.scenario.coordinate), mode: .car)
        change(&r)
        return r
    }

    var planning: PlanningEngine { Self.scenario.planning }

    @Test func aFoundPlanIsTimedArcByArc() throws {
        let route = try #require(planning.plan(request(["a", "d"])).plan?.best)
        #expect(route.legs.count == 1)
        #expect(abs(route.lengthMeters - 2000) < 1)
        #expect(route.departure == Self.now)
        #expect(abs(route.arrival - route.departure - route.durationSeconds) < 1e-6)
        // Without traffic data (no live update, no weekly profile) car times are free flow.
        #expect(route.legs[0].arcs.allSatisfy { $0.source == .freeFlow })
        #expect(route.profileOrigins.isEmpty && !route.comparison.profilesApply)
        #expect(abs(route.durationSeconds - route.comparison.freeFlowSeconds) < 0.01)
        #expect(route.waypoints.count == 2 && route.waypoints.allSatisfy { $0.distanceMeters < 0.5 })
        let walk = try #require(planning.plan(request(["a", "d"]) { $0.mode = .pedestrian }).plan?.best)
        #expect(walk.legs[0].arcs.allSatisfy { $0.source == .freeFlow })
    }

    @Test func expectedOutcomesAreValues() throws {
        let far = request(["a", "d"]) { $0.waypoints[1] = Coordinate(latitude: 59.9, longitude: 24.0) }
        guard case .noSegment(waypoint: 1) = planning.plan(far) else { Issue.record("not noSegment"); return }
        guard case .noRoute(leg: 1) = planning.plan(request(["a", "d", "a"])) else { Issue.record("not noRoute"); return }
        guard case .arrivalPassed = planning.plan(request(["a", "d"]) { $0.timing = .arriveBy(Self.now - 60) }) else {
            Issue.record("not arrivalPassed"); return
        }
        guard case .arrivalUnmeetable(let departure?) = planning.plan(request(["a", "d"]) { $0.timing = .arriveBy(Self.now + 30) }) else {
            Issue.record("not arrivalUnmeetable"); return
        }
        #expect(departure < Self.now)
        // The one-way: d to a must go around, and there is no way around.
        guard case .noRoute(leg: 0) = planning.plan(request(["d", "a"])) else { Issue.record("one-way ignored"); return }
    }

    @Test func arriveByLeavesAsLateAsPossible() throws {
        let arrival = Self.now + 3600
        let route = try #require(planning.plan(request(["a", "d"]) { $0.timing = .arriveBy(arrival) }).plan?.best)
        #expect(abs(route.arrival - arrival) < 1)
    }

    @Test func aKnownRouteIsRetimedForwardsAndBackwards() throws {
        let route = try #require(planning.plan(request(["a", "d"])).plan?.best)
        let path = route.path
        #expect(planning.fits(path))
        let later = Self.now + 7 * 3600  // Monday 10:00
        let timed = try #require(planning.time(path, departingAt: later))
        #expect(timed.legs[0].arcs.map(\.arc) == route.legs[0].arcs.map(\.arc))
        #expect(timed.departure == later)
        // No weekly profile from data: the same time as at 03:00 (no invented rush hour).
        #expect(abs(timed.durationSeconds - route.durationSeconds) < 0.01)
        let back = try #require(planning.latestDeparture(path, arrivingBy: timed.arrival))
        #expect(abs(back - later) < 1e-3)
        #expect(planning.edges(of: path).count == 3)
    }

    @Test func aPathThatNoLongerFitsIsRefused() throws {
        let path = try #require(planning.plan(request(["a", "d"])).plan?.best).path
        var renumbered = path
        renumbered.legs[0][0].arc = 10_000
        #expect(!planning.fits(renumbered))
        #expect(planning.time(renumbered, departingAt: Self.now) == nil)
        var unjoined = path
        unjoined.legs[0].swapAt(0, unjoined.legs[0].count - 1)
        #expect(!planning.fits(unjoined))
        var stretched = path
        stretched.lengthMeters += 50
        #expect(!planning.fits(stretched))
    }

    @Test func liveTrafficIsTheSourceWhereItCounts() throws {
        let s = try Scenario("a - - - b - - - c", gridMeters: 200, ways: ["ab": ["highway": "primary"], "bc": ["highway": "primary"]])
        let jam = "\(s.osmID("a")),\(s.osmID("b")),10\n"
        let applied = try s.planning.applyTraffic(Array(jam.utf8), kind: .speeds, expiresInSeconds: 3600, source: "test")
        #expect(applied.matchedLines == 1)
        let route = try #require(s.planning.plan(PlanRequest(waypoints: [s.coordinate("a"), s.coordinate("c")], mode: .car)).plan?.best)
        let sources = route.legs[0].arcs.map(\.source)
        #expect(sources.first == .live && sources.last == .freeFlow)
        #expect(route.timeSources == ["freeFlow", "live"])
        #expect(route.comparison.liveSeconds.map { $0 > route.comparison.historicalSeconds ?? .infinity } == true)
        #expect(abs(route.comparison.liveDelayedMeters - 800) < 1)
        var noLive = PlanRequest(waypoints: [s.coordinate("a"), s.coordinate("c")], mode: .car)
        noLive.traffic = false
        #expect(s.planning.plan(noLive).plan?.best.legs[0].arcs.allSatisfy { $0.source == .freeFlow } == true)
        #expect(s.planning.trafficState().updates.count == 1)
    }
}
