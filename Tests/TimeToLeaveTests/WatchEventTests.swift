import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
@testable import TimeToLeave

/// Events driven by the test clock and a traffic replay: exactly the ones the clock and the
/// traffic call for, worded as the seed words them.
@Suite("Watch events", .timeLimit(.minutes(2)))
struct WatchEventTests {
    /// Seconds a → b takes at free flow (to pick replay speeds relative to it).
    static func freeFlowAB(_ f: Fixture) throws -> Double {
        let q = RouteQuery(waypoints: [f.scenario.coordinate("a"), f.scenario.coordinate("b")], mode: .car)
        return Double(try f.maps.calculateRoute(q).routes[0].summary.travelTimeInSeconds)
    }

    @Test func replayedTrafficMovesTheDepartureAndOnlyPastTheThresholdSaysSo() throws {
        let f = try Fixture()
        let t0 = f.clock.now
        // Soon: live speeds count fully for 10 minutes after an update (then fade into history).
        let w = try f.watch(arrivingIn: 11)
        #expect(w.event?.type == "plan")
        #expect(w.lastEventId == 1)
        #expect(f.nodes(w.route) == "abd")
        let planned = try f.date(w.departureTime)
        let ab = try Self.freeFlowAB(f)
        let freeKmh = 2000 / ab * 3.6
        // +90 s: ab 10 s slower (below the threshold); +150 s: a jam; +270 s: free flow again.
        f.watches.play(TrafficReplay(rows: TestMap.rows(f.scenario, "ab", offset: 90, speedKmh: 2000 / (ab + 10) * 3.6)
                                     + TestMap.rows(f.scenario, "ab", offset: 150, speedKmh: 25)
                                     + TestMap.rows(f.scenario, "ab", offset: 270, speedKmh: freeKmh)), start: t0)

        #expect(try f.tick(at: t0 + 30, events: w.id).isEmpty)
        let periodic = try f.tick(at: t0 + 60, events: w.id)
        #expect(periodic.map(\.event?.type) == ["no-change"])
        #expect(periodic.first?.event?.message == "No change in traffic")

        let small = try f.tick(at: t0 + 90, events: w.id)
        #expect(small.map(\.event?.type) == ["no-change"])
        let drifted = try f.date(small.first?.departureTime)
        #expect((5...29).contains(planned.timeIntervalSince(drifted)), "ab 10 s slower moved the departure by \(planned.timeIntervalSince(drifted)) s")

        let jam = try f.tick(at: t0 + 150, events: w.id)
        #expect(jam.map(\.event?.type) == ["traffic-change"])
        let jammed = try #require(jam.first)
        let n = try #require(jammed.event?.departureChangeSeconds)
        let moved = try f.date(jammed.departureTime)
        #expect(n == Int(planned.timeIntervalSince(moved)), "N is the previous announced departure minus the new one")
        #expect(n > 120)
        #expect(jammed.event?.message == "Route recalculated due to change in traffic: \(n) sec")
        #expect(jammed.event?.friendlyMessage.hasPrefix("Leave \(WatchMessages.span(n)) earlier") == true)
        #expect(jammed.event?.previousDepartureTime == w.departureTime)
        // The detour is better now: offered, not taken.
        #expect(f.nodes(jammed.route) == "abd")
        let offer = try #require(jammed.betterRoute)
        #expect(f.nodes(offer.route) == "acd")
        #expect(try f.date(offer.departureTime) > moved)
        #expect(offer.gainSeconds >= 30)

        #expect(try f.tick(at: t0 + 200, events: w.id).isEmpty)
        let cleared = try f.tick(at: t0 + 270, events: w.id)
        #expect(cleared.map(\.event?.type) == ["traffic-change"])
        let back = try #require(cleared.first?.event?.departureChangeSeconds)
        #expect(back < -120)
        #expect(cleared.first?.event?.friendlyMessage.hasPrefix("You can leave \(WatchMessages.span(-back)) later") == true)
        #expect(cleared.first?.betterRoute == nil)
        #expect(abs(try f.date(cleared.first?.departureTime).timeIntervalSince(planned)) < 2)

        #expect(try f.tick(at: t0 + 300, events: w.id).isEmpty)
        #expect(try f.tick(at: t0 + 330, events: w.id).map(\.event?.type) == ["no-change"])
        let all = try f.events(w.id, after: 0).map { $0.event!.type }
        #expect(all == ["plan", "no-change", "no-change", "traffic-change", "traffic-change", "no-change"])
        #expect(try f.events(w.id, after: 0).map { $0.event!.id } == Array(1...6))
    }

