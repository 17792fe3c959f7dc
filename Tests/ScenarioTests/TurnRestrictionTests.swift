import Testing
import MapsTestSupport
import RoadNetwork

@Suite("Turn restrictions") struct TurnRestrictionTests {
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
    static func scenario(_ restrictions: [Scenario.Restriction]) throws -> Scenario {
        return try Scenario(cross, ways: ["aj": ["highway": "primary"], "bj": ["highway": "primary"],
                                          "cj": ["highway": "primary"], "dj": ["highway": "primary"]],
                            restrictions: restrictions)
    }

    @Test func noLeftTurnIsRespected() throws {
        // From c (south) heading north, d (west) is a left turn.
        let s = try Self.scenario([.init(from: "cj", via: "j", to: "dj", type: "no_left_turn")])
        #expect(s.route("c", "a") == "cja")
        #expect(s.route("c", "b") == "cjb")
        // The detour exists: on to a dead end (a and b are as far), turn there and come back.
        let detour = try #require(s.route("c", "d"), "no route although turning at a or b reaches d")
        #expect(["cjbjd", "cjajd"].contains(detour), "\(detour)")
        #expect(s.route("b", "d") == "bjd")
    }

    @Test func onlyStraightOnForbidsTurns() throws {
        let s = try Self.scenario([.init(from: "cj", via: "j", to: "aj", type: "only_straight_on")])
        #expect(s.route("c", "a") == "cja")
        let toB = s.route("c", "b")
        #expect(toB != "cjb")
        #expect(s.route("d", "b") == "djb")
    }

    @Test func exceptionsExemptBicycles() throws {
        let s = try Self.scenario([.init(from: "cj", via: "j", to: "dj", type: "no_left_turn", tags: ["except": "bicycle"])])
        #expect(s.route("c", "d", mode: .bicycle) == "cjd")
        #expect(s.route("c", "d", mode: .car) != "cjd")
    }

    @Test func pedestriansIgnoreRestrictions() throws {
        let s = try Self.scenario([.init(from: "cj", via: "j", to: "dj", type: "no_left_turn")])
        #expect(s.route("c", "d", mode: .pedestrian) == "cjd")
    }

    @Test func viaWayRestriction() throws {
        // a - b - c
        //     |   |
        //     d - e
        // No turn from ab over bc into ce (a U-shaped move): the car must not go a→b→c→e.
        let s = try Scenario("""
            a b c
              d e
            """, ways: ["ab": ["highway": "primary"], "bc": ["highway": "primary"], "ce": ["highway": "primary"],
                        "bd": ["highway": "primary"], "de": ["highway": "primary"]],
            restrictions: [.init(from: "ab", via: "bc", to: "ce", type: "no_right_turn")])
        #expect(s.route("a", "e") == "abde")
        // The via way itself stays usable from elsewhere.
        #expect(s.route("b", "e") == "bce" || s.route("b", "e") == "bde")
        #expect(s.route("d", "c") == "dec" || s.route("d", "c") == "dbc")
        #expect(s.route("a", "c") == "abc")
        let graph = try #require(s.graphs[.car])
        #expect(graph.arcCount > graph.edgeCount * 2 - 1, "via-way restriction must add arc copies")
    }
}

@Suite("Barriers, U-turns and junction costs") struct JunctionTests {
    @Test func bollardStopsCarsNotBikes() throws {
        let s = try Scenario("a b c", ways: ["abc": ["highway": "residential"]], nodes: ["b": ["barrier": "bollard"]])
        #expect(s.route("a", "c") == nil)
        #expect(s.route("a", "c", mode: .bicycle) == "abc")
        #expect(s.route("a", "c", mode: .pedestrian) == "abc")
    }

    @Test func gatesLetCarsThrough() throws {
        let s = try Scenario("a b c", ways: ["abc": ["highway": "residential"]], nodes: ["b": ["barrier": "gate"]])
        #expect(s.route("a", "c") == "abc")
    }

