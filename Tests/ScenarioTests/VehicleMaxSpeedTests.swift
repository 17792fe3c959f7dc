import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import RoutePlanning

/// A vehicle's top speed (TomTom's `vehicleMaxSpeed`) chooses the route as well as timing it: a
/// slow vehicle gains nothing from a motorway detour that only a fast one can use.
@Suite("Vehicle top speed") struct VehicleMaxSpeedTests {
    //  c - - - - - - - d     c–d: a motorway at 130 km/h, 4 km
    //  |               |
    //  a - - - - - - - b     a–b: a 50 km/h road, 4 km; a–c and d–b 500 m at 50 km/h
    //
    // A car drives the 50 km/h roads at about 40 km/h (as OSRM's car profile does): 6 min direct,
    // 4 min by the motorway; at 100 km/h 3 min 54 s by it, at 40 km/h 7 min 30 s.
    static let bypass = """
        c - - - - - - - d
        a - - - - - - - b
        """

    static func scenario() throws -> Scenario {
        try Scenario(bypass, gridMeters: 500, ways: [
            "ab": ["highway": "tertiary", "maxspeed": "50"], "ac": ["highway": "tertiary", "maxspeed": "50"],
            "db": ["highway": "tertiary", "maxspeed": "50"], "cd": ["highway": "motorway", "maxspeed": "130"],
        ])
    }

    /// Monday 2026-11-30 10:00 in Helsinki.
    static let monday10 = Date(timeIntervalSince1970: 1_795_989_600 + 10 * 3_600)

    func route(_ s: Scenario, _ service: MapsService, maxSpeed: Int, departAt: Date? = nil, arriveAt: Date? = nil) throws -> RouteBody {
        var q = s.query(["a", "b"])
        q.vehicleMaxSpeedKmh = maxSpeed
        q.departAt = departAt
        q.arriveAt = arriveAt
        return try service.calculateRoute(q).routes[0]
    }

    @Test func aSlowVehicleTakesTheDirectRoad() throws {
        let s = try Self.scenario()
        let service = try s.service(clock: TestClock(Self.monday10.addingTimeInterval(-3_600)))
        #expect(s.nodes(try route(s, service, maxSpeed: 0)) == "acdb", "a car without a cap takes the motorway")
        #expect(s.nodes(try route(s, service, maxSpeed: 100)) == "acdb", "at 100 km/h the motorway still pays")
        for timing in [(nil, nil), (Self.monday10, nil), (nil, Self.monday10)] as [(Date?, Date?)] {
            let slow = try route(s, service, maxSpeed: 40, departAt: timing.0, arriveAt: timing.1)
            #expect(s.nodes(slow) == "ab", "at 40 km/h the detour loses (depart \(String(describing: timing.0)), arrive \(String(describing: timing.1)))")
            #expect(abs(slow.summary.travelTimeInSeconds - 360) <= 15, "\(slow.summary.travelTimeInSeconds) s")
        }
    }

    @Test func noArcIsFasterThanTheCap() throws {
        let s = try Self.scenario()
        let service = try s.service(clock: TestClock(Self.monday10.addingTimeInterval(-3_600)))
        for timing in [(nil, nil), (Self.monday10, nil), (nil, Self.monday10)] as [(Date?, Date?)] {
            var q = s.query(["a", "b"])
            q.vehicleMaxSpeedKmh = 20
            q.departAt = timing.0
            q.arriveAt = timing.1
            q.travelTimesForAll = true
            let r = try service.calculateRoute(q).routes[0].summary
            let floor = Double(r.lengthInMeters) / (20 / 3.6)
            #expect(Double(r.travelTimeInSeconds) >= floor - 1, "\(r.travelTimeInSeconds) s for \(r.lengthInMeters) m")
            #expect(Double(r.noTrafficTravelTimeInSeconds ?? 0) >= floor - 1)
            #expect(Double(r.travelTimeInSeconds) <= floor + 30)
            if let arrive = timing.1 {
                // an arrive-by route leaves early enough to arrive at the slow vehicle's speed
                let departure = try #require(ISO8601DateFormatter().date(from: r.departureTime))
                #expect(abs(arrive.timeIntervalSince(departure) - Double(r.travelTimeInSeconds)) <= 2)
            }
        }
    }

    /// The production engine (a CCH on the capped metric, time-dependent searches on the capped
    /// table) and a plain Dijkstra with no hierarchy agree on the capped route's cost.
    @Test(arguments: [30, 60, 90, 120])
    func theHierarchyAgreesWithPlainSearch(kmh: Int) throws {
        let s = try Self.scenario()
        for timing in [PlanRequest.Timing.leaveNow, .departAt(Scenario.quietHour.timeIntervalSince1970 + 600)] {
            var request = PlanRequest(waypoints: [s.coordinate("a"), s.coordinate("b")])
            request.vehicleMaxSpeedKmh = kmh
            request.timing = timing
            let fast = try #require(s.planning.plan(request).plan?.best)
            let plain = try #require(s.oracle.plan(request).plan?.best)
            #expect(abs(fast.durationSeconds - plain.durationSeconds) < 0.5, "\(kmh) km/h, \(timing): \(fast.durationSeconds) against \(plain.durationSeconds) s")
        }
    }
}
