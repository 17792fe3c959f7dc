import Foundation
import Testing
import MapsTestSupport
import OSMPBF

/// The bicycle profile's rules on drawn maps: where a cyclist rides, where the bicycle is walked,
/// and at what pace. Grid 20 m: `a b` is 20 m apart, one row down is 20 m.
@Suite("Cycling") struct CyclingTests {
    /// A short street `ab` (20 m) and a long way round `b d c a` (180 m).
    static let square = """
        a b



        c d
        """

    /// The same 420 m round: for steps, slow enough to be worth a detour.
    static let tall = "a b" + String(repeating: "\n", count: 10) + "c d"

    static func roundabout(_ ab: Tags, drawing: String = square) throws -> Scenario {
        try Scenario(drawing, gridMeters: 20, ways: ["ab": ab, "bd": ["highway": "residential"], "dc": ["highway": "residential"],
                                                    "ca": ["highway": "residential"]])
    }

    static func walkingPace(_ r: Scenario.Result?, meters: Double) -> Bool {
        guard let r else { return false }
        return abs(r.durationSeconds - meters / (4 / 3.6)) < 3
    }

    @Test("against a one-way without a bicycle exception the bicycle is walked, not ridden round the block")
    func pushAgainstOneway() throws {
        let s = try Self.roundabout(["highway": "residential", "oneway": "yes"])
        #expect(s.route("b", "a", mode: .car) == "bdca")
        let bike = s.routeResult(["b", "a"], mode: .bicycle)
        #expect(bike?.nodes == "ba")
        #expect(Self.walkingPace(bike, meters: 20))
        #expect(bike.map { s.graphs[.bicycle]!.isPushing($0.route.legs[0].arcs[0].arc) } == true)
        // With the one-way it is ridden.
        let ridden = s.routeResult(["a", "b"], mode: .bicycle)
        #expect(ridden.map { s.graphs[.bicycle]!.isPushing($0.route.legs[0].arcs[0].arc) } == false)
    }

    @Test("oneway:bicycle=no and a contraflow lane are ridden both ways", arguments: [
        ["oneway:bicycle": "no"], ["cycleway:left": "lane", "cycleway:left:oneway": "-1"], ["cycleway:both": "opposite_lane"],
    ] as [[String: String]])
    func contraflow(_ extra: [String: String]) throws {
        let s = try Self.roundabout(Tags(extra.merging(["highway": "residential", "oneway": "yes"]) { a, _ in a }))
        let bike = s.routeResult(["b", "a"], mode: .bicycle)
        #expect(bike?.nodes == "ba")
        #expect(bike.map { abs($0.durationSeconds - 20 / (15 / 3.6)) < 2 } == true)
    }

    @Test("a roundabout is not walked the wrong way round")
    func roundaboutNotWalked() throws {
        let s = try Self.roundabout(["highway": "residential", "junction": "roundabout"])
        #expect(s.route("b", "a", mode: .bicycle) == "bdca")
    }

    @Test("bicycle=dismount is walked in both directions")
    func dismount() throws {
        let s = try Self.roundabout(["highway": "residential", "bicycle": "dismount"])
        let bike = s.routeResult(["a", "b"], mode: .bicycle)
        #expect(bike?.nodes == "ab")
        #expect(Self.walkingPace(bike, meters: 20))
    }

    @Test("a pedestrian area (area=yes) is walked along its outline, as a footway is and as OSRM's bicycle.lua does", arguments: [
        "pedestrian", "footway",
    ])
    func pedestrianArea(_ highway: String) throws {
        let s = try Self.roundabout(["highway": highway, "area": "yes"])
        let bike = s.routeResult(["a", "b"], mode: .bicycle)
        #expect(bike?.nodes == "ab")
        #expect(Self.walkingPace(bike, meters: 20))
        #expect(bike.map { s.graphs[.bicycle]!.isPushing($0.route.legs[0].arcs[0].arc) } == true)
        #expect(s.route("a", "b", mode: .car) == "acdb")
    }

    @Test("a trunk road is ridden where it has a cycle track, and not without")
    func laneOnTrunk() throws {
        let with = try Self.roundabout(["highway": "trunk", "cycleway:right": "track"])
        #expect(with.route("a", "b", mode: .bicycle) == "ab")
        let without = try Self.roundabout(["highway": "trunk"])
        #expect(without.route("a", "b", mode: .bicycle) == "acdb")
    }