    @Test func uTurnsOnlyAtDeadEnds() throws {
        //  a - b - c
        //      |
        //      d
        // From the middle of ab heading east (one-way) to a: the car cannot turn around at b
        // (not a dead end); it goes on to the dead end c and comes back.
        let s = try Scenario("""
            a 1 b c
                d
            """, ways: ["abc": ["highway": "residential"], "bd": ["highway": "residential"]])
        let graph = try #require(s.graphs[.car])
        // Every U-turn in the graph is at a dead end (a node of degree 1).
        var degree = [Int](repeating: 0, count: graph.nodeCount)
        for e in 0..<graph.edgeCount {
            degree[graph.edgeTail[e].index] += 1
            degree[graph.edgeHead[e].index] += 1
        }
        for a in 0..<graph.arcCount {
            for t in graph.turns(from: ArcID(a)) where graph.turnTarget[t] == graph.twin(of: ArcID(a)) {
                #expect(degree[graph.head(of: ArcID(a)).index] == 1)
            }
        }
        #expect(s.route("a", "c") == "abc")
        #expect(s.route("c", "d") == "cbd")
    }

    /// At the end of a two-way road where only one-ways lead away (the mouth of a one-way street), no
    /// other traffic comes in, and a car may turn round there, as OSRM lets it: barred from turning
    /// left from c to d, it turns at b (200 m on) rather than at the dead end a (300 m on); b's
    /// one-way loop b–e–f–g only leads back to c.
    @Test func aCarTurnsRoundWhereOnlyOneWaysLeadOn() throws {
        let s = try Scenario("""
                a
                |
                |
            d - j - b - - - e
                |           |
                c - - - - - f
            """, ways: ["aj": ["highway": "residential"], "dj": ["highway": "residential"], "jb": ["highway": "residential"],
                        "cj": ["highway": "residential"], "be": ["highway": "residential", "oneway": "yes"],
                        "ef": ["highway": "residential", "oneway": "yes"], "fc": ["highway": "residential", "oneway": "yes"]],
            restrictions: [.init(from: "cj", via: "j", to: "dj", type: "no_left_turn")])
        #expect(s.route("c", "d") == "cjbjd")
        // Where a two-way road goes on from b, b is a junction like any other: the car turns at a.
        let through = try Scenario("""
                a
                |
                |
            d - j - b - - - e
                |           |
                c - - - - - f
            """, ways: ["aj": ["highway": "residential"], "dj": ["highway": "residential"], "jb": ["highway": "residential"],
                        "cj": ["highway": "residential"], "be": ["highway": "residential"],
                        "ef": ["highway": "residential", "oneway": "yes"], "fc": ["highway": "residential", "oneway": "yes"]],
            restrictions: [.init(from: "cj", via: "j", to: "dj", type: "no_left_turn")])
        #expect(through.route("c", "d") == "cjajd")
    }

    @Test func trafficSignalsCostTime() throws {
        let plain = try Scenario("a b c", ways: ["abc": ["highway": "primary"]])
        let signals = try Scenario("a b c", ways: ["abc": ["highway": "primary"]], nodes: ["b": ["highway": "traffic_signals"]])
        let t0 = try #require(plain.routeResult(["a", "c"])).durationSeconds
        let t1 = try #require(signals.routeResult(["a", "c"])).durationSeconds
        #expect(abs((t1 - t0) - 2) < 0.01)
    }

    @Test func leftTurnsCostMoreThanRightTurns() throws {
        let s = try Scenario("""
              a
            d j b
              c
            """, ways: ["cj": ["highway": "primary"], "jd": ["highway": "primary"], "jb": ["highway": "primary"], "ja": ["highway": "primary"]])
        let left = try #require(s.routeResult(["c", "d"]))
        let right = try #require(s.routeResult(["c", "b"]))
        let straight = try #require(s.routeResult(["c", "a"]))
        #expect(left.durationSeconds > right.durationSeconds)
        #expect(right.durationSeconds > straight.durationSeconds)
    }
}

