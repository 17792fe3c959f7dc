import Testing
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing
import GeoCore

/// Upper-bound pruning (`FeasibleRoute`, `TimeDependentLegSearch+UpperBound`) against plain
/// time-dependent Dijkstra on random networks with random weekly profiles, live speeds and
/// closures: depart-at through several waypoints and with avoidances, arrive-by through several
/// waypoints, the walk's routes themselves, and a search towards a private road.
@Suite struct TimeDependentPruningTests {
    typealias Oracle = TimeDependentRoutingOracleTests

    /// Entry penalties on a few arcs (soft avoidances) and a few forbidden ones.
    static func penalties(_ graph: RoadGraph, seed: UInt64) -> [UInt32] {
        var rng = SplitMix64(seed: seed &+ 5)
        return (0..<graph.arcCount).map { _ in
            switch rng.next() % 25 {
            case 0: return UInt32.max
            case 1, 2: return UInt32(rng.next() % 600_000)
            default: return 0
            }
        }
    }

    @Test(arguments: [51, 52, 53] as [UInt64])
    func departAtWithAvoidancesMatchesPlainDijkstra(seed: UInt64) throws {
        let now = 1_796_000_000.0 + Double(seed) * 4_441
        let s = try Oracle.setup(seed: seed, now: now)
        var rng = SplitMix64(seed: seed)
        let scratch = TimeDependentScratch(capacity: s.graph.arcCount)
        var statistics = TimeDependentRouting.Statistics()
        let penalty = Self.penalties(s.graph, seed: seed)
        var compared = 0
        for (q, departure) in Oracle.departures(s, now: now, count: 60, rng: &rng).enumerated() {
            let waypoints = (0..<(2 + q % 3)).map { _ in Oracle.endpoint(s.graph, &rng) }
            let penalized = q % 2 == 0 ? penalty : []
            let fast = s.routing.departAt(waypoints, departure: departure, penaltyMs: penalized, scratch: scratch, statistics: &statistics)
            var plain = TimeDependentLegSearch(graph: s.graph, table: s.table, departure: departure, potential: nil, lowerBound: nil)
            plain.penaltyMs = penalized
            let reference = s.routing.planner.route(waypoints, using: &plain)
            #expect(fast.route?.cost == reference.route?.cost, "seed \(seed) query \(q) departing \(departure)")
            if reference.route != nil { compared += 1 }
        }
        #expect(compared >= 40)
        // The bound did cut labels: the comparison tests the pruning, not a search without it.
        #expect(statistics.counts.pruned > 0)
    }

    @Test(arguments: [61, 62, 63] as [UInt64])
    func arriveByThroughWaypointsMatchesPlainSearch(seed: UInt64) throws {
        let now = 1_796_000_000.0 + Double(seed) * 5_557
        let compared = try Oracle.arriveByAgainstPlainSearch(seed: seed, now: now, afterStart: seed % 2 == 0) { q in 2 + q % 3 }
        #expect(compared >= 20)
    }

