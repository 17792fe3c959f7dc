import Testing
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing
import GeoCore

/// `TimeDependentRouting` (A* with band potentials, the week's taking over where a route outlasts
/// its band, live bounds) against plain time-dependent Dijkstra, on random networks with random weekly
/// profiles, live speeds (slower and faster than history) and closures.
@Suite struct TimeDependentRoutingOracleTests {
    struct Setup {
        let graph: RoadGraph
        let table: TravelTimeTable
        let potentials: TimeDependentPotentials
        let routing: TimeDependentRouting
    }

    static func setup(seed: UInt64, now: Double, bands: Int = 3, stepProfiles: Bool = false) throws -> Setup {
        let block = RandomNetwork.block(seed: seed, width: 9, height: 9)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        var table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now)
        if stepProfiles {
            // Half the arcs crawl (4×) on weekdays 07:00–10:00 and run free otherwise, the rest
            // always run free: bounds over those hours are far above the times just after them.
            var rng = SplitMix64(seed: seed)
            let flat = [UInt16](repeating: UInt16(TravelTimeTable.factorScale), count: TravelTimeTable.slotsPerWeek)
            let step = (0..<TravelTimeTable.slotsPerWeek).map { s in s / 96 < 5 && (28..<40).contains(s % 96) ? UInt16(4 * TravelTimeTable.factorScale) : flat[0] }
            let n = graph.arcCount
            table = TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: (0..<n).map { _ in UInt16(rng.next() % 2) },
                                    profileFactors: flat + step, liveMs: [UInt32](repeating: 0, count: n), liveExpiry: [Double](repeating: 0, count: n),
                                    closedUntil: [Double](repeating: 0, count: n), referenceTime: now, utcOffsetSeconds: 3600)
        }
        let structure = CCHStructure.make(for: graph)
        let potentials = TimeDependentPotentials(graph: graph, structure: structure, table: table, bandCount: bands)
        let live = ([nil] + potentials.bands.indices.map { Optional($0) }).map { potentials.live(graph, structure: structure, table: table, band: $0) }
        let routing = TimeDependentRouting(graph: graph, planner: RoutePlanner(graph: graph, metric: .fastest(graph)),
                                           potentials: potentials, table: table, liveBound: { live[($0 ?? -1) + 1] })
        return Setup(graph: graph, table: table, potentials: potentials, routing: routing)
    }

    static func endpoint(_ graph: RoadGraph, _ rng: inout SplitMix64) -> RouteEndpoint {
        let c = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
        return RouteEndpoint(input: c, snap: graph.snap(c, maxDistanceMeters: 500)!, graph: graph)
    }

    /// Times spread over the week, a third of them a minute or two before a band's hours end (so
    /// that routes leaving then outlast it) or, with `afterStart`, just after they begin (so that
    /// routes arriving then began before it).
    static func departures(_ s: Setup, now: Double, count: Int, afterStart: Bool = false, rng: inout SplitMix64) -> [Double] {
        var edges: [Double] = []
        var t = (now / 900).rounded(.down) * 900
        while t < now + 7 * 86_400 {
            for band in s.potentials.bands {
                let inside = band.band.slots.contains(s.table.slot(at: t)), next = band.band.slots.contains(s.table.slot(at: t + 900))
                if inside && !next && !afterStart { edges.append(t + 900 - 60 - Double(rng.next() % 120)) }
                if !inside && next && afterStart { edges.append(t + 900 + 60 + Double(rng.next() % 120)) }
            }
            t += 900
        }
        return (0..<count).map { i in
            if i % 3 == 0, !edges.isEmpty {
                return edges[Int(rng.next() % UInt64(edges.count))]
            }
            return now - 3600 + Double(rng.next() % (7 * 86_400))
        }
    }

    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func departAtMatchesPlainDijkstra(seed: UInt64) throws {
        let now = 1_796_000_000.0 + Double(seed) * 3_331
        let s = try Self.setup(seed: seed, now: now)
        #expect(!s.potentials.bands.isEmpty, "the band plan found no band on random weekly profiles")
        var rng = SplitMix64(seed: seed)
        let scratch = TimeDependentScratch(capacity: s.graph.arcCount)
        var statistics = TimeDependentRouting.Statistics()
        var compared = 0
        for (q, departure) in Self.departures(s, now: now, count: 60, rng: &rng).enumerated() {
            let waypoints = (0..<(q % 4 == 0 ? 3 : 2)).map { _ in Self.endpoint(s.graph, &rng) }
            let fast = s.routing.departAt(waypoints, departure: departure, scratch: scratch, statistics: &statistics)
            var plain = TimeDependentLegSearch(graph: s.graph, table: s.table, departure: departure, potential: nil, lowerBound: nil)
            let reference = s.routing.planner.route(waypoints, using: &plain)
            #expect(fast.route?.cost == reference.route?.cost, "seed \(seed) query \(q) departing \(departure)")
            if reference.route != nil { compared += 1 }
        }
        #expect(compared >= 40)
        #expect(statistics.searches >= compared)
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func arriveByMatchesPlainSearch(seed: UInt64) throws {
        let now = 1_796_000_000.0 + Double(seed) * 7_777
        #expect(try Self.arriveByAgainstPlainSearch(seed: seed, now: now) { q in q % 4 == 0 ? 3 : 2 } >= 20)
    }

    /// Arrive-by at 50 arrivals through `waypointCount(query)` random points, each against the
    /// plain backward search (`potential: nil`); returns how many had a route.
    static func arriveByAgainstPlainSearch(seed: UInt64, now: Double, afterStart: Bool = false,
                                           waypointCount: (Int) -> Int) throws -> Int {
        let s = try Self.setup(seed: seed, now: now)
        var rng = SplitMix64(seed: seed)
        let scratch = TimeDependentScratch(capacity: s.graph.arcCount)
        var statistics = TimeDependentRouting.Statistics()
        var compared = 0
        for (q, arrival) in Self.departures(s, now: now, count: 50, afterStart: afterStart, rng: &rng).enumerated() {
            let waypoints = (0..<waypointCount(q)).map { _ in Self.endpoint(s.graph, &rng) }
            let fast = s.routing.arriveBy(waypoints, arrival: arrival, scratch: scratch, statistics: &statistics)
            var plain = ArriveBySearch(graph: s.graph, table: s.table, potential: nil, lowerBound: nil)
            let reference = s.routing.planner.routeArrivingBy(waypoints, arrival: arrival, using: &plain)
            #expect(fast.departure.map { ($0 * 1000).rounded() } == reference.departure.map { ($0 * 1000).rounded() },
                    "seed \(seed) query \(q) arriving \(arrival)")
            if reference.departure != nil { compared += 1 }
        }
        return compared
    }

    /// Routes that outlast their band's hours stay exact: past the band's end the week's bounds
    /// take over; without that, the band's potentials could cut the best route off.
    @Test func routesOutlastingTheirBandStayExact() throws {
        let now = 1_796_000_000.0
        let s = try Self.setup(seed: 31, now: now, bands: 1, stepProfiles: true)
        #expect(!s.potentials.bands.isEmpty)
        var rng = SplitMix64(seed: 31)
        let scratch = TimeDependentScratch(capacity: s.graph.arcCount)
        // A first guess of a trip's span that is always too short.
        var routing = s.routing
        routing.spanFromFeasibleRoute = false
        routing.spanFactor = 0
        routing.spanMargin = 1
        var forward = TimeDependentRouting.Statistics(), backward = TimeDependentRouting.Statistics()
        var compared = 0
        for departure in Self.departures(s, now: now, count: 120, rng: &rng) {
            let waypoints = [Self.endpoint(s.graph, &rng), Self.endpoint(s.graph, &rng)]
            let fast = routing.departAt(waypoints, departure: departure, scratch: scratch, statistics: &forward)
            var plain = TimeDependentLegSearch(graph: s.graph, table: s.table, departure: departure, potential: nil, lowerBound: nil)
            #expect(fast.route?.cost == routing.planner.route(waypoints, using: &plain).route?.cost)
            if fast.route != nil { compared += 1 }
        }
        for arrival in Self.departures(s, now: now, count: 120, afterStart: true, rng: &rng) {
            let waypoints = [Self.endpoint(s.graph, &rng), Self.endpoint(s.graph, &rng)]
            let latest = routing.arriveBy(waypoints, arrival: arrival, scratch: scratch, statistics: &backward)
            var plainBack = ArriveBySearch(graph: s.graph, table: s.table, potential: nil, lowerBound: nil)
            let reference = routing.planner.routeArrivingBy(waypoints, arrival: arrival, using: &plainBack)
            #expect(latest.departure.map { ($0 * 1000).rounded() } == reference.departure.map { ($0 * 1000).rounded() })
        }
        #expect(compared >= 60)
        #expect(forward.outlasted > 10)
        #expect(backward.outlasted > 10)
    }

    /// Bands hold only over their own hours: a bound over a band is never above an arc's time
    /// entered within it, and is above it somewhere outside (else the band would be useless).
    @Test func bandBoundsHoldWithinTheirHours() throws {
        let now = 1_796_000_000.0
        let s = try Self.setup(seed: 41, now: now)
        var historical = s.table
        historical.useLive = false
        for band in s.potentials.bands {
            let slots = band.band.slots
            var checked = 0, above = 0
            for a in stride(from: 0, to: s.graph.arcCount, by: 7) {
                for t in stride(from: now, to: now + 7 * 86_400, by: 450) {
                    let ms = historical.traverseMs(a, entry: t)
                    let exit = t + ms / 1000
                    // Only traversals that begin and end within the band's hours.
                    var inside = slots.contains(historical.slot(at: t))
                    var u = t
                    while inside && u < exit { u = (u / 900).rounded(.down) * 900 + 900; inside = u > exit || slots.contains(historical.slot(at: u)) }
                    if inside {
                        #expect(Double(band.hierarchy.bound.arcWeight[a]) <= ms + 1e-6, "\(band.band) arc \(a) at \(t)")
                        checked += 1
                    } else if Double(band.hierarchy.bound.arcWeight[a]) > ms {
                        above += 1
                    }
                }
            }
            #expect(checked > 100)
            #expect(above > 0, "\(band.band) is no tighter than the week anywhere")
        }
    }
}
