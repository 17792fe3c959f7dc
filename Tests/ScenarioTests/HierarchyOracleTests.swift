import Foundation
import Testing
import GeoCore
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing
import RoutePlanning

/// The scenarios route through the planning engine and its CCH, as production does; here every
/// drawn map of the scenario suites, and seeded random networks, are planned both ways — the
/// hierarchy and plain Dijkstra — for every mode, route type and kind of timing, and the answers
/// must cost the same.
@Suite("The hierarchy against plain Dijkstra") struct HierarchyOracleTests {
    static var drawings: [(String, () throws -> Scenario)] { [
        ("drawn town", { try DrawnTown.scenario() }),
        ("one-way square", {
            try Scenario("""
                a - b
                |   | \\
                d - c  e
                """, ways: ["ab": ["highway": "primary", "oneway": "yes"], "bc": ["highway": "primary", "oneway": "yes"],
                            "cd": ["highway": "primary", "oneway": "yes"], "da": ["highway": "primary", "oneway": "yes"],
                            "be": ["highway": "residential"]])
        }),
        ("restricted crossing", {
            try Scenario("""
                  a
                d j b
                  c
                """, ways: ["aj": ["highway": "primary"], "bj": ["highway": "primary"],
                            "cj": ["highway": "primary"], "dj": ["highway": "secondary"]],
                restrictions: [.init(from: "cj", via: "j", to: "dj", type: "no_left_turn", tags: ["except": "bicycle"]),
                               .init(from: "aj", via: "j", to: "cj", type: "only_straight_on")])
        }),
        ("conditional rules", {
            // Leave-now requests (Monday 03:00 UTC) fall outside the windows, depart-at and
            // arrive-by ones (08:00, 09:00) inside them.
            try Scenario("""
                  a   e
                d j b f
                  c   g
                """, ways: ["aj": ["highway": "primary"], "bj": ["highway": "primary"], "cj": ["highway": "primary"],
                            "dj": ["highway": "secondary"], "ae": ["highway": "primary", "motor_vehicle:conditional": "no @ (Mo-Fr 06:00-10:00)"],
                            "ef": ["highway": "primary", "oneway:conditional": "-1 @ (Mo 07:00-12:00)"], "bf": ["highway": "residential"],
                            "fg": ["highway": "primary"], "cg": ["highway": "tertiary"]],
                restrictions: [.init(from: "cj", via: "j", to: "dj", type: "no_left_turn",
                                     tags: ["day_on": "Monday", "day_off": "Friday", "hour_on": "07:00", "hour_off": "18:00"]),
                               .init(from: "bj", via: "j", to: "aj", type: "", tags: ["restriction:conditional": "no_right_turn @ (Mo 08:00-09:30)"])])
        }),
        ("via-way restriction", {
            try Scenario("""
                a b c
                  d e
                """, ways: ["ab": ["highway": "primary"], "bc": ["highway": "primary"], "ce": ["highway": "primary"],
                            "bd": ["highway": "residential"], "de": ["highway": "residential"]],
                restrictions: [.init(from: "ab", via: "bc", to: "ce", type: "no_right_turn")])
        }),
        ("barriers and a motorway", {
            try Scenario("""
                a - b - c - d
                |           |
                e - f - g - h
                """, ways: ["abcd": ["highway": "motorway", "oneway": "yes"], "dh": ["highway": "motorway_link"],
                            "ae": ["highway": "residential"], "efgh": ["highway": "residential", "maxspeed": "30"],
                            "bf": ["highway": "service"], "cg": ["highway": "footway"]],
                nodes: ["f": ["barrier": "bollard"], "g": ["highway": "traffic_signals"]])
        }),
    ] }

    /// The requests asked between two points: leave now (fastest and shortest), depart at and
    /// arrive by (with no traffic in force on these maps, the static route timed from its moment,
    /// as `RouteCalculation.searchesByTime` has it; the time-dependent searches' oracles are in RoutingTests).
    static func requests(_ from: Coordinate, _ to: Coordinate, mode: TravelMode, timed: Bool) -> [PlanRequest] {
        var fastest = PlanRequest(waypoints: [from, to], mode: mode)
        var shortest = fastest
        shortest.routeType = .shortest
        guard timed else { return [fastest, shortest] }
        var departAt = fastest, arriveBy = fastest
        departAt.timing = .departAt(Scenario.quietHour.timeIntervalSince1970 + 5 * 3600)
        arriveBy.timing = .arriveBy(Scenario.quietHour.timeIntervalSince1970 + 6 * 3600)
        fastest.avoid = [.unpavedRoads]
        return [fastest, shortest, departAt, arriveBy]
    }

    struct Tally { var same = 0, failures = 0 }

    static func check(_ pairs: [(Coordinate, Coordinate, String)], planning: PlanningEngine, oracle: PlanningEngine,
                      label: String, tally: inout Tally) {
        for mode in planning.modes {
            for (i, (from, to, name)) in pairs.enumerated() {
                for request in requests(from, to, mode: mode, timed: i % 3 == 0) {
                    switch PlanOracle.compare(request, planning: planning, oracle: oracle) {
                    case .sameRoute: tally.same += 1
                    case .sameFailure: tally.failures += 1
                    case .differ(let why):
                        Issue.record("\(label) \(mode) \(name) \(request.routeType) \(request.timing): \(why)")
                    }
                }
            }
        }
    }

    @Test func drawnMaps() throws {
        var tally = Tally()
        for (label, make) in Self.drawings {
            let s = try make()
            let letters = s.map.positions.keys.filter(\.isLetter).sorted()
            var pairs: [(Coordinate, Coordinate, String)] = []
            for a in letters { for b in letters where a != b { pairs.append((s.coordinate(a), s.coordinate(b), "\(a)→\(b)")) } }
            Self.check(pairs, planning: s.planning, oracle: s.oracle, label: label, tally: &tally)
        }
        // Enough answers that the comparison means something.
        #expect(tally.same >= 3000, "only \(tally.same) routes compared (and \(tally.failures) failures)")
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomNetworks(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 8, height: 7)
        let (planning, oracle) = Scenario.engines(try Extractor(profiles: Profile.all).run(source: InMemoryOSMSource([block])))
        // Random points over the network's box (about 840 m by 720 m south-east of the origin).
        var rng = SplitMix64(seed: seed &* 31)
        func point() -> Coordinate {
            Coordinate(latitude: 60.2 - Double(rng.next() % 1000) / 1000 * 0.0065,
                       longitude: 24.9 + Double(rng.next() % 1000) / 1000 * 0.0150)
        }
        let pairs = (0..<60).map { q in (point(), point(), "query \(q)") }
        var tally = Tally()
        Self.check(pairs, planning: planning, oracle: oracle, label: "seed \(seed)", tally: &tally)
        #expect(tally.same >= 150, "seed \(seed): only \(tally.same) routes compared")
    }
}