    @Test func trafficOffTheRouteDoesNotReplan() throws {
        let f = try Fixture()
        let t0 = f.clock.now
        let w = try f.watch(arrivingIn: 60)
        f.watches.play(TrafficReplay(rows: TestMap.rows(f.scenario, "cd", offset: 20, speedKmh: 5)), start: t0)
        #expect(try f.tick(at: t0 + 20, events: w.id).isEmpty)
        #expect(f.watches.replay?.isFinished == true)
        #expect(try f.tick(at: t0 + 60, events: w.id).map(\.event?.type) == ["no-change"])
    }

    @Test func anOfferedRouteIsTakenOnlyWhenAccepted() throws {
        let f = try Fixture()
        let t0 = f.clock.now
        let w = try f.watch(arrivingIn: 11)
        #expect(throws: WatchError.self) { try f.watches.acceptBetterRoute(w.id) }
        f.watches.play(TrafficReplay(rows: TestMap.rows(f.scenario, "ab", offset: 10, speedKmh: 25)), start: t0)
        let jam = try #require(try f.tick(at: t0 + 10, events: w.id).last)
        #expect(f.nodes(jam.route) == "abd")
        let offer = try #require(jam.betterRoute)
        let accepted = try f.watches.acceptBetterRoute(w.id)
        #expect(accepted.event?.type == "plan")
        #expect(accepted.event?.routeChanged == true)
        #expect(f.nodes(accepted.route) == "acd")
        #expect(accepted.departureTime == offer.departureTime)
        #expect(accepted.betterRoute == nil)
        #expect(try f.tick(at: t0 + 70, events: w.id).map(\.event?.type) == ["no-change"])
        #expect(f.nodes(f.watches.watch(w.id)?.route) == "acd")
    }

    @Test func aClosedRouteIsLeftAndTheEventSaysSo() throws {
        let f = try Fixture()
        let s = f.scenario
        let w = try f.watch(arrivingIn: 60)
        let closure = "\(s.osmID("a")),\(s.osmID("b"))\n\(s.osmID("b")),\(s.osmID("a"))\n"
        _ = try f.maps.applyTraffic(Array(closure.utf8), kind: .closures, expiresInSeconds: 7200, source: "closed.csv")
        let events = try f.tick(at: f.clock.now + 5, events: w.id)
        let changed = try #require(events.last)
        #expect(changed.event?.type == "traffic-change")
        #expect(changed.event?.routeChanged == true)
        #expect(f.nodes(changed.route) == "acd")
    }

    @Test func timeToLeaveThenLateThenExpiredThenGone() throws {
        let f = try Fixture()
        let w = try f.watch(arrivingIn: 20, preparation: 300)
        let arrive = try f.date(w.arriveAt)
        let departure = try f.date(w.departureTime)
        #expect(w.status == "waiting")
        try f.tick(at: departure - 200, events: w.id)
        #expect(f.watches.watch(w.id)?.status == "getReady")
        #expect(try f.tick(at: departure - 1, events: w.id).allSatisfy { $0.event?.type != "time-to-leave" })

        let zero = try f.tick(at: departure, events: w.id)
        #expect(zero.map(\.event?.type) == ["time-to-leave"])
        #expect(zero.first?.event?.message == "Time's UP! Time to leave!")
        #expect(zero.first?.status == "leaveNow")
        #expect(zero.first?.secondsUntilDeparture == 0)

        let late = try f.tick(at: departure + 90, events: w.id)
        #expect(late.map(\.event?.type) == ["late"])
        let by = try #require(late.first?.lateBySeconds)
        #expect((88...92).contains(by), "late by \(by) s after leaving 90 s late")
        #expect(late.first?.status == "late")
        #expect(late.first?.event?.message == "You will arrive \(WatchMessages.span(by)) late")
        #expect(try f.tick(at: departure + 100, events: w.id).isEmpty)
        let later = try f.tick(at: departure + 150, events: w.id)
        #expect(later.map(\.event?.type) == ["late"])
        #expect((148...152).contains(later.first?.lateBySeconds ?? 0))

        let expired = try f.tick(at: arrive, events: w.id)
        #expect(expired.map(\.event?.type) == ["expired"])
        #expect(expired.first?.status == "expired")
        #expect(try f.tick(at: arrive + 600, events: w.id).isEmpty)
        #expect(f.watches.watch(w.id)?.status == "expired")
        f.clock.set(arrive + 3601)
        f.watches.tick()
        #expect(f.watches.watch(w.id) == nil)
        #expect(f.watches.count == 0)
    }

