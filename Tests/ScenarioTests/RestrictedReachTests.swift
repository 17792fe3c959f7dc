import Foundation
import Testing
import GeoCore
import MapsTestSupport
import RoutePlanning

/// Reachable ranges and matrices keep the rule routes keep on roads of restricted access: a run
/// of them may be entered to end there or left from a start there, never passed through; leaving
/// now, at a given time or arriving by one.
@Suite("Restricted access in reaches and matrices") struct RestrictedReachTests {
    /// A hamlet (d e f) whose only way in and out is a destination-only lane b–d, 1 km long, off
    /// a public street; `1` stands beside the lane. The hamlet's roads lie more than a kilometre
    /// from any other, so points there stay on them.
    static func hamlet() throws -> Scenario {
        try Scenario("""
            a - - - b - - - c
                    |
                    1
                    d
                    |
                    e - - - f
            """, gridMeters: 1000, ways: ["abc": ["highway": "residential"],
                                          "bd": ["highway": "residential", "motor_vehicle": "destination"],
                                          "de": ["highway": "residential"], "ef": ["highway": "residential"]])
    }

    static let moment = Scenario.quietHour.timeIntervalSince1970 + 3600
    static let timings: [(String, PlanRequest.Timing)] = [("now", .leaveNow), ("departAt", .departAt(moment)), ("arriveBy", .arriveBy(moment))]

    /// Whether `p` lies inside the contour (an outer ring less its holes).
    static func covers(_ contour: ReachContour, _ p: Coordinate) -> Bool {
        func inside(_ ring: [Coordinate]) -> Bool {
            var inside = false
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.latitude > p.latitude) != (b.latitude > p.latitude)
                    && p.longitude < (b.longitude - a.longitude) * (p.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                    inside.toggle()
                }
                j = i
            }
            return inside
        }
        return contour.polygons.contains { inside($0.outer) && !$0.holes.contains(where: inside) }
    }

    static func midpoint(_ s: Scenario, _ x: Character, _ y: Character) -> Coordinate {
        let a = s.coordinate(x), b = s.coordinate(y)
        return Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
    }

    /// Two hours from (or to) the street reach the whole map but the hamlet: the lane is where
    /// a route from the street ends, and where one to it begins.
    @Test(arguments: [false, true], ["now", "departAt", "arriveBy"])
    func aReachEntersTheLaneButNotTheHamletBehindIt(reverse: Bool, timing: String) throws {
        let s = try Self.hamlet()
        var request = ReachRequest(origin: s.coordinate("a"), budget: .time, levels: [7200])
        request.timing = try #require(Self.timings.first { $0.0 == timing }).1
        request.reverse = reverse
        request.denoise = 0
        guard case .found(let reach) = s.planning.reach(request) else { Issue.record("no reach"); return }
        let contour = try #require(reach.contours.first)
        #expect(Self.covers(contour, s.coordinate("c")))
        #expect(Self.covers(contour, Self.midpoint(s, "b", "d")), "the lane")
        #expect(!Self.covers(contour, Self.midpoint(s, "d", "e")), "the hamlet's road to the lane")
        #expect(!Self.covers(contour, Self.midpoint(s, "e", "f")), "the hamlet")
    }

    /// A matrix has no cell where a route would pass through the lane, and a cell where one
    /// ends or begins in it.
    @Test(arguments: ["now", "departAt", "arriveBy"])
    func aMatrixHasNoCellThroughTheLane(timing: String) throws {
        let s = try Self.hamlet()
        var request = MatrixRequest(origins: [s.coordinate("a"), s.coordinate("f")], destinations: [s.coordinate("f"), s.coordinate("1"), s.coordinate("c")])
        request.timing = try #require(Self.timings.first { $0.0 == timing }).1
        let cells = try #require(s.planning.matrix(request)).cells
        #expect(cells[0][0] == .noRoute, "street to hamlet: \(cells[0][0])")
        if case .route = cells[0][1] {} else { Issue.record("street to lane: \(cells[0][1])") }
        if case .route = cells[0][2] {} else { Issue.record("along the street: \(cells[0][2])") }
        if case .route = cells[1][0] {} else { Issue.record("within the hamlet: \(cells[1][0])") }
        #expect(cells[1][2] == .noRoute, "hamlet to street: \(cells[1][2])")
    }

    /// x→y: straight through a private street (400 m) or around it (1.2 km): a matrix's cell is
    /// the way around, as the route is.
    @Test(arguments: ["now", "departAt", "arriveBy"])
    func aMatrixCellGoesAroundAPrivateStreet(timing: String) throws {
        let s = try Scenario(RestrictedAccessTests.shortcut, ways: RestrictedAccessTests.shortcutWays)
        var request = MatrixRequest(origins: [s.coordinate("x")], destinations: [s.coordinate("y")])
        request.timing = try #require(Self.timings.first { $0.0 == timing }).1
        let cell = try #require(s.planning.matrix(request)).cells[0][0]
        guard case .route(_, let meters, _, _) = cell else { Issue.record("\(cell)"); return }
        #expect(meters > 1300, "\(meters) m: through the private street")
    }
}

