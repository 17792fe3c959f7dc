import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Traffic
import OSMPBF
@testable import TimeToLeave

/// The drawn map every time-to-leave test drives on:
///
///     a ---- b        ab, bd: primary (the usual way a → d)
///     |      |        ac, cd: secondary (the detour)
///     c ---- d
enum TestMap {
    static let drawing = """
        a       b

        c       d
        """
    /// Monday 2026-11-30 03:00 in Helsinki (UTC+2): no rush hour, so only what a test adds matters.
    static let mondayThreeAM = Date(timeIntervalSince1970: 1_796_000_400)

    static func scenario() throws -> Scenario {
        try Scenario(drawing, gridMeters: 500, ways: ["ab": ["highway": "primary"], "bd": ["highway": "primary"],
                                                      "ac": ["highway": "secondary"], "cd": ["highway": "secondary"]])
    }

    /// 24 hourly speeds: 65 km/h except 7:00–9:59, when ab crawls at 8 km/h (both ways).
    static func rushHourProfile(_ s: Scenario) -> [UInt8] {
        let speeds = (0..<24).map { (7...9).contains($0) ? "8" : "65" }.joined(separator: ",")
        return Array("\(s.osmID("a")),\(s.osmID("b")),\(speeds)\n\(s.osmID("b")),\(s.osmID("a")),\(speeds)\n".utf8)
    }

    static func place(_ s: Scenario, _ c: Character) -> PlaceInput {
        let p = s.coordinate(c)
        return PlaceInput(lat: p.latitude, lon: p.longitude)
    }

    static func request(_ s: Scenario, _ from: Character, _ to: Character, arriveAt: Date, zone: TimeZone,
                        preparation: Double = 0, traffic: Bool = true) -> WatchRequest {
        WatchRequest(origin: place(s, from), destination: place(s, to), arriveAt: RFC3339.format(arriveAt, in: zone),
                     travelMode: "car", routeType: "fastest", preparationTime: preparation, traffic: traffic)
    }

    /// Replay rows setting both directions of a drawn road to `speedKmh` at `offset`.
    static func rows(_ s: Scenario, _ road: String, offset: Double, speedKmh: Double) -> [TrafficReplay.Row] {
        let a = road.first!, b = road.last!
        return [TrafficReplay.Row(offsetSeconds: offset, from: s.osmID(a), to: s.osmID(b), speedKmh: speedKmh),
                TrafficReplay.Row(offsetSeconds: offset, from: s.osmID(b), to: s.osmID(a), speedKmh: speedKmh)]
    }
}

/// A scenario served by a `MapsService` on a test clock, with a watch service on it.
struct Fixture {
    let scenario: Scenario
    let clock: TestClock
    let maps: MapsService
    let watches: WatchService

    init(start: Date = TestMap.mondayThreeAM, storePath: String? = ":memory:", configuration: WatchConfiguration = WatchConfiguration(),
         prepare: (Scenario, String) throws -> Void = { _, _ in }) throws {
        scenario = try TestMap.scenario()
        clock = TestClock(start)
        let s = scenario
        maps = try scenario.service(clock: clock) { state in try prepare(s, state) }
        watches = try WatchService(planning: maps.planning, places: maps.placeLookup, configuration: configuration,
                                   storePath: storePath ?? WatchService.defaultStorePath(stateFolder: maps.stateFolder))
    }

    var zone: TimeZone { maps.timeZone }

    func date(_ text: String?) throws -> Date {
        try #require(text.flatMap { RFC3339.parse($0, defaultTimeZone: zone) })
    }

    /// Creates a → d arriving `minutes` from now.
    func watch(arrivingIn minutes: Double, from: Character = "a", to: Character = "d", preparation: Double = 0,
               traffic: Bool = true) throws(WatchError) -> WatchDocument {
        try watches.create(TestMap.request(scenario, from, to, arriveAt: clock.now.addingTimeInterval(minutes * 60), zone: zone,
                                           preparation: preparation, traffic: traffic))
    }

    /// Moves the clock to `seconds` after `start` and ticks; returns the events the tick made for `id`.
    @discardableResult
    func tick(at date: Date, events id: String) throws -> [WatchDocument] {
        let before = try #require(watches.watch(id)).lastEventId
        clock.set(date)
        watches.tick()
        return try events(id, after: before)
    }

    func events(_ id: String, after: Int) throws -> [WatchDocument] {
        try (watches.events(id, after: after) ?? []).map { try JSONDecoder().decode(WatchDocument.self, from: Data($0.data.utf8)) }
    }

    /// The letters a route passes.
    func nodes(_ route: RouteBody?) -> String { route.map { scenario.nodes($0) } ?? "" }
}
