import Foundation
import Testing
import MapsTestSupport
import MapMatching
import MapsService
import RoadNetwork
import RoutePlanning
import GeoCore
import OSMPBF

/// A trace along drawn points: `perLeg` fixes between consecutive letters, `sideMeters` to the
/// north of the line, one every `seconds`.
func trace(_ s: Scenario, _ stops: String, perLeg: Int = 4, northMeters: Double = 0, seconds: Double = 5, start: Double = 1_800_000_000) -> [TracePoint] {
    var points: [TracePoint] = []
    let letters = Array(stops)
    for (a, b) in zip(letters, letters.dropFirst()) {
        for k in 0..<perLeg {
            let c = Geodesy.interpolate(s.coordinate(a), s.coordinate(b), Double(k) / Double(perLeg))
            points.append(TracePoint(Coordinate(latitude: c.latitude + northMeters / Geodesy.metersPerDegreeLatitude, longitude: c.longitude)))
        }
    }
    let last = s.coordinate(letters.last!)
    points.append(TracePoint(Coordinate(latitude: last.latitude + northMeters / Geodesy.metersPerDegreeLatitude, longitude: last.longitude)))
    for i in points.indices { points[i].time = start + Double(i) * seconds }
    return points
}

/// The drawn letters a matched stretch passes, and the names of its roads.
func described(_ s: Scenario, _ stretch: MatchOutcome.Stretch, graph: RoadGraph) -> (nodes: String, ways: [String]) {
    var nodes = "", ways: [String] = []
    for c in stretch.route.points.compactMap({ s.map.character(at: $0) }) where nodes.last != c { nodes.append(c) }
    for leg in stretch.route.legs {
        for arc in leg.arcs where arc.lengthMeters > 0.5 {
            let name = graph.name(of: graph.way(of: arc.arc))
            if ways.last != name { ways.append(name) }
        }
    }
    return (nodes, ways)
}

@Suite("Map matching rules on drawn maps") struct MatcherRuleTests {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))

    func match(_ s: Scenario, _ points: [TracePoint], _ change: (inout MatchParameters) -> Void = { _ in }) throws -> (MatchOutcome, RoadGraph) {
        let service = try s.service(clock: Self.clock, profiles: [.car])
        var parameters = MatchParameters()
        change(&parameters)
        let outcome = try #require(service.planning.match(points, mode: .car, parameters: parameters))
        return (outcome, try #require(service.planning.graph(.car)))
    }

    // Two parallel streets 24 m apart; the northern one is one-way eastwards. A westbound
    // trace that runs nearer the one-way must be matched to the two-way street.
    static let parallel = """
        a . . . b
        c . . . d
        """

    @Test func oneWayIsNotDrivenAgainstItsDirection() throws {
        let s = try Scenario(Self.parallel, gridMeters: 24, ways: ["ab": ["highway": "residential", "oneway": "yes"], "cd": ["highway": "residential"],
                                                                    "ac": ["highway": "residential"], "bd": ["highway": "residential"]])
        let (outcome, graph) = try match(s, trace(s, "dc", perLeg: 8, northMeters: 16)) { $0.defaultAccuracyMeters = 10 }
        #expect(outcome.stretches.count == 1)
        let ways = outcome.stretches.flatMap { described(s, $0, graph: graph).ways }
        #expect(ways == ["cd"])
        // Eastwards the one-way is the nearer road and allowed.
        let (east, _) = try match(s, trace(s, "cd", perLeg: 8, northMeters: 16)) { $0.defaultAccuracyMeters = 10 }
        #expect(east.stretches.flatMap { described(s, $0, graph: graph).ways } == ["ab"])
    }

    //     a
    //     |
    // d - j - b
    //     |
    //     c
    static let cross = """
          a
        d j b
          c
        """

    @Test func turnRestrictionIsRespected() throws {
        let ways: KeyValuePairs<String, Tags> = ["aj": ["highway": "primary"], "bj": ["highway": "primary"], "cj": ["highway": "primary"], "dj": ["highway": "primary"]]
        let free = try Scenario(Self.cross, ways: ways)
        let (allowed, graph) = try match(free, trace(free, "cjd"))
        #expect(allowed.stretches.map { described(free, $0, graph: graph).nodes } == ["cjd"])
        let restricted = try Scenario(Self.cross, ways: ways, restrictions: [.init(from: "cj", via: "j", to: "dj", type: "no_left_turn")])
        let (outcome, rgraph) = try match(restricted, trace(restricted, "cjd"))
        // The forbidden left turn never appears: the trace is split, or driven around.
        for stretch in outcome.stretches { #expect(!described(restricted, stretch, graph: rgraph).nodes.contains("cjd")) }
        #expect(!outcome.stretches.isEmpty)
    }

    // A dead-straight two-way road; the vehicle drives from a to the middle and back.
    @Test func uTurnInTheMiddleOfARoad() throws {
        let s = try Scenario("a . . . . . . b . . . . . . c", gridMeters: 50, ways: ["ab": ["highway": "residential"], "bc": ["highway": "residential"]])
        let out = trace(s, "ab", perLeg: 6, northMeters: 3)
        var points = out
        for p in out.dropLast().reversed() { points.append(TracePoint(p.coordinate, time: points.last!.time! + 5)) }
        let (outcome, _) = try match(s, points)
        #expect(outcome.stretches.count == 1)
        let matching = try #require(outcome.stretches.first?.matching)
        #expect(matching.legs.contains { $0.turnsAround })
        // There and back: about twice a→b, not a detour to c.
        let ab = Geodesy.distanceMeters(s.coordinate("a"), s.coordinate("b"))
        #expect(abs(matching.lengthMeters - 2 * ab) < 0.2 * ab, "matched \(matching.lengthMeters) m, expected about \(2 * ab)")
        #expect(outcome.points.allSatisfy { $0 != nil })
    }

    @Test func timeGapSplitsOrIsIgnored() throws {
        let s = try Scenario("a . . . b . . . c", gridMeters: 50, ways: ["ab": ["highway": "residential"], "bc": ["highway": "residential"]])
        var points = trace(s, "abc", perLeg: 4)
        for i in 5..<points.count { points[i].time! += 300 }
        let (split, _) = try match(s, points)
        #expect(split.stretches.count == 2)
        let (ignored, _) = try match(s, points) { $0.splitGapSeconds = nil }
        #expect(ignored.stretches.count == 1)
        #expect(ignored.stretches[0].matching.points.count == points.count)
    }

    @Test func outlierFarFromRoadsIsDropped() throws {
        let s = try Scenario("a . . . b . . . c", gridMeters: 50, ways: ["ab": ["highway": "residential"], "bc": ["highway": "residential"]])
        var points = trace(s, "abc", perLeg: 4)
        points[4].coordinate = Coordinate(latitude: points[4].coordinate.latitude + 300 / Geodesy.metersPerDegreeLatitude, longitude: points[4].coordinate.longitude)
        let (outcome, _) = try match(s, points)
        #expect(outcome.stretches.count == 1)
        #expect(outcome.points[4] == nil)
        #expect(outcome.points.enumerated().allSatisfy { $0.offset == 4 || $0.element != nil })
    }
}
