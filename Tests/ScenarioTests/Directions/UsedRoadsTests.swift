import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Routing

/// `avoid=alreadyUsedRoads`: a later leg keeps off the roads an earlier leg drove, whether the
/// route leaves now, at a given time (time-dependent search) or must arrive by a time.
@Suite("Already used roads") struct UsedRoadsTests {
    //  a . b . c . f     primary a–b–c–f; a residential loop b–d–e–c below
    //      .   .
    //      d . e
    static func scenario() throws -> Scenario {
        try Scenario("""
            a . b . c . f
            . . . . . . .
            . . d . e . .
            """, gridMeters: 100, ways: ["abcf": ["highway": "primary"], "bd": ["highway": "residential"],
                                         "de": ["highway": "residential"], "ec": ["highway": "residential"]])
    }

    // Monday 2026-11-30 03:00 in Helsinki (UTC+2).
    static let now = Date(timeIntervalSince1970: 1_796_000_400)

    enum Timing: String, CaseIterable { case leaveNow, departAt, arriveAt }

    @Test("a second leg keeps off the first leg's roads", arguments: Timing.allCases)
    func secondLegTakesAnotherRoad(_ timing: Timing) throws {
        let s = try Self.scenario()
        let service = try s.service(clock: TestClock(Self.now))
        func route(avoiding: Bool) throws -> String {
            var q = s.query(["a", "f", "a"])
            switch timing {
            case .leaveNow: break
            case .departAt: q.departAt = Self.now.addingTimeInterval(3600)
            case .arriveAt: q.arriveAt = Self.now.addingTimeInterval(3600)
            }
            if avoiding { q.avoid = [.alreadyUsedRoads] }
            return s.nodes(try service.calculateRoute(q).routes[0])
        }
        #expect(try route(avoiding: false) == "abcfcba")
        #expect(try route(avoiding: true) == "abcfcedba")
    }
}
