import Foundation
import MapsService
import MapsAPI
import Places
import GeoCore
import RoadNetwork

enum SearchCommand {
    static let usage = """
    USAGE: wayfinder search DATASET_DIR "TEXT" [--typeahead] [--near LAT,LON] [--radius M]
                                               [--category ID] [--limit N] [--format text|json]

    Free-text search over addresses, streets, places and points of interest, tolerant of typos;
    `--typeahead` treats the last word as a prefix. `json` is TomTom's search response.
    Local search like MKLocalSearch: `--near` biases (and `--radius` limits) to a point, and the
    text output lists names, addresses and phone numbers.

    OPTIONS:
      --typeahead          the last word is a prefix (as the user types)
      --near LAT,LON       rank by distance to this point
      --radius METRES      only within this distance of --near
      --category ID        filter by category: an id (restaurant), a TomTom id (7315) or a name
      --limit N            at most N results (default 10, up to 100)
      --format FORMAT      text (default) or json
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["near", "radius", "category", "limit", "format"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 2 else { throw UsageError("give a dataset folder and the text to search for") }
        var query = PlaceSearchQuery(text: a.positional[1])
        query.typeahead = a.flag("typeahead")
        if let near = a.value("near") {
            guard let c = Coordinate(parsing: near) else { throw UsageError("--near must be LAT,LON") }
            query.bias = c
        }
        if let r = a.value("radius") {
            guard let m = Double(r), m > 0, query.bias != nil else { throw UsageError("--radius needs a positive number of metres and --near") }
            query.radiusMeters = m
        }
        if let c = a.value("category") { query.categories = [c] }
        if let l = a.value("limit") {
            guard let n = Int(l), (1...100).contains(n) else { throw UsageError("--limit must be 1...100") }
            query.limit = n
        }
        let format = a.value("format") ?? "text"
        try a.checkAllUsed()
        let service = try Commands.openService(a.positional[0])
        do {
            let response = try service.search(query)
            print(format == "json" ? try JSONOutput.encode(response) : PlacesText.list(response.results))
        } catch let error as APIError {
            throw CommandFailure(error.message, exitCode: error.code == .badInput ? ExitCode.usage : ExitCode.noInput)
        }
    }
}

enum ReverseCommand {
    static let usage = """
    USAGE: wayfinder reverse DATASET_DIR LAT,LON [--radius M] [--format text|json]

    The address at a point: the nearest house number (interpolated along the street when no
    exact one is near), else the nearest street. `json` is TomTom's reverse geocode response.
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["radius", "format"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 2, let point = Coordinate(parsing: a.positional[1]) else {
            throw UsageError("give a dataset folder and LAT,LON")
        }
        let radius = Double(a.value("radius") ?? "200") ?? 200
        let format = a.value("format") ?? "text"
        try a.checkAllUsed()
        let service = try Commands.openService(a.positional[0])
        do {
            let response = try service.reverseGeocode(ReverseGeocodeQuery(position: point, radiusMeters: radius))
            if format == "json" {
                print(try JSONOutput.encode(response))
            } else if let first = response.addresses.first {
                print("\(first.address.freeformAddress) (\(first.position))")
            } else {
                throw CommandFailure("no address within \(Int(radius)) m of \(point.formatted())", exitCode: ExitCode.answerIsNo)
            }
        } catch let error as APIError {
            throw CommandFailure(error.message, exitCode: ExitCode.noInput)
        }
    }
}

