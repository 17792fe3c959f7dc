// The TomTom "Time to leave" seed on Wayfinder: typeahead for the destination, a trip watched
// until it is time to leave, and every update the server pushes (traffic changes move the
// departure time) printed as it arrives.
//
//   swift run example-time-to-leave http://127.0.0.1:8080 [--from LAT,LON|PLACE] [--to LAT,LON|PLACE]
//        [--arrive-in MINUTES] [--prep MINUTES] [--mode car|taxi|bicycle|pedestrian] [--updates N]
//
// Without --from/--to it crosses Monaco (the README's sample). It stops after N updates
// (default: at "time to leave"), then stops watching.
import Foundation
import WayfinderKit

let usage = "usage: example-time-to-leave SERVER_URL [--from LAT,LON|PLACE] [--to LAT,LON|PLACE] [--arrive-in MINUTES] [--prep MINUTES] [--mode MODE] [--updates N]"
var arguments = Array(CommandLine.arguments.dropFirst())
guard let serverText = arguments.first, let client = WayfinderClient(serverText) else {
    print(usage)
    exit(64)
}
func location(_ text: String) -> TripLocation { Coordinate(text).map(TripLocation.coordinate) ?? .named(text) }
var origin = TripLocation.coordinate(Coordinate(latitude: 43.7401, longitude: 7.4266))
var destination = TripLocation.coordinate(Coordinate(latitude: 43.7296, longitude: 7.4155))
var arriveInMinutes = 45.0
var prepMinutes = 10.0
var mode = TravelMode.car
var maxUpdates: Int?
var i = 1
while i < arguments.count {
    let value = i + 1 < arguments.count ? arguments[i + 1] : ""
    switch arguments[i] {
    case "--from": origin = location(value)
    case "--to": destination = location(value)
    case "--arrive-in": guard let m = Double(value) else { print(usage); exit(64) }; arriveInMinutes = m
    case "--prep": guard let m = Double(value) else { print(usage); exit(64) }; prepMinutes = m
    case "--mode": guard let m = TravelMode(rawValue: value) else { print(usage); exit(64) }; mode = m
    case "--updates": guard let n = Int(value) else { print(usage); exit(64) }; maxUpdates = n
    default: print(usage); exit(64)
    }
    i += 2
}

do {
    let status = try await client.serverStatus()
    let clock = DateFormatter()
    clock.dateFormat = "HH:mm:ss"
    clock.timeZone = TimeZone(identifier: status.timeZone)
    func time(_ date: Date?) -> String { date.map { clock.string(from: $0) } ?? "--:--:--" }

    // The destination field: typeahead suggestions from three characters.
    if case .named(let text) = destination {
        let suggestions = try await client.suggestions(for: text)
        print("Suggestions for \"\(text)\": " + suggestions.map(\.name).joined(separator: "; "))
        if let first = suggestions.first { destination = .coordinate(first.coordinate) }
    }

    var request = TimeToLeaveRequest(from: origin, to: destination, arriveBy: Date().addingTimeInterval(arriveInMinutes * 60),
                                     preparationSeconds: Int(prepMinutes * 60))
    request.travelMode = mode
    let watch = try await client.startTimeToLeave(request)
    print("Watch \(watch.id): arrive by \(time(watch.arriveBy)); get ready at \(time(watch.prepareBy)), "
          + "leave at \(time(watch.departureTime)) (in \(watch.secondsUntilDeparture ?? 0) s); "
          + "travel \(watch.travelTimeSeconds ?? 0) s, \(watch.trafficDelaySeconds ?? 0) s of it traffic")

    var count = 0
    updates: for try await update in client.timeToLeaveUpdates(watchID: watch.id) {
        count += 1
        let w = update.watch
        print("[\(update.kind)] \(update.message) — \(update.friendlyMessage); leave at \(time(w.departureTime)) "
              + "(in \(w.secondsUntilDeparture ?? 0) s), status \(w.status)")
        if let offer = w.betterRoute { print("  A better route is on offer: \(offer.message)") }
        if let maxUpdates, count >= maxUpdates { break updates }
        switch update.kind {
        case .timeToLeave: print("Time's UP! Time to leave!"); break updates
        case .late: print("You will be \(update.lateBySeconds ?? 0) s late.")
        default: break
        }
    }
    try await client.stopTimeToLeave(id: watch.id)
    print("Stopped watching \(watch.id) after \(count) updates.")
} catch {
    print("error: \(error)")
    exit(1)
}