    @Test("a cycle track serves its side's direction: on a trunk road the right one is ridden with the way, the left one against it")
    func laneSide() throws {
        let right = try Self.roundabout(["highway": "trunk", "cycleway:right": "track"])
        #expect(right.route("a", "b", mode: .bicycle) == "ab")
        #expect(right.route("b", "a", mode: .bicycle) == "bdca")
        let left = try Self.roundabout(["highway": "trunk", "cycleway:left": "track"])
        #expect(left.route("b", "a", mode: .bicycle) == "ba")
        #expect(left.route("a", "b", mode: .bicycle) == "acdb")
    }

    @Test("a lane on a one-way street runs with the traffic unless its oneway says otherwise", arguments: [
        (["cycleway:left": "lane"], false), (["cycleway:right": "track"], false),
        (["cycleway:left": "lane", "cycleway:left:oneway": "-1"], true), (["cycleway:right": "track", "cycleway:right:oneway": "no"], true),
        (["cycleway:both": "lane", "cycleway:both:oneway": "-1"], true), (["cycleway:right": "opposite_track"], true),
    ] as [([String: String], Bool)])
    func laneOnOneway(_ extra: [String: String], ridden: Bool) throws {
        let s = try Self.roundabout(Tags(extra.merging(["highway": "residential", "oneway": "yes"]) { a, _ in a }))
        let bike = s.routeResult(["b", "a"], mode: .bicycle)
        #expect(bike?.nodes == "ba")
        #expect(bike.map { s.graphs[.bicycle]!.isPushing($0.route.legs[0].arcs[0].arc) } == !ridden)
    }

    @Test("a track with a cycle lane is ridden at the lane's pace, 15 km/h, not the track's 12")
    func laneSpeed() throws {
        let s = try Self.roundabout(["highway": "track", "cycleway": "lane"])
        #expect(s.routeResult(["a", "b"], mode: .bicycle).map { abs($0.durationSeconds - 20 / (15 / 3.6)) < 0.3 } == true)
    }

    @Test("bicycle=use_sidepath and cycleway=separate leave the road to the cycleway beside it", arguments: [
        ["bicycle": "use_sidepath"], ["cycleway:both": "separate"],
    ] as [[String: String]])
    func sidepath(_ extra: [String: String]) throws {
        let s = try Self.roundabout(Tags(extra.merging(["highway": "primary"]) { a, _ in a }))
        #expect(s.route("a", "b", mode: .bicycle) == "acdb")
        #expect(s.route("a", "b", mode: .car) == "ab")
    }

    @Test("a cycle street admits bicycles where vehicles are not allowed")
    func cycleStreet() throws {
        let s = try Self.roundabout(["highway": "residential", "vehicle": "no", "bicycle_road": "yes"])
        #expect(s.route("a", "b", mode: .bicycle) == "ab")
        let plain = try Self.roundabout(["highway": "residential", "vehicle": "no"])
        #expect(plain.route("a", "b", mode: .bicycle) == "acdb")
    }

    @Test("steps: a long flight is not carried; a short one is, with a penalty; a ramp has none")
    func steps() throws {
        let long = try Self.roundabout(["highway": "steps", "step_count": "60"], drawing: Self.tall)
        #expect(long.route("a", "b", mode: .bicycle) == "acdb")
        #expect(long.route("a", "b", mode: .pedestrian) == "ab")
        let short = try Self.roundabout(["highway": "steps", "step_count": "8"], drawing: Self.tall)
        let carried = short.routeResult(["a", "b"], mode: .bicycle)
        #expect(carried?.nodes == "ab")
        #expect(carried.map { abs($0.durationSeconds - (20 / (2 / 3.6) + 10)) < 2 } == true)
        let ramp = try Self.roundabout(["highway": "steps", "ramp:bicycle": "yes"], drawing: Self.tall)
        #expect(ramp.routeResult(["a", "b"], mode: .bicycle).map { abs($0.durationSeconds - 20 / (2 / 3.6)) < 2 } == true)
    }

    @Test("surface caps the riding speed (sett 9 km/h, as OSRM's bicycle.lua)")
    func surface() throws {
        let s = try Self.roundabout(["highway": "residential", "surface": "sett"])
        #expect(s.routeResult(["a", "b"], mode: .bicycle).map { abs($0.durationSeconds - 20 / (9 / 3.6)) < 0.3 } == true)
    }

