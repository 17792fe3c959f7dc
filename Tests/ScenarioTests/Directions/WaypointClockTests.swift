import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI

/// A leg after a waypoint is driven from the moment the vehicle gets there: what the legs before
/// it charged beyond time (the restricted-entry charge, avoidance penalties) orders routes but
/// does not move the clock.
@Suite("Waypoint clock") struct WaypointClockTests {
    /// A private court (b–d–e) with a waypoint at its end (`1`), and two ways from b to c: the
    /// street (240 m) and a loop through h and i (480 m).
    static func scenario() throws -> Scenario {
        try Scenario("""
                h - - - - - i
                |           |
                |           |
            a - b - - - - - c
                |
                d
                |
                e
                1
            """, gridMeters: 40, ways: ["abc": ["highway": "residential"], "bhic": ["highway": "residential"],
                                        "bde": ["highway": "service", "access": "private"]])
    }

    static let now = Date(timeIntervalSince1970: 1_796_000_400)

    static func route(_ service: MapsService, _ s: Scenario, _ names: [Character], departAt: Date) throws -> RouteBody {
        var q = s.query(names)
        q.departAt = departAt
        return try service.calculateRoute(q).routes[0]
    }

    @Test func theLegAfterAPrivateWaypointSeesTheTrafficOfItsOwnTime() throws {
        let s = try Self.scenario()
        let service = try s.service(clock: TestClock(Self.now))
        let departure = Self.now.addingTimeInterval(60)
        // Free flow: the street is the way from the court to c.
        let before = try Self.route(service, s, ["a", "1", "c"], departAt: departure)
        #expect(before.legs[1].summary.lengthInMeters < 480, "\(before.legs[1].summary.lengthInMeters) m")
        // The street crawls at 5 km/h for the next hour: now the loop is quicker.
        let (b, c) = (s.osmID("b"), s.osmID("c"))
        _ = try service.applyTraffic(Array("\(b),\(c),5\n\(c),\(b),5\n".utf8), kind: .speeds, expiresInSeconds: 3600, source: "feed")
        let alone = try Self.route(service, s, ["1", "c"], departAt: departure.addingTimeInterval(Double(before.legs[0].summary.travelTimeInSeconds)))
        #expect(alone.summary.lengthInMeters > 480, "\(alone.summary.lengthInMeters) m")
        // Through the waypoint, the second leg starts a minute or two after the departure, not
        // after the 74 h the private court's entry charge stands for (when the crawl is over).
        let through = try Self.route(service, s, ["a", "1", "c"], departAt: departure)
        #expect(through.legs[1].summary.lengthInMeters == alone.summary.lengthInMeters,
                "\(through.legs[1].summary.lengthInMeters) m against \(alone.summary.lengthInMeters) m")
        #expect(abs(through.legs[1].summary.travelTimeInSeconds - alone.summary.travelTimeInSeconds) <= 2)
    }
}
