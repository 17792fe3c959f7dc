// The MKDirections / MKLocalSearch seed on Wayfinder: a local search listed with names and
// phone numbers, then directions from where you are to the first result, with alternate
// routes, each with distance, expected travel time, advisory notices and its steps.
//
//   swift run example-directions http://127.0.0.1:8080 [--from LAT,LON] [--search TEXT]
//
// Without --from it starts in Monaco (the README's sample).
import Foundation
import WayfinderKit

let usage = "usage: example-directions SERVER_URL [--from LAT,LON] [--search TEXT]"
var arguments = Array(CommandLine.arguments.dropFirst())
guard let serverText = arguments.first, let client = WayfinderClient(serverText) else {
    print(usage)
    exit(64)
}
var here = Coordinate(latitude: 43.7384, longitude: 7.4246)
var text = "restaurant"
var i = 1
while i < arguments.count {
    let value = i + 1 < arguments.count ? arguments[i + 1] : ""
    switch arguments[i] {
    case "--from": guard let c = Coordinate(value) else { print(usage); exit(64) }; here = c
    case "--search": text = value
    default: print(usage); exit(64)
    }
    i += 2
}

func minutes(_ seconds: Int) -> String { seconds < 60 ? "\(seconds) s" : "\(Int((Double(seconds) / 60).rounded())) min" }

do {
    // 1. Local search near the current location: names and phone numbers.
    let search = LocalSearch(SearchRequest(text, near: here, limit: 8), client: client)
    let places = try await search.start().places
    print("\(places.count) places for \"\(text)\" near \(here):")
    for place in places {
        print("  \(place.name) | \(place.phoneNumber ?? "no phone") | \(place.formattedAddress)")
    }
    guard let destination = places.first(where: { $0.phoneNumber != nil }) ?? places.first else {
        print("Nothing to go to.")
        exit(1)
    }

    // 2. Directions to the chosen place, with an alternate route if there is one.
    print("\nDirections to \(destination.name):")
    let request = RouteRequest(from: here, to: destination.coordinate).alternatives(1)
    let response = try await Directions(request, client: client).calculate()
    for (n, route) in response.routes.enumerated() {
        print("Route \(n + 1)\(route.isAlternative ? " (alternative)" : ""): \(route.distanceMeters) m, \(minutes(route.travelTimeSeconds)), \(route.polyline.count) points")
        for notice in route.advisoryNotices { print("  Notice: \(notice)") }
        for step in route.steps { print("  - \(step.instructions) (\(step.distanceMeters) m)") }
    }
} catch {
    print("error: \(error)")
    exit(1)
}
