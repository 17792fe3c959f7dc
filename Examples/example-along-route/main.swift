// The TomTom "Search along a route" seed on Wayfinder: two long presses (reverse geocoded)
// set departure and destination, the route is planned, the gas station / restaurant / ATM
// buttons search along it, and "Add to my route" re-plans through the best place found.
//
//   swift run example-along-route http://127.0.0.1:8080 [--from LAT,LON] [--to LAT,LON]
//                                   [--search TEXT] [--max-detour SECONDS]
//
// Without --from/--to it crosses Monaco (the README's sample).
import Foundation
import WayfinderKit

let usage = "usage: example-along-route SERVER_URL [--from LAT,LON] [--to LAT,LON] [--search TEXT] [--max-detour SECONDS]"
var arguments = Array(CommandLine.arguments.dropFirst())
guard let serverText = arguments.first, let client = WayfinderClient(serverText) else {
    print(usage)
    exit(64)
}
var departure = Coordinate(latitude: 43.7401, longitude: 7.4266)
var destination = Coordinate(latitude: 43.7296, longitude: 7.4155)
var searches = ["gas station", "restaurant", "ATM"]
var maxDetour = 300
var i = 1
while i < arguments.count {
    let value = i + 1 < arguments.count ? arguments[i + 1] : ""
    switch arguments[i] {
    case "--from": guard let c = Coordinate(value) else { print(usage); exit(64) }; departure = c
    case "--to": guard let c = Coordinate(value) else { print(usage); exit(64) }; destination = c
    case "--search": searches = [value]
    case "--max-detour": guard let s = Int(value) else { print(usage); exit(64) }; maxDetour = s
    default: print(usage); exit(64)
    }
    i += 2
}

do {
    // 1. The two long presses: reverse geocode each point.
    for (label, point) in [("Departure", departure), ("Destination", destination)] {
        let address = try await client.reverseGeocode(point).first
        print("\(label): \(address?.formattedAddress ?? "(no address)") at \(point)")
    }

    // 2. The route between them.
    let planned = try await client.calculateRoute(RouteRequest(from: departure, to: destination))
    let route = planned.route
    print("Route: \(route.distanceMeters) m, \(route.travelTimeSeconds) s")

    // 3. The buttons: search along the route.
    var best: Place?
    for text in searches {
        var request = AlongRouteSearchRequest(text, along: route, maxDetourSeconds: maxDetour)
        request.limit = 5
        let places = try await client.searchAlongRoute(request).places
        if places.isEmpty {
            print("\(text): none within a \(maxDetour) s detour")
            continue
        }
        print("\(text): \(places.count) found")
        for place in places {
            let detour = place.detour.map { String(format: "%+d s, %+d m", $0.timeSeconds, $0.distanceMeters) } ?? "?"
            print("  \(place.name) | \(place.formattedAddress) | detour \(detour)")
        }
        if best == nil { best = places.first }
    }

    // 4. "Add to my route": re-plan through the best place.
    guard let stop = best else {
        print("Nothing to add to the route.")
        exit(0)
    }
    let replanned = try await client.calculateRoute(planned.request.addingStop(stop.coordinate))
    let via = replanned.route
    print("Added \(stop.name) to my route: \(via.distanceMeters) m, \(via.travelTimeSeconds) s "
          + "(+\(via.travelTimeSeconds - route.travelTimeSeconds) s; the search said +\(stop.detour?.timeSeconds ?? 0) s), \(via.legs.count) legs")
} catch {
    print("error: \(error)")
    exit(1)
}
