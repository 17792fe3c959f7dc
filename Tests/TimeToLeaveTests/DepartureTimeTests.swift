import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Traffic
@testable import TimeToLeave

/// The departure a watch announces is the latest that arrives in time: checked against a
/// brute-force scan of departure times on a map whose speeds change with the hour.
@Suite("Departure time", .timeLimit(.minutes(2)))
struct DepartureTimeTests {
    static func rushHourFixture() throws -> Fixture {
        // Monday 06:00 local: the watch's arrivals fall before, into and after the 7–10 rush hour on ab.
        try Fixture(start: TestMap.mondayThreeAM.addingTimeInterval(3 * 3600)) { s, state in
            try TrafficStore(stateFolder: state).saveHistorical(TestMap.rushHourProfile(s), source: "rush.csv")
        }
    }

    @Test("latest departure matches a scan of departures", arguments: [75.0, 130, 200, 255, 280])
    func latestDepartureMatchesScan(minutesAhead: Double) throws {
        let f = try Self.rushHourFixture()
        let deadline = f.clock.now.addingTimeInterval(minutesAhead * 60)
        let watch = try f.watch(arrivingIn: minutesAhead, preparation: 600)
        let departure = try f.date(watch.departureTime)
        let arrival = try f.date(watch.arrivalTime)
        #expect(arrival <= deadline)
        #expect(try f.date(watch.prepareBy) == departure.addingTimeInterval(-600))
        #expect(watch.travelTimeInSeconds == Int(arrival.timeIntervalSince(departure)))
        #expect((watch.noTrafficTravelTimeInSeconds ?? .max) <= watch.travelTimeInSeconds ?? 0)

        // Brute force: every 15 s over the two hours before the deadline, leave then and see when one arrives.
        let step = 15.0
        var latest: Date?
        var t = deadline.addingTimeInterval(-2 * 3600)
        while t <= deadline {
            var q = RouteQuery(waypoints: [f.scenario.coordinate("a"), f.scenario.coordinate("d")], mode: .car)
            q.departAt = t
            q.representation = .none
            let s = try f.maps.calculateRoute(q).routes[0].summary
            if try f.date(s.arrivalTime) <= deadline { latest = t }
            t += step
        }
        let scanned = try #require(latest)
        #expect(departure >= scanned, "the scan found a later departure \(scanned) than the watch's \(departure)")
        #expect(departure.timeIntervalSince(scanned) < step + 1, "scan \(scanned), watch \(departure)")
    }

    @Test func rushHourMovesTheRouteAndTheDeparture() throws {
        let f = try Self.rushHourFixture()
        let night = try f.watch(arrivingIn: 60)       // 07:00, before the rush
        let rush = try f.watch(arrivingIn: 150)       // 08:30, ab crawls
        #expect(f.nodes(night.route) == "abd")
        #expect(f.nodes(rush.route) == "acd")
        #expect(try f.date(rush.arrivalTime) <= f.clock.now.addingTimeInterval(150 * 60))
    }

    @Test func withoutTrafficLiveDataIsIgnored() throws {
        let f = try Fixture()
        let s = f.scenario
        let jam = "\(s.osmID("a")),\(s.osmID("b")),10\n\(s.osmID("c")),\(s.osmID("d")),10\n"
        _ = try f.maps.applyTraffic(Array(jam.utf8), kind: .speeds, expiresInSeconds: 7200, source: "jam.csv")
        let live = try f.watch(arrivingIn: 60)
        let usual = try f.watch(arrivingIn: 60, traffic: false)
        #expect(try f.date(live.departureTime) < f.date(usual.departureTime))
        #expect(usual.traffic == false)
        #expect((live.travelTimeInSeconds ?? 0) > (usual.travelTimeInSeconds ?? 0))
        let delay = try #require(live.trafficDelayInSeconds)
        let difference = try #require(live.travelTimeInSeconds) - (try #require(usual.travelTimeInSeconds))
        #expect(difference > 60)
        #expect(abs(delay - difference) <= 1, "delay \(delay) s, with traffic minus without \(difference) s")
        #expect(usual.trafficDelayInSeconds == 0)
    }

    @Test func waypointsAndRouteTypesArePlanned() throws {
        let f = try Fixture()
        var request = TestMap.request(f.scenario, "a", "d", arriveAt: f.clock.now.addingTimeInterval(3600), zone: f.zone)
        request.waypoints = [TestMap.place(f.scenario, "c")]
        request.routeType = "shortest"
        let w = try f.watches.create(request)
        #expect(f.nodes(w.route) == "acd")
        #expect(w.routeType == "shortest")
        #expect(w.waypoints.count == 1)
        #expect(try f.date(w.arrivalTime) <= f.clock.now.addingTimeInterval(3600))
    }

    @Test func badRequestsNameTheirField() throws {
        let f = try Fixture()
        var r = TestMap.request(f.scenario, "a", "d", arriveAt: f.clock.now.addingTimeInterval(3600), zone: f.zone)
        for (change, field) in [({ (r: inout WatchRequest) in r.travelMode = "rocket" }, "travelMode"),
                                ({ $0.routeType = "scenic" }, "routeType"),
                                ({ $0.avoid = ["potholes"] }, "avoid"),
                                ({ $0.preparationTime = -5 }, "preparationTime"),
                                ({ $0.arriveAt = "soon" }, "arriveAt"),
                                ({ $0.origin = PlaceInput(lat: 95, lon: 0) }, "origin"),
                                ({ $0.destination = PlaceInput(query: "Kamppi") }, "destination")] as [((inout WatchRequest) -> Void, String)] {
            var bad = r
            change(&bad)
            do {
                _ = try f.watches.create(bad)
                Issue.record("accepted a bad \(field)")
            } catch {
                #expect(error.code == .badInput, "\(field): \(error)")
                #expect(error.apiError.parameter == field, "\(field): \(error)")
            }
        }
        r.arriveAt = RFC3339.format(f.clock.now.addingTimeInterval(8 * 86_400), in: f.zone)
        #expect(throws: WatchError.self) { try f.watches.create(r) }
    }
}
