import Foundation
import Testing
import MapsAPI
import MapsTestSupport
@testable import TimeToLeave
@testable import WayfinderKit

/// Time to leave end to end: the SDK creates a watch on a real server whose clock the test
/// moves, follows its Server-Sent Events as an AsyncSequence, uploads slow traffic on the route
/// and sees the departure move, then "time to leave" and expiry, and resumes with Last-Event-ID.
@Suite("Time to leave against a real server", .enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"),
       .timeLimit(.minutes(2)))
struct TimeToLeaveClientTests {
    /// A watch from Monte-Carlo to Fontvieille arriving 40 minutes from the server's now, and
    /// its updates followed in the background.
    struct Followed {
        var watch: TimeToLeaveWatch
        var arriveBy: Date
        var updates = Recorder<TimeToLeaveUpdate>()
        var follower: Task<Int, any Error>
    }

    static func follow(_ client: WayfinderClient, clock: TestClock) async throws -> Followed {
        let arriveBy = clock.now.addingTimeInterval(40 * 60)
        let watch = try await client.startTimeToLeave(TimeToLeaveRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille,
                                                                         arriveBy: arriveBy, preparationSeconds: 120))
        let updates = Recorder<TimeToLeaveUpdate>()
        let follower = Task {
            for try await update in client.timeToLeaveUpdates(watchID: watch.id) { updates.add(update) }
            return updates.all.count
        }
        #expect(await eventually(within: 20) { updates.all.count == 1 }, "the stream did not start with the current plan")
        #expect(updates.all.first?.kind == .plan)
        #expect(updates.all.first?.watch.id == watch.id)
        return Followed(watch: watch, arriveBy: arriveBy, updates: updates, follower: follower)
    }

    static func summary(_ updates: [TimeToLeaveUpdate]) -> String {
        "\(updates.map { "\($0.kind): \($0.message) (leave \($0.watch.departureTime.map { "\($0)" } ?? "-"), now \($0.watch.serverTime))" })"
    }

    @Test("a watch: its plan, the moment to leave, expiry ending the sequence, and resuming after an event")
    func watchUntilExpiry() async throws {
        let server = try #require(await LoopbackMapsServer.shared(.timed), "the Monaco server did not start")
        let clock = try #require(LoopbackMapsServer.clock(.timed))
        let client = server.client
        let f = try await Self.follow(client, clock: clock)
        let watch = f.watch
        #expect(watch.status == .waiting)
        let departure = try #require(watch.departureTime)
        let travel = try #require(watch.travelTimeSeconds)
        let arrival = try #require(watch.predictedArrival)
        #expect(arrival <= f.arriveBy)
        #expect(abs(departure.addingTimeInterval(Double(travel)).timeIntervalSince(arrival)) <= 1)
        #expect(watch.prepareBy == departure.addingTimeInterval(-120))
        #expect(abs(watch.arriveBy.timeIntervalSince(f.arriveBy)) < 1)
        #expect(watch.travelMode == .car && watch.routeType == .fastest && watch.traffic)
        #expect(watch.route?.polyline.isEmpty == false)
        #expect(watch.secondsUntilDeparture.map { abs($0 - Int(departure.timeIntervalSince(clock.now))) <= 1 } == true)
        #expect(try await client.timeToLeaveWatch(id: watch.id).id == watch.id)
        #expect(try await client.timeToLeaveWatches().contains { $0.id == watch.id })

        // The moment to leave comes, then the arrival time passes: the sequence ends by itself.
        clock.set(departure)
        server.app.timeToLeave.tick()
        #expect(await eventually(within: 20) { f.updates.all.contains { $0.kind == .timeToLeave } }, "\(Self.summary(f.updates.all))")
        let leave = f.updates.all.first { $0.kind == .timeToLeave }
        #expect(leave?.message == "Time's UP! Time to leave!")
        #expect(leave?.watch.status == .leaveNow)
        clock.set(f.arriveBy.addingTimeInterval(1))
        server.app.timeToLeave.tick()
        let count = try await withDeadline(20) { try await f.follower.value }
        #expect(f.updates.all.last?.kind == .expired, "\(Self.summary(f.updates.all))")
        #expect(count == f.updates.all.count)
        let ids = f.updates.all.compactMap { Int($0.eventID) }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)

        // Resuming after the first event replays the rest, and the finished stream then ends.
        let replayed = try await withDeadline(20) {
            var kinds: [TimeToLeaveUpdate.Kind] = []
            for try await update in client.timeToLeaveUpdates(watchID: watch.id, resumingAfter: f.updates.all[0].eventID) { kinds.append(update.kind) }
            return kinds
        }
        #expect(replayed == f.updates.all.dropFirst().map(\.kind))

        try await client.stopTimeToLeave(id: watch.id)
        await #expect(throws: WayfinderError.notFound("no watch \(watch.id); it may have expired or been deleted")) {
            try await client.timeToLeaveWatch(id: watch.id)
        }
    }

    @Test("slow live traffic on the route moves the departure, in the seed's words")
    func trafficChange() async throws {
        let server = try #require(await LoopbackMapsServer.shared(.timedTraffic), "the Monaco server did not start")
        let clock = try #require(LoopbackMapsServer.clock(.timedTraffic))
        let client = server.client
        let f = try await Self.follow(client, clock: clock)
        let departure = try #require(f.watch.departureTime)

        // Live traffic crawls on the watched route (an operator's upload): the next re-plan leaves earlier.
        let route = try #require(f.watch.route)
        let segments = try await roadSegments(of: route, server: server.url)
        _ = try await client.uploadTrafficSpeeds(segments.map { SegmentSpeed(from: $0.fromNodeID, to: $0.toNodeID, speedKmh: 15) },
                                                 expiresAfter: 3600)
        clock.advance(by: 61)
        server.app.timeToLeave.tick()
        #expect(await eventually(within: 20) { f.updates.all.count >= 2 }, "no event after the traffic change")
        let change = try #require(f.updates.all.dropFirst().first)
        #expect(change.kind == .trafficChange, "\(Self.summary(f.updates.all))")
        let moved = change.departureChangeSeconds ?? 0
        #expect(moved >= 30)
        #expect(change.message == "Route recalculated due to change in traffic: \(moved) sec")
        #expect(change.friendlyMessage.hasPrefix("Leave "))
        #expect(change.previousDepartureTime.map { abs($0.timeIntervalSince(departure)) <= 1 } == true)
        let newDeparture = try #require(change.watch.departureTime)
        #expect(abs(departure.timeIntervalSince(newDeparture) - Double(moved)) <= 1)
        #expect((change.watch.trafficDelaySeconds ?? 0) > 0)

        // Stopping the watch ends the sequence (the server closes the stream; the reconnection
        // finds the watch gone).
        try await client.stopTimeToLeave(id: f.watch.id)
        let count = try await withDeadline(30) { try await f.follower.value }
        #expect(count == f.updates.all.count)
    }

    @Test("an arrival no route can meet is refused with the seed's message")
    func impossibleArrival() async throws {
        let client = try #require(await LoopbackMapsServer.shared(.monaco)).client
        let error = await #expect(throws: WayfinderError.self) {
            try await client.startTimeToLeave(TimeToLeaveRequest(from: Monaco.monteCarlo, to: Monaco.fontvieille,
                                                                 arriveBy: Date().addingTimeInterval(30)))
        }
        guard case .noRoute(let message)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.hasPrefix("No routes found satisfying requested time. Please choose different arrival time and try again. ("))
        #expect(message.contains("leaving now arrives at"), "the server's detail is kept: \(message)")
    }

    @Test func placesByNameAreResolved() async throws {
        let client = try #require(await LoopbackMapsServer.shared(.monaco)).client
        var request = TimeToLeaveRequest(from: .named("Place du Casino"), to: .coordinate(Monaco.fontvieille),
                                         arriveBy: Date().addingTimeInterval(3600))
        request.travelMode = .pedestrian
        let watch = try await client.startTimeToLeave(request)
        #expect(watch.origin.query == "Place du Casino")
        #expect(watch.origin.name?.isEmpty == false)
        #expect(watch.travelMode == .pedestrian)
        try await client.stopTimeToLeave(id: watch.id)
    }

    @Test func unknownWatchesAreNotFound() async throws {
        let client = try #require(await LoopbackMapsServer.shared(.monaco)).client
        await #expect(throws: WayfinderError.self) { try await client.timeToLeaveWatch(id: "w-none") }
        await #expect(throws: WayfinderError.notFound("no watch w-none; it may have expired or been deleted")) {
            try await withDeadline(10) { [client] in for try await _ in client.timeToLeaveUpdates(watchID: "w-none") {} }
        }
    }
}