    /// The walk down a potential ends on a target, every step follows a turn, and driven at any
    /// moment it is never faster than the best route (so it bounds it from above).
    @Test func walksAreRoutesNoFasterThanTheBest() throws {
        let now = 1_796_000_000.0
        let s = try Oracle.setup(seed: 71, now: now)
        var rng = SplitMix64(seed: 71)
        var walked = 0
        for departure in Oracle.departures(s, now: now, count: 60, rng: &rng) {
            let from = Oracle.endpoint(s.graph, &rng), to = Oracle.endpoint(s.graph, &rng)
            let week = s.potentials.week
            let walk = week.hierarchy.withPotential(towardsTargets: true) { potential -> FeasibleRoute? in
                potential.prepare(s.graph.potentialStarts(towards: to.positions, bound: week.bound))
                return FeasibleRoute.descend(from: from.positions[0], to: to.positions, graph: s.graph, potential: potential, bound: week.bound)
            }
            guard let walk else { continue }
            #expect(s.graph.arcOriginal[walk.arcs.last!.index] == s.graph.arcOriginal[to.positions[walk.reached].arc.index])
            for (u, v) in zip(walk.arcs, walk.arcs.dropFirst()) { #expect(s.graph.turns(from: u).contains { s.graph.turnTarget[$0] == v }) }
            var plain = TimeDependentLegSearch(graph: s.graph, table: s.table, departure: departure, potential: nil, lowerBound: nil)
            let best = plain.solve(LegProblem(sources: [.init(position: from.positions[0], cost: 0)], targets: [to.positions[walk.reached]]))
            guard let arrival = walk.arrival(leaving: departure, graph: s.graph, table: s.table), let cost = best.paths[0]?.cost else { continue }
            #expect(arrival - departure >= Double(cost) / 1000 - 0.001 * Double(walk.arcs.count))
            walked += 1
        }
        #expect(walked >= 30)
    }

    /// A 12 × 12 grid of public streets, 100 m apart, with a private court of two 40 m segments
    /// off the far corner:
    ///
    ///     o - o - … - o
    ///     |   |       |
    ///     …           …
    ///     o - o - … - o - p - q      (p–q: the court, access=private)
    static func gridWithPrivateCourt() throws -> RoadGraph {
        var b = OSMBlockBuilder()
        let n = 12
        func id(_ x: Int, _ y: Int) -> Int64 { Int64(y * n + x + 1) }
        func add(_ id: Int64, east: Double, south: Double) {
            let c = Coordinate(latitude: 60.2 - south / Geodesy.metersPerDegreeLatitude,
                               longitude: 24.9 + east / (Geodesy.metersPerDegreeLatitude * Geodesy.cosine(ofLatitude: 60.2)))
            b.addNode(id: id, latitudeE7: c.latitudeE7, longitudeE7: c.longitudeE7, tags: Tags())
        }
        for y in 0..<n { for x in 0..<n { add(id(x, y), east: Double(x) * 100, south: Double(y) * 100) } }
        var way: Int64 = 1
        for y in 0..<n {
            for x in 0..<n {
                if x + 1 < n { b.addWay(id: way, refs: [id(x, y), id(x + 1, y)], tags: ["highway": "residential"]); way += 1 }
                if y + 1 < n { b.addWay(id: way, refs: [id(x, y), id(x, y + 1)], tags: ["highway": "residential"]); way += 1 }
            }
        }
        let p = Int64(n * n + 1), q = Int64(n * n + 2)
        add(p, east: Double(n - 1) * 100 + 40, south: Double(n - 1) * 100)
        add(q, east: Double(n - 1) * 100 + 80, south: Double(n - 1) * 100)
        b.addWay(id: way, refs: [id(n - 1, n - 1), p, q], tags: ["highway": "service", "access": "private"])
        return try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([b.block])).first).build()
    }

    /// A route may end on a private court; the charge for entering it is ahead of every open arc,
    /// so the search towards it stays as small as one towards the street beside it, instead of
    /// settling the whole grid before the charge is paid.
    @Test func aSearchTowardsAPrivateCourtStaysSmall() throws {
        let graph = try Self.gridWithPrivateCourt()
        #expect(graph.hasRestrictedAccess)
        let table = TravelTimeTable.freeFlow(graph, referenceTime: 1_796_000_000)
        let potentials = TimeDependentPotentials(graph: graph, structure: CCHStructure.make(for: graph), table: table, bandCount: 0)
        let routing = TimeDependentRouting(graph: graph, planner: RoutePlanner(graph: graph, metric: .fastest(graph)), potentials: potentials,
                                           table: table, liveBound: { _ in nil })
        let scratch = TimeDependentScratch(capacity: graph.arcCount)
        func endpoint(east: Double, south: Double) throws -> RouteEndpoint {
            let c = Coordinate(latitude: 60.2 - south / Geodesy.metersPerDegreeLatitude,
                               longitude: 24.9 + east / (Geodesy.metersPerDegreeLatitude * Geodesy.cosine(ofLatitude: 60.2)))
            return RouteEndpoint(input: c, snap: try #require(graph.snap(c, maxDistanceMeters: 30)), graph: graph)
        }
        let start = try endpoint(east: 800, south: 850), court = try endpoint(east: 1160, south: 1100), street = try endpoint(east: 1050, south: 1100)
        var toCourt = TimeDependentRouting.Statistics(), toStreet = TimeDependentRouting.Statistics()
        let departure = 1_796_000_000.0 + 3600
        let reached = routing.departAt([start, court], departure: departure, scratch: scratch, statistics: &toCourt)
        _ = routing.departAt([start, street], departure: departure, scratch: scratch, statistics: &toStreet)
        var plain = TimeDependentLegSearch(graph: graph, table: table, departure: departure, potential: nil, lowerBound: nil)
        #expect(reached.route?.cost == routing.planner.route([start, court], using: &plain).route?.cost)
        #expect(reached.route != nil)
        #expect(toCourt.counts.settled <= 3 * toStreet.counts.settled + 20,
                "\(toCourt.counts.settled) labels towards the court, \(toStreet.counts.settled) towards the street, of \(graph.arcCount) arcs")
        #expect(4 * toCourt.counts.settled < graph.arcCount)
    }
}
