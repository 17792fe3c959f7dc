import Testing
import GeoCore
import MapsTestSupport
import RoadNetwork

/// Snapping a point onto the road network: the nearest point of a usable road, within a limit,
/// preferring the large connected part of the network as OSRM does.
@Suite("Snapping") struct SnappingTests {
    //  a - - - - b - f    ab, bf, be: the streets (100 m grid, a to b 500 m)
    //    1   2   |        1 is 100 m from ab and cd, 2 is 100 m below ab
    //  c - d     e        cd: a stub cut off from everything (a small piece)
    //      3              3 is 100 m from the stub, 300 m from ab
    static let scenario = try! Scenario("""
        a - - - - b - f
          1   2   |
        c - d     e
            3
        """, ways: ["ab": ["highway": "residential"], "bf": ["highway": "residential"], "be": ["highway": "residential"],
                    "cd": ["highway": "residential"]])

    var graph: RoadGraph { Self.scenario.graphs[.car]! }
    func at(_ c: Character) -> Coordinate { Self.scenario.coordinate(c) }

    @Test func aPointSnapsOntoTheNearestRoadAtTheRightSpot() throws {
        let snap = try #require(graph.snap(at("2"), maxDistanceMeters: 1000))
        #expect(!snap.inSmallComponent)
        #expect(abs(snap.distanceMeters - 100) < 0.5)
        // 2 lies under ab, 300 m from a and 200 m from b.
        let offset = Double(snap.offsetCm) / 100
        #expect(abs(offset - 300) < 0.5 || abs(offset - 200) < 0.5)
        #expect(abs(Geodesy.distanceMeters(snap.point, at("2")) - snap.distanceMeters) < 0.01)
    }

    @Test func theLargePartWinsOverANearerSmallPiece() throws {
        let (nearest, large) = graph.snapCandidates(at("3"), maxDistanceMeters: 1000)
        let n = try #require(nearest), l = try #require(large)
        #expect(n.inSmallComponent)
        #expect(!l.inSmallComponent)
        #expect(n.distanceMeters < l.distanceMeters)
        #expect(graph.snap(at("3"))?.edge == l.edge)
    }

    @Test func excludedEdgesAndTheLimitAreHonoured() throws {
        let first = try #require(graph.snap(at("1")))
        let other = try #require(graph.snap(at("1"), excluding: { $0 == first.edge }))
        #expect(other.edge != first.edge)
        #expect(graph.snap(at("1"), maxDistanceMeters: 50) == nil)
        #expect(graph.snap(Coordinate(latitude: 59.9, longitude: 24.0), maxDistanceMeters: 1000) == nil)
    }
}

/// The frozen graph's structure: arcs per usable direction, their twins and shapes.
@Suite("Road graph") struct RoadGraphTests {
    @Test func arcsTwinsShapesAndNames() throws {
        let s = try Scenario("a - b - c", ways: ["abc": ["highway": "primary", "name": "Mannerheimintie"],
                                               ])
        let g = try #require(s.graphs[.car])
        #expect(g.edgeCount == 1)
        #expect(g.arcCount == 2)
        let forward = ArcID(0), backward = g.twin(of: forward)
        #expect(backward != forward && !backward.isNone)
        #expect(g.twin(of: backward) == forward)
        #expect(g.shape(of: forward) == g.shape(of: backward).reversed())
        #expect(g.shape(of: forward).count == 3)
        #expect(abs(Double(g.lengthCm(of: forward)) / 100 - 400) < 0.5)
        #expect(g.name(of: g.way(of: forward)) == "Mannerheimintie")
        let oneway = try Scenario("a - b", ways: ["ab": ["highway": "primary", "oneway": "yes"]])
        let o = try #require(oneway.graphs[.car])
        #expect(o.arcCount == 1)
        #expect(o.twin(of: ArcID(0)).isNone)
        #expect(try #require(oneway.graphs[.pedestrian]).arcCount == 2)
    }
}
