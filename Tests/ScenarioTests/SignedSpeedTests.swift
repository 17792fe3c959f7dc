import Testing
import MapsTestSupport
import OSMPBF

/// Which tag gives a car its speed, in OSRM car.lua's order: the advisory speed, the limit, then
/// the zone the limit comes from; each driven at 80 %.
@Suite("Signed speeds") struct SignedSpeedTests {
    /// A primary road with a bend signed 15 km/h: 800 m at 12 km/h (240 s) lose to the 1 400 m of
    /// residential streets (about 202 s); without the sign its 65 km/h win.
    @Test func anAdvisorySpeedSlowsTheRoad() throws {
        #expect(try RoundTheBlock.scenario(direct: ["highway": "primary", "maxspeed": "70", "maxspeed:advisory": "15"]).route("a", "b") == "acdb")
        #expect(try RoundTheBlock.scenario(direct: ["highway": "primary", "maxspeed": "70"]).route("a", "b") == "ab")
    }

    /// `source:maxspeed=DE:rural` on roads without a `maxspeed`: 100 km/h, driven at 80 km/h, so the
    /// 1 400 m round (63 s) beat the 800 m residential street (115 s).
    @Test(arguments: ["source:maxspeed", "maxspeed:type"])
    func aZoneGivesTheSpeedWhereNoLimitIsSet(key: String) throws {
        let zoned = Tags([(key: "highway", value: "unclassified"), (key: key, value: "DE:rural")])
        let s = try RoundTheBlock.scenario(direct: ["highway": "residential"], round: zoned)
        let route = try #require(s.routeResult(["a", "b"]))
        #expect(route.nodes == "acdb")
        #expect(abs(route.durationSeconds - 1_400 / (80 / 3.6)) < 1, "\(route.durationSeconds) s")
        // A limit on the way comes first.
        let limited = Tags(zoned.pairs + [(key: "maxspeed", value: "20")])
        #expect(try RoundTheBlock.scenario(direct: ["highway": "residential"], round: limited).route("a", "b") == "ab")
    }
}