    @Test func trafficCanMakeAWatchLateBeforeItsDeparture() throws {
        let f = try Fixture()
        let t0 = f.clock.now
        let w = try f.watch(arrivingIn: 10)
        var rows: [TrafficReplay.Row] = []
        for road in ["ab", "bd", "ac", "cd"] {
            rows += TestMap.rows(f.scenario, road, offset: 30, speedKmh: 5) + TestMap.rows(f.scenario, road, offset: 60, speedKmh: 100)
        }
        f.watches.play(TrafficReplay(rows: rows), start: t0)
        let events = try f.tick(at: t0 + 30, events: w.id)
        #expect(events.map(\.event?.type) == ["late"])
        let doc = try #require(events.first)
        let arrival = try f.date(doc.arrivalTime)
        #expect(doc.lateBySeconds == Int(arrival.timeIntervalSince(try f.date(w.arriveAt))))
        #expect(try f.date(doc.departureTime) == t0 + 30)
        // Late already: no "time to leave" alarm on top.
        #expect(try f.tick(at: t0 + 31, events: w.id).isEmpty)
        // The jam clears: on time again, and the departure moves later than "now" was.
        let recovered = try f.tick(at: t0 + 60, events: w.id)
        #expect(recovered.map(\.event?.type) == ["traffic-change"])
        let n = try #require(recovered.first?.event?.departureChangeSeconds)
        #expect(n == Int((t0 + 30).timeIntervalSince(try f.date(recovered.first?.departureTime))))
        #expect(n < 0)
        #expect(recovered.first?.lateBySeconds == nil)
        #expect(recovered.first?.status == "waiting")
        #expect(recovered.first?.event?.friendlyMessage.contains("arrive on time again") == true)
    }

    @Test func anArrivalInThePastOrOutOfReachIsRefusedWithTheSeedsMessage() throws {
        let f = try Fixture()
        for minutes in [-5.0, 0, 0.25] {
            do {
                _ = try f.watch(arrivingIn: minutes)
                Issue.record("accepted an arrival \(minutes) min from now")
            } catch {
                #expect(error.code == .noRouteFound)
                #expect(error.message == "No routes found satisfying requested time. Please choose different arrival time and try again.")
                #expect(error.detail != nil)
            }
        }
        do {
            _ = try f.watch(arrivingIn: 1)
        } catch {
            #expect(error.detail?.contains("leaving now arrives at") == true, "\(error)")
        }
        #expect(f.watches.count == 0)
    }

    @Test func messagesAsTheSeedAndPlainly() {
        #expect(WatchMessages.trafficChange(120) == "Route recalculated due to change in traffic: 120 sec")
        #expect(WatchMessages.trafficChange(-45) == "Route recalculated due to change in traffic: -45 sec")
        #expect(WatchMessages.friendlyChange(120) == "Leave 2 min earlier")
        #expect(WatchMessages.friendlyChange(-45) == "You can leave 45 s later")
        #expect(WatchMessages.span(3900) == "1 h 5 min")
        #expect(WatchMessages.span(3600) == "1 h")
    }
}
