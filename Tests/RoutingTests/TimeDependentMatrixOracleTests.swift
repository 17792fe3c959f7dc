import Testing
import MapsTestSupport
import RoadNetwork
import Routing
import GeoCore

/// Time-dependent matrix rows and columns must answer what a plain time-dependent Dijkstra per
/// cell answers, on random networks under random weekly profiles (some flat all week, so both
/// the grid walk and the constant-time arcs are used), live speeds and closures; as plain
/// searches and as A* searches towards the matrix's other ends (`TimeDependentManyToMany.Goal`).
@Suite struct TimeDependentMatrixOracleTests {
    @Test(arguments: [31, 32, 33, 34, 35, 36] as [UInt64], [false, true])
    func rowsAndColumnsMatchPerCellDijkstra(seed: UInt64, withPotential: Bool) throws {
        let graph = try ReachOracleTests.graph(seed: seed, width: 8, height: 8)
        let now = 1_764_000_000.0 + Double(seed) * 7919
        let table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now, flatProfiles: 2)
        var rng = SplitMix64(seed: seed &* 13)
        func position() -> ArcPosition {
            var a = Int(rng.next() % UInt64(graph.arcCount))
            while !graph.arcFlags[a].contains(.largestComponent) { a = (a + 1) % graph.arcCount }
            return ArcPosition(arc: ArcID(a), fraction: Double(rng.next() % 101) / 100)
        }
        let origins = (0..<6).map { _ in [position()] }
        // Two destinations on an origin's own road, ahead of it and behind it.
        var destinations = (0..<7).map { _ in [position()] }
        destinations[0] = [ArcPosition(arc: origins[0][0].arc, fraction: min(1, origins[0][0].fraction + 0.3))]
        destinations[1] = [ArcPosition(arc: origins[1][0].arc, fraction: origins[1][0].fraction / 2)]
        // One memory for every row and column, as a worker thread keeps it.
        var search = TimeDependentManyToMany(graph: graph, table: table, scratch: .init(graph: graph))
        let bounds = LowerBoundHierarchy(bound: .make(graph, table: table, live: true), structure: .make(for: graph))
        let towardsDestinations = withPotential ? TimeDependentManyToMany.Goal(potential: CCHPotential(metric: bounds.hierarchy.cch, towardsTargets: true),
                                                                               bound: bounds.bound, ends: destinations, graph: graph) : nil
        let fromOrigins = withPotential ? TimeDependentManyToMany.Goal(potential: CCHPotential(metric: bounds.hierarchy.cch, towardsTargets: false),
                                                                       bound: bounds.bound, ends: origins, graph: graph) : nil
        var rows = 0, columns = 0
        for q in 0..<3 {
            let departure = now + Double(rng.next() % 86_400)
            let arrival = departure + 1800
            var expected: [[UInt32?]] = []
            for (i, origin) in origins.enumerated() {
                let row = search.row(from: origin, departure: departure, to: destinations, goal: towardsDestinations)
                let reference = ReferenceTimeDependent.legCosts(graph: graph, table: table, departure: departure,
                                                                sources: [.init(position: origin[0], cost: 0)], targets: destinations.map { $0[0] })
                expected.append(reference)
                for j in destinations.indices {
                    #expect((row[j] == nil) == (reference[j] == nil), "seed \(seed) query \(q) cell \(i),\(j) reachability")
                    guard let cell = row[j], let ms = reference[j] else { continue }
                    #expect(abs(cell.seconds * 1000 - Double(ms)) < 30, "seed \(seed) query \(q) cell \(i),\(j): \(cell.seconds * 1000) vs \(ms)")
                    rows += 1
                }
            }
            // Columns: leaving at the latest moment found arrives on time, and no later than any
            // departure known to arrive in time (the row's, when it arrives within 30 minutes).
            for (j, destination) in destinations.enumerated() {
                let column = search.column(to: destination, arrival: arrival, from: origins, goal: fromOrigins)
                for (i, origin) in origins.enumerated() {
                    let inTime = expected[i][j].map { $0 <= 1_800_000 } ?? false
                    guard let cell = column[i] else {
                        #expect(!inTime, "seed \(seed) query \(q) cell \(i),\(j): the row arrives in time, the column finds no departure")
                        continue
                    }
                    if inTime { #expect(cell.seconds <= 1800 + 0.03, "seed \(seed) query \(q) cell \(i),\(j): leaves before \(departure)") }
                    let forward = ReferenceTimeDependent.legCosts(graph: graph, table: table, departure: arrival - cell.seconds,
                                                                  sources: [.init(position: origin[0], cost: 0)], targets: destination)
                    guard let ms = forward[0] else { Issue.record("seed \(seed) query \(q) cell \(i),\(j): no route from the latest departure"); continue }
                    #expect(abs(Double(ms) - cell.seconds * 1000) < 30, "seed \(seed) query \(q) cell \(i),\(j): \(ms) vs \(cell.seconds * 1000)")
                    columns += 1
                }
            }
        }
        #expect(rows > 60 && columns > 40, "seed \(seed): only \(rows) row and \(columns) column cells compared")
    }
}