    @Test("smoothness=impassable and very_horrible are not ridden: the bicycle is walked, or not taken where walking is not allowed", arguments: [
        "impassable", "very_horrible",
    ])
    func tooRoughToRide(_ smoothness: String) throws {
        let s = try Self.roundabout(["highway": "residential", "smoothness": smoothness])
        let bike = s.routeResult(["a", "b"], mode: .bicycle)
        #expect(bike?.nodes == "ab")
        #expect(Self.walkingPace(bike, meters: 20))
        #expect(bike.map { s.graphs[.bicycle]!.isPushing($0.route.legs[0].arcs[0].arc) } == true)
        #expect(s.route("a", "b", mode: .car) == (smoothness == "impassable" ? "acdb" : "ab"))
        let noFoot = try Self.roundabout(["highway": "residential", "smoothness": smoothness, "foot": "no"])
        #expect(noFoot.route("a", "b", mode: .bicycle) == (smoothness == "impassable" ? "acdb" : "ab"))
    }

    /// A T junction, 100 m grid: `abc` a street, `bd` a side street south of `b`.
    static let junction = """
        a b c
          d
        """

    @Test("turns cost the square of their angle in right angles, as OSRM's bicycle.lua: a right turn 6/1.4 s, a left turn 6×1.4 s")
    func turnCosts() throws {
        let s = try Scenario(Self.junction, gridMeters: 100, ways: ["abc": ["highway": "residential"], "bd": ["highway": "residential"]])
        let ride = 200 / (15 / 3.6)
        let right = s.routeResult(["a", "d"], mode: .bicycle)
        #expect(right?.nodes == "abd")
        #expect(right.map { abs($0.durationSeconds - ride - 6 / 1.4) < 0.5 } == true)
        let left = s.routeResult(["c", "d"], mode: .bicycle)
        #expect(left?.nodes == "cbd")
        #expect(left.map { abs($0.durationSeconds - ride - 6 * 1.4) < 0.5 } == true)
    }

    @Test("a traffic signal between junctions costs a bicycle bicycle.lua's 2 s, not the 19 s osrm-routed adds there; a signalled crossing of a side path nothing")
    func trafficSignal() throws {
        let plain = try Scenario("a b c", ways: ["abc": ["highway": "residential"]])
        let signal = try Scenario("a b c", ways: ["abc": ["highway": "residential"]], nodes: ["b": ["highway": "traffic_signals"]])
        let crossing = try Scenario("a b c", ways: ["abc": ["highway": "residential"]],
                                    nodes: ["b": ["highway": "crossing", "crossing": "traffic_signals"]])
        let t0 = try #require(plain.routeResult(["a", "c"], mode: .bicycle)).durationSeconds
        let t1 = try #require(signal.routeResult(["a", "c"], mode: .bicycle)).durationSeconds
        let t2 = try #require(crossing.routeResult(["a", "c"], mode: .bicycle)).durationSeconds
        #expect(abs((t1 - t0) - 2) < 0.01)
        #expect(abs(t2 - t0) < 0.01)
    }

    /// A country boundary (admin_level=2) along the way round, naming the extract's country.
    static func country(_ code: String?) -> [(ways: [String], tags: Tags)] {
        code.map { [(ways: ["dc"], tags: ["type": "boundary", "boundary": "administrative", "admin_level": "2", "ISO3166-1": $0])] } ?? []
    }

    @Test("trunk roads are ridden and walked where the country's law opens them (Germany), not where it keeps them to motor vehicles (France) or the country is unknown", arguments: [
        ("DE", true), ("FR", false), (nil, false),
    ] as [(String?, Bool)])
    func trunkByCountry(_ code: String?, open: Bool) throws {
        let s = try Scenario(Self.square, gridMeters: 20, ways: ["ab": ["highway": "trunk"], "bd": ["highway": "residential"],
                                                                 "dc": ["highway": "residential"], "ca": ["highway": "residential"]],
                             relations: Self.country(code))
        #expect(s.route("a", "b", mode: .bicycle) == (open ? "ab" : "acdb"))
        #expect(s.route("a", "b", mode: .pedestrian) == (open ? "ab" : "acdb"))
        #expect(s.route("a", "b", mode: .car) == "ab")
    }

    @Test("a motorroad (Kraftfahrstraße) is neither ridden nor walked, in Germany too")
    func motorroad() throws {
        let s = try Scenario(Self.square, gridMeters: 20, ways: ["ab": ["highway": "trunk", "motorroad": "yes"], "bd": ["highway": "residential"],
                                                                 "dc": ["highway": "residential"], "ca": ["highway": "residential"]],
                             relations: Self.country("DE"))
        #expect(s.route("a", "b", mode: .bicycle) == "acdb")
        #expect(s.route("a", "b", mode: .pedestrian) == "acdb")
    }
}
