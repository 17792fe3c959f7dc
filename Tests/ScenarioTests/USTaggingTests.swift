import Testing
import MapsTestSupport
import OSMPBF

/// Tagging as it is found on US extracts: speed limits in mph, ways imported from TIGER, ramps
/// mapped as `*_link`, one-ways drawn against their direction and `junction=circular`.
@Suite("US-style tagging") struct USTaggingTests {
    /// 45 mph is 72.4 km/h, driven at 80 % (as car.lua does): 1 400 m round in about 87 s, quicker than
    /// the 800 m straight residential road at 25 km/h (115 s). Read as 45 km/h the way round would
    /// take 140 s and lose.
    @Test func anMphLimitDecidesTheRoute() throws {
        let fast: Tags = ["highway": "residential", "maxspeed": "45 mph"]
        let s = try RoundTheBlock.scenario(direct: ["highway": "residential"], round: fast)
        let route = try #require(s.routeResult(["a", "b"]))
        #expect(route.nodes == "acdb")
        #expect(abs(route.durationSeconds - 1_400 / (45 * 1.609344 * 0.8 / 3.6)) < 1, "\(route.durationSeconds) s")
        let metric = try RoundTheBlock.scenario(direct: ["highway": "residential"], round: ["highway": "residential", "maxspeed": "45"])
        #expect(metric.route("a", "b") == "ab")
    }

    /// TIGER's tags (`tiger:cfcc=A11` is its class of a limited-access primary road) classify
    /// nothing: the way is the residential street its `highway` says, at 25 km/h (115 s), so the
    /// secondary road round (1 400 m at 55 km/h, about 92 s) is quicker.
    @Test func tigerTagsChangeNothing() throws {
        let tiger: Tags = ["highway": "residential", "tiger:cfcc": "A11", "tiger:county": "Alameda, CA",
                           "tiger:reviewed": "no", "tiger:name_base": "Main", "tiger:name_type": "St", "tiger:zip_left": "94501"]
        let secondary: Tags = ["highway": "secondary"]
        #expect(try RoundTheBlock.scenario(direct: tiger, round: secondary).route("a", "b") == "acdb")
        let line = "a - - - - - - - b"
        let imported = try #require(try Scenario(line, ways: ["ab": tiger]).routeResult(["a", "b"]))
        let plain = try #require(try Scenario(line, ways: ["ab": ["highway": "residential"]]).routeResult(["a", "b"]))
        #expect(abs(imported.durationSeconds - plain.durationSeconds) < 0.01, "\(imported.durationSeconds) s against \(plain.durationSeconds) s")
        #expect(abs(imported.durationSeconds - 800 / (25 / 3.6)) < 0.5)
    }

    /// A ramp is driven at its link speed (car.lua: motorway_link 45, trunk_link 40, primary_link
    /// 30 km/h) and only the way it is mapped: back from b a car goes round by the streets.
    @Test(arguments: [("motorway_link", 45.0), ("trunk_link", 40), ("primary_link", 30)] as [(String, Double)])
    func aRampIsDrivenAtItsSpeedOneWayAsMapped(highway: String, kmh: Double) throws {
        let s = try RoundTheBlock.scenario(direct: ["highway": highway, "oneway": "yes"])
        let up = try #require(s.routeResult(["a", "b"]))
        #expect(up.nodes == "ab")
        #expect(abs(up.durationSeconds - 800 / (kmh / 3.6)) < 0.5, "\(up.durationSeconds) s")
        #expect(s.route("b", "a") == "bdca")
        let twoWay = try RoundTheBlock.scenario(direct: ["highway": highway, "oneway": "no"])
        #expect(twoWay.route("b", "a") == "ba")
    }

    /// `oneway=-1`: the way is driven only against the direction it is drawn in.
    @Test func aReversedOnewayIsDrivenAgainstItsDrawing() throws {
        let s = try RoundTheBlock.scenario(direct: ["highway": "residential", "oneway": "-1"])
        #expect(s.route("b", "a") == "ba")
        #expect(s.route("a", "b") == "acdb")
    }

    /// `junction=circular` (a traffic circle that is not a roundabout by priority) is one-way in the
    /// drawn direction like `junction=roundabout`, unless `oneway=no` says otherwise.
    static let circle = """
        a - b
        |   |
        d - c
        """

    @Test(arguments: ["circular", "roundabout"])
    func aCircularJunctionIsOneWay(junction: String) throws {
        func ring(_ tags: Tags) throws -> Scenario {
            try Scenario(Self.circle, ways: ["ab": tags, "bc": tags, "cd": tags, "da": tags])
        }
        let s = try ring(["highway": "tertiary", "junction": junction])
        #expect(s.route("a", "b") == "ab")
        #expect(s.route("b", "a") == "bcda")
        let open = try ring(["highway": "tertiary", "junction": junction, "oneway": "no"])
        #expect(open.route("b", "a") == "ba")
    }
}