enum AlongRouteCommand {
    static let usage = """
    USAGE: wayfinder along-route DATASET_DIR --from LAT,LON --to LAT,LON [--via LAT,LON]...
                                 (--query TEXT | --category ID) --max-detour SECONDS
                                 [--mode MODE] [--limit N] [--sort detourTime|detourDistance|detourOffset]
                                 [--spread] [--format text|json]

    Places along a route whose visit adds at most --max-detour seconds to the trip, with the
    exact detour time and distance and where the detour leaves the route, computed on the road
    network (TomTom's searchAlongRoute).
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["from", "to", "via", "query", "category", "max-detour", "mode", "limit", "sort", "format"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one dataset folder") }
        guard let from = a.value("from").flatMap({ Coordinate(parsing: $0) }), let to = a.value("to").flatMap({ Coordinate(parsing: $0) }) else {
            throw UsageError("--from and --to (LAT,LON) are required")
        }
        var vias: [Coordinate] = []
        for v in a.values("via") {
            guard let c = Coordinate(parsing: v) else { throw UsageError("--via \(v) is not LAT,LON") }
            vias.append(c)
        }
        guard let detourText = a.value("max-detour"), let detour = Int(detourText) else { throw UsageError("--max-detour SECONDS is required") }
        let mode = TravelMode(rawValue: a.value("mode") ?? "car") ?? .car
        let text = a.value("query"), category = a.value("category")
        guard text != nil || category != nil else { throw UsageError("give --query TEXT or --category ID") }
        let limit = Int(a.value("limit") ?? "10") ?? 10
        let sort = a.value("sort") ?? "detourTime"
        let spread = a.flag("spread")
        let format = a.value("format") ?? "text"
        try a.checkAllUsed()
        let service = try Commands.openService(a.positional[0])
        do {
            // The route first (as a client would), then the places along its points.
            var routeQuery = RouteQuery(waypoints: [from] + vias + [to], mode: mode)
            routeQuery.representation = .polyline
            let route = try service.calculateRoute(routeQuery)
            let points = route.routes[0].legs.flatMap { $0.points ?? [] }.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            var q = MapsService.AlongRouteQuery(points: points, maxDetourSeconds: detour)
            q.mode = mode
            q.text = text
            q.categories = category.map { [$0] } ?? []
            q.limit = limit
            q.spread = spread
            guard let sortBy = MapsService.AlongRouteQuery.SortBy(rawValue: sort) else { throw UsageError("--sort must be detourTime, detourDistance or detourOffset") }
            q.sortBy = sortBy
            let response = try service.searchAlongRoute(q)
            if format == "json" {
                print(try JSONOutput.encode(response))
            } else {
                let s = route.routes[0].summary
                print("route: \(Format.distance(Double(s.lengthInMeters))), \(Format.duration(Double(s.travelTimeInSeconds)))")
                if response.results.isEmpty { print("nothing within a \(detour) s detour") }
                for r in response.results {
                    let name = r.poi?.name ?? r.address.freeformAddress
                    print("  +\(r.detourTime ?? 0) s, \(r.detourDistance ?? 0) m, leaves at \(Format.distance(Double(r.detourOffset ?? 0))): \(name) — \(r.address.freeformAddress)\(r.poi?.phone.map { ", ☎ \($0)" } ?? "")")
                }
            }
        } catch let error as APIError {
            throw CommandFailure(error.message, exitCode: error.code == .badInput ? ExitCode.usage : ExitCode.answerIsNo)
        }
    }
}

enum CategoriesCommand {
    static let usage = """
    USAGE: wayfinder categories [--format text|json]

    The place categories: id, TomTom id, names and synonyms, and the OSM tags they come from.
    Filters (--category, categorySet) accept the id, the TomTom id or a name.
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["format"])
        if a.flag("help") { print(usage); return }
        let format = a.value("format") ?? "text"
        try a.checkAllUsed()
        let taxonomy = CategoryTaxonomy.standard
        if format == "json" { print(try JSONOutput.encode(taxonomy.tomTomCategories())); return }
        for c in taxonomy.categories {
            let id = c.tomTomID.map(String.init) ?? "-"
            print("\(c.id.padding(toLength: 24, withPad: " ", startingAt: 0)) \(id.padding(toLength: 8, withPad: " ", startingAt: 0)) \(c.name)\(c.synonyms.isEmpty ? "" : " (\(c.synonyms.joined(separator: ", ")))")")
        }
    }
}

enum PlacesText {
    static func list(_ results: [SearchResult]) -> String {
        guard !results.isEmpty else { return "no results" }
        return results.enumerated().map { i, r in
            let name = r.poi?.name ?? r.address.freeformAddress
            var line = "\(i + 1). \(name) [\(r.type)]"
            if r.poi != nil { line += " — \(r.address.freeformAddress)" }
            if let phone = r.poi?.phone { line += " ☎ \(phone)" }
            if let d = r.dist { line += " (\(Format.distance(d)))" }
            return line
        }.joined(separator: "\n")
    }
}