/// The SDK's mirror of the watch documents against the server's own types, every field filled:
/// they cannot drift apart silently.
@Suite("Time-to-leave wire types match the server's")
struct TimeToLeaveWireTests {
    static func route() -> RouteBody {
        let summary = RouteSummary(lengthInMeters: 2400, travelTimeInSeconds: 300, trafficDelayInSeconds: 20, trafficLengthInMeters: 300,
                                   departureTime: "2026-12-01T08:00:00+01:00", arrivalTime: "2026-12-01T08:05:00+01:00")
        return RouteBody(summary: summary, legs: [RouteLegBody(summary: summary, points: [LatLon(latitude: 43.74, longitude: 7.42),
                                                                                          LatLon(latitude: 43.73, longitude: 7.41)])],
                         sections: [RouteSection(startPointIndex: 0, endPointIndex: 1, sectionType: "TRAVEL_MODE", travelMode: "car")])
    }

    @Test func aServerDocumentDecodesWithEveryField() throws {
        let document = WatchDocument(
            id: "w1", status: "late", now: "2026-12-01T07:50:00+01:00", createdAt: "2026-12-01T07:00:00+01:00",
            origin: WatchPlace(lat: 43.74, lon: 7.42, name: "Casino", query: "casino"), destination: WatchPlace(lat: 43.73, lon: 7.41),
            waypoints: [WatchPlace(lat: 43.735, lon: 7.415)], arriveAt: "2026-12-01T08:05:00+01:00", travelMode: "taxi", routeType: "eco",
            avoid: ["tollRoads"], preparationTime: 600, traffic: false, departureTime: "2026-12-01T08:00:00+01:00",
            prepareBy: "2026-12-01T07:50:00+01:00", arrivalTime: "2026-12-01T08:05:00+01:00", secondsUntilDeparture: 600,
            secondsUntilPrepareBy: 0, travelTimeInSeconds: 300, noTrafficTravelTimeInSeconds: 250, historicTrafficTravelTimeInSeconds: 280,
            trafficDelayInSeconds: 20, lengthInMeters: 2400, lateBySeconds: 90, route: Self.route(),
            betterRoute: RouteOffer(departureTime: "2026-12-01T08:01:00+01:00", arrivalTime: "2026-12-01T08:05:00+01:00",
                                    travelTimeInSeconds: 240, trafficDelayInSeconds: 0, lengthInMeters: 2600, gainSeconds: 60,
                                    message: "Another route lets you leave 1 min later", route: Self.route()),
            lastPlannedAt: "2026-12-01T07:49:00+01:00", nextPlanAt: "2026-12-01T07:50:00+01:00", planCount: 3, replanIntervalSeconds: 60,
            thresholdSeconds: 30, lastError: "none", lastEventId: 4,
            event: WatchEvent(id: 4, type: "late", at: "2026-12-01T07:50:00+01:00", message: "m", friendlyMessage: "f",
                              departureChangeSeconds: -45, previousDepartureTime: "2026-12-01T07:59:15+01:00", lateBySeconds: 90, routeChanged: true))
        let data = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
        let update = try TimeToLeaveUpdate(WayfinderKit.ServerSentEvent(type: "late", data: data, lastEventID: "4"))
        let w = update.watch
        #expect(update.kind == .late && update.eventID == "4" && update.message == "m" && update.friendlyMessage == "f")
        #expect(update.departureChangeSeconds == -45 && update.lateBySeconds == 90 && update.routeChanged)
        #expect(update.previousDepartureTime == RFC3339.parse("2026-12-01T07:59:15+01:00", defaultTimeZone: .current))
        #expect(w.id == "w1" && w.status == .late && w.lateBySeconds == 90)
        #expect(w.origin == TimeToLeaveWatch.ResolvedLocation(coordinate: Coordinate(latitude: 43.74, longitude: 7.42), name: "Casino", query: "casino"))
        #expect(w.waypoints.count == 1 && w.travelMode == .taxi && w.routeType == .eco && !w.traffic && w.preparationSeconds == 600)
        #expect(w.travelTimeSeconds == 300 && w.noTrafficTravelTimeSeconds == 250 && w.historicTrafficTravelTimeSeconds == 280)
        #expect(w.trafficDelaySeconds == 20 && w.distanceMeters == 2400 && w.lastEventID == 4 && w.lastError == "none")
        #expect(w.secondsUntilDeparture == 600)
        #expect(w.betterRoute?.gainSeconds == 60 && w.betterRoute?.route.distanceMeters == 2400)
        #expect(w.route?.polyline.count == 2)
        #expect(w.replanIntervalSeconds == 60 && w.thresholdSeconds == 30 && w.nextPlanAt != nil && w.lastPlannedAt != nil)
    }

    @Test func theSDKRequestDecodesOnTheServer() throws {
        var request = TimeToLeaveRequest(from: .named("Kamppi"), to: .coordinate(Coordinate(latitude: 60.165, longitude: 24.938)),
                                         arriveBy: Date(timeIntervalSince1970: 1_796_000_400), preparationSeconds: 600)
        request.waypoints = [.coordinate(Coordinate(latitude: 60.17, longitude: 24.94))]
        request.travelMode = .bicycle
        request.routeType = .shortest
        request.avoid = [.ferries, .tollRoads]
        request.traffic = false
        let server = try JSONDecoder().decode(WatchRequest.self, from: JSONEncoder().encode(request.wire))
        #expect(server.origin == PlaceInput(query: "Kamppi"))
        #expect(server.destination == PlaceInput(lat: 60.165, lon: 24.938))
        #expect(server.waypoints == [PlaceInput(lat: 60.17, lon: 24.94)])
        #expect(RFC3339.parse(server.arriveAt, defaultTimeZone: .current) == request.arriveBy)
        #expect(server.travelMode == "bicycle" && server.routeType == "shortest" && server.avoid == ["ferries", "tollRoads"])
        #expect(server.preparationTime == 600 && server.traffic == false)
    }
}