@Suite("Speeds, ferries, steps and names") struct WayRuleTests {
    @Test func durationFollowsClassSpeed() throws {
        // 300 m of primary at 65 km/h.
        let s = try Scenario("a   b   c   d", gridMeters: 100, ways: ["abcd": ["highway": "primary"]])
        let r = try #require(s.routeResult(["a", "d"]))
        #expect(abs(r.distanceMeters - 600) < 1)
        #expect(abs(r.durationSeconds - 600 / (65 / 3.6)) < 0.1)
    }

    @Test func maxspeedOverridesClass() throws {
        let s = try Scenario("a   b", ways: ["ab": ["highway": "primary", "maxspeed": "30"]])
        let r = try #require(s.routeResult(["a", "b"]))
        #expect(abs(r.durationSeconds - 200 / (24 / 3.6)) < 0.1)
    }

    @Test func ferryUsesTaggedDuration() throws {
        let s = try Scenario("a b       c d", ways: ["ab": ["highway": "primary"], "bc": ["route": "ferry", "duration": "00:10"],
                                                  "cd": ["highway": "primary"]])
        let r = try #require(s.routeResult(["a", "d"]))
        #expect(r.ways == ["ab", "bc", "cd"])
        #expect(r.durationSeconds > 600 && r.durationSeconds < 600 + 30)
    }

    @Test func stepsAreForWalkers() throws {
        let s = try Scenario("""
            a b
            c d
            """, ways: ["ab": ["highway": "steps"], "ac": ["highway": "residential"], "cd": ["highway": "residential"],
                        "db": ["highway": "residential"]])
        #expect(s.route("a", "b", mode: .pedestrian) == "ab")
        #expect(s.route("a", "b", mode: .car) == "acdb")
    }

    @Test func destinationOnlyRoadsAreNotShortcuts() throws {
        // The direct road through e is destination-only; through traffic goes around.
        let s = try Scenario("""
              1     2
            x a  e  b y
              c     d
            """, ways: ["aeb": ["highway": "residential", "access": "destination"], "xacdby": ["highway": "residential"]])
        let through = try #require(s.routeResult(["x", "y"]))
        #expect(through.nodes == "xacdby")
        let toE = try #require(s.routeResult(["x", "e"]))
        #expect(toE.nodes == "xae")
    }

    @Test func namesAndRefsAreKept() throws {
        let s = try Scenario("a b c", ways: ["ab": ["highway": "primary", "name": "Mannerheimintie", "ref": "E12"],
                                           "bc": ["highway": "primary", "name": "Hämeentie"]])
        let r = try #require(s.routeResult(["a", "c"]))
        #expect(r.ways == ["Mannerheimintie", "Hämeentie"])
        let graph = try #require(s.graphs[.car])
        #expect((0..<graph.wayCount).contains { graph.ref(of: WayIndex(UInt32($0))) == "E12" })
    }

    @Test func taxisUseBusOnlyRoads() throws {
        let s = try Scenario("""
            a   b
            c   d
            """, ways: ["ab": ["highway": "service", "access": "no", "psv": "yes"], "ac": ["highway": "residential"],
                        "cd": ["highway": "residential"], "db": ["highway": "residential"]])
        #expect(s.route("a", "b", mode: .car) == "acdb")
        #expect(s.route("a", "b", mode: .taxi) == "ab")
    }

    @Test func multipleWaypointsMakeLegs() throws {
        let s = try Scenario("a b c d", ways: ["abcd": ["highway": "residential"]])
        let r = try #require(s.routeResult(["a", "c", "b"], mode: .car))
        #expect(r.route.legs.count == 2)
        #expect(r.nodes == "acb" || r.nodes == "abcdcb" || r.nodes == "abcb")
    }

    @Test func offRoadPointsSnapOntoTheRoad() throws {
        let s = try Scenario("""
            a   b
              1
            """, ways: ["ab": ["highway": "residential"]])
        let r = try #require(s.routeResult(["1", "b"]))
        #expect(abs(r.distanceMeters - 100) < 1)
        let far = try Scenario("""
            a b



                      9
            """, gridMeters: 500, ways: ["ab": ["highway": "residential"]])
        #expect(far.routeResult(["9", "a"]) == nil)
    }
}
