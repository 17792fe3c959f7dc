import Foundation
import MapsAPI

/// An event to announce, before it is numbered and the watch is rendered into it.
struct Announcement: Sendable {
    var type: WatchEventType
    var message: String
    var friendly: String
    var change: Int?
    var previous: Double?
    var lateBy: Int?
    var routeChanged: Bool?

    init(_ type: WatchEventType, message: String, friendly: String, change: Int? = nil, previous: Double? = nil,
         lateBy: Int? = nil, routeChanged: Bool? = nil) {
        self.type = type
        self.message = message
        self.friendly = friendly
        self.change = change
        self.previous = previous
        self.lateBy = lateBy
        self.routeChanged = routeChanged
    }
}

/// How a watch changes, as functions of its record, a plan and the time: no store, no clock, no
/// streams. `WatchService` numbers what they announce and delivers it.
enum WatchTransitions {
    /// A new watch's first plan.
    static func created(_ r: WatchRecord, zone: TimeZone) -> Announcement {
        Announcement(.plan, message: "Leave at \(clock(r.plan?.departure ?? 0, zone)) to arrive by \(clock(r.spec.arriveAt, zone))",
                     friendly: planSentence(r, zone: zone))
    }

    /// The offered route taken as the watched one.
    static func accept(_ r: inout WatchRecord, offer: OfferState, lateBy late: Int, now: Double, zone: TimeZone) -> Announcement {
        r.plan = offer.plan
        r.offer = nil
        r.lateBySeconds = late > 0 ? late : nil
        r.announcedLateBy = r.lateBySeconds
        r.announcedDeparture = offer.plan.departure
        if offer.plan.departure > now { r.timeToLeaveAnnounced = false }
        return Announcement(.plan, message: "Switched to the offered route", friendly: planSentence(r, zone: zone), routeChanged: true)
    }

    /// A re-plan applied to a record: `traffic-change` when the departure moved by at least the
    /// threshold since it was last announced (or the route changed, or the watch is on time again),
    /// `late` when the arrival cannot be met, otherwise `no-change`; nothing when the re-plan failed
    /// (the previous plan stands, and `lastError` says why).
    static func replanned(_ r: inout WatchRecord, _ evaluation: WatchPlanner.Evaluation, now: Double, zone: TimeZone,
                          configuration: WatchConfiguration) -> Announcement? {
        r.lastPlannedAt = now
        r.nextPlanAt = now + configuration.replanIntervalSeconds
        r.planCount += 1
        let threshold = configuration.thresholdSeconds
        switch evaluation {
        case .failed(let error):
            r.lastError = error.message
            return nil
        case .onTime(let plan, let offer, let routeChanged):
            r.lastError = nil
            let wasLate = r.lateBySeconds != nil
            r.plan = plan
            r.offer = offer
            r.lateBySeconds = nil
            r.announcedLateBy = nil
            let previous = r.announcedDeparture ?? plan.departure
            // The seed's N: previous departure minus the new one.
            let n = Int((previous - plan.departure).rounded())
            let offerNote = offer.map { ". Another route lets you leave \(WatchMessages.span($0.gainSeconds)) later" } ?? ""
            if Double(abs(n)) >= threshold || routeChanged || wasLate {
                r.announcedDeparture = plan.departure
                if plan.departure > now { r.timeToLeaveAnnounced = false }
                let at = clock(plan.departure, zone)
                var friendly = n == 0 ? "Leave at \(at)" : WatchMessages.friendlyChange(n) + ": leave at \(at)"
                if routeChanged { friendly += " on a new route (the watched one can no longer be driven as planned)" }
                if wasLate { friendly += "; you can arrive on time again" }
                return Announcement(.trafficChange, message: WatchMessages.trafficChange(n), friendly: friendly + offerNote,
                                    change: n, previous: previous, routeChanged: routeChanged ? true : nil)
            }
            return Announcement(.noChange, message: "No change in traffic", friendly: "Still leave at \(clock(plan.departure, zone))" + offerNote)
        case .late(let plan, let lateBy, let offer, let routeChanged):
            r.lastError = nil
            r.plan = plan
            r.offer = offer
            r.lateBySeconds = lateBy
            let offerNote = offer.map { ". Another route arrives \(WatchMessages.span($0.gainSeconds)) earlier" } ?? ""
            if r.announcedLateBy.map({ Double(abs(lateBy - $0)) >= threshold }) ?? true || routeChanged {
                r.announcedLateBy = lateBy
                // What the client was last told to do is leave now: a recovery is measured from here.
                r.announcedDeparture = plan.departure
                return Announcement(.late, message: "You will arrive \(WatchMessages.span(lateBy)) late",
                                    friendly: "Leaving now arrives at \(clock(plan.arrival, zone)), \(WatchMessages.span(lateBy)) after "
                                        + "\(clock(r.spec.arriveAt, zone))" + offerNote,
                                    lateBy: lateBy, routeChanged: routeChanged ? true : nil)
            }
            return Announcement(.noChange, message: "No change in traffic",
                                friendly: "Still \(WatchMessages.span(lateBy)) late if you leave now" + offerNote, lateBy: lateBy)
        }
    }

    /// What the clock alone does: the arrival time passing ends the watch; the departure time
    /// coming announces time to leave (once, unless a re-plan moves it later again).
    static func clockTicked(_ r: inout WatchRecord, now: Double, zone: TimeZone) -> Announcement? {
        if now >= r.spec.arriveAt {
            r.expired = true
            r.offer = nil
            return Announcement(.expired, message: "The arrival time has passed",
                                friendly: "It is past \(clock(r.spec.arriveAt, zone)); this watch has ended")
        }
        if let plan = r.plan, r.lateBySeconds == nil, !r.timeToLeaveAnnounced, now >= plan.departure {
            r.timeToLeaveAnnounced = true
            return Announcement(.timeToLeave, message: WatchMessages.timeToLeave,
                                friendly: "Leave now to arrive by \(clock(r.spec.arriveAt, zone))")
        }
        return nil
    }

    /// "Get ready at 07:54, leave at 08:04 to arrive by 08:30 (25 min on the road)".
    static func planSentence(_ r: WatchRecord, zone: TimeZone) -> String {
        guard let plan = r.plan else { return "" }
        var s = ""
        if r.spec.preparationSeconds > 0 {
            s += "Get ready at \(clock(plan.departure - Double(r.spec.preparationSeconds), zone)), leave at "
        } else {
            s += "Leave at "
        }
        s += "\(clock(plan.departure, zone)) to arrive by \(clock(r.spec.arriveAt, zone))"
        return s + " (\(WatchMessages.span(plan.travelTimeSeconds)) on the road)"
    }

    static func clock(_ seconds: Double, _ zone: TimeZone) -> String { WatchMessages.clockTime(seconds, zone) }
}
