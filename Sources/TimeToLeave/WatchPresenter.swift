import Foundation
import MapsAPI

/// What a watch looks like from outside: its document at a moment, and its events as the
/// Server-Sent Events carry them (the whole document as `data`).
struct WatchPresenter: Sendable {
    let configuration: WatchConfiguration

    /// The API's view of a record at `now`.
    func document(_ r: WatchRecord, now: Double, zone: TimeZone) -> WatchDocument {
        func time(_ t: Double) -> String { RFC3339.format(Date(timeIntervalSince1970: t), in: zone) }
        let plan = r.plan
        let prepareBy = plan.map { $0.departure - Double(r.spec.preparationSeconds) }
        let status: String
        if r.expired || now >= r.spec.arriveAt {
            status = "expired"
        } else if r.lateBySeconds != nil {
            status = "late"
        } else if let plan, now >= plan.departure {
            status = "leaveNow"
        } else if let prepareBy, now >= prepareBy {
            status = "getReady"
        } else {
            status = "waiting"
        }
        let offer = r.offer.map { o in
            RouteOffer(departureTime: time(o.plan.departure), arrivalTime: time(o.plan.arrival), travelTimeInSeconds: o.plan.travelTimeSeconds,
                       trafficDelayInSeconds: o.plan.trafficDelaySeconds, lengthInMeters: o.plan.lengthMeters, gainSeconds: o.gainSeconds,
                       message: r.lateBySeconds == nil ? "Another route lets you leave \(WatchMessages.span(o.gainSeconds)) later"
                           : "Another route arrives \(WatchMessages.span(o.gainSeconds)) earlier",
                       route: o.plan.route)
        }
        return WatchDocument(
            id: r.id, status: status, now: time(now), createdAt: time(r.createdAt),
            origin: r.spec.origin, destination: r.spec.destination, waypoints: r.spec.waypoints, arriveAt: time(r.spec.arriveAt),
            travelMode: r.spec.travelMode.rawValue, routeType: r.spec.routeType.rawValue, avoid: r.spec.avoid.map(\.rawValue),
            preparationTime: r.spec.preparationSeconds, traffic: r.spec.traffic,
            departureTime: plan.map { time($0.departure) }, prepareBy: prepareBy.map(time), arrivalTime: plan.map { time($0.arrival) },
            secondsUntilDeparture: plan.map { Int(($0.departure - now).rounded(.down)) },
            secondsUntilPrepareBy: prepareBy.map { Int(($0 - now).rounded(.down)) },
            travelTimeInSeconds: plan?.travelTimeSeconds, noTrafficTravelTimeInSeconds: plan?.noTrafficSeconds,
            historicTrafficTravelTimeInSeconds: plan?.historicSeconds, trafficDelayInSeconds: plan?.trafficDelaySeconds,
            lengthInMeters: plan?.lengthMeters, lateBySeconds: r.lateBySeconds, route: plan?.route, betterRoute: offer,
            lastPlannedAt: r.lastPlannedAt.map(time), nextPlanAt: r.expired ? nil : time(r.nextPlanAt), planCount: r.planCount,
            replanIntervalSeconds: Int(configuration.replanIntervalSeconds), thresholdSeconds: Int(configuration.thresholdSeconds),
            lastError: r.lastError, lastEventId: r.lastEventID, event: r.lastEvent)
    }

    /// Numbers the next event, records it on the watch, and renders the watch as its data.
    func emit(_ a: Announcement, _ record: inout WatchRecord, now: Double, zone: TimeZone) -> StoredEvent {
        record.lastEventID += 1
        record.lastEvent = WatchEvent(id: record.lastEventID, type: a.type.rawValue, at: RFC3339.format(Date(timeIntervalSince1970: now), in: zone),
                                      message: a.message, friendlyMessage: a.friendly, departureChangeSeconds: a.change,
                                      previousDepartureTime: a.previous.map { RFC3339.format(Date(timeIntervalSince1970: $0), in: zone) },
                                      lateBySeconds: a.lateBy, routeChanged: a.routeChanged)
        let data = String(decoding: (try? WatchStore.encoder().encode(document(record, now: now, zone: zone))) ?? Data("{}".utf8), as: UTF8.self)
        return StoredEvent(watchID: record.id, id: record.lastEventID, type: a.type.rawValue, at: now, data: data)
    }
}
