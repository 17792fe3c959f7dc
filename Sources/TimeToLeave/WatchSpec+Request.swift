import Foundation
public import MapsAPI
import MapsAPIMapping
import RoadNetwork
import Routing
public import RoutePlanning

/// Finds the place a name means (the best match of the dataset's places index), or nil when
/// nothing matches. Throws the index's error (`NOT_FOUND` when the dataset has none).
public typealias PlaceLookup = @Sendable (String) throws(APIError) -> WatchPlace?

extension WatchSpec {
    /// Validates a request and resolves its places; every failure names the field.
    init(_ request: WatchRequest, planning: PlanningEngine, places: PlaceLookup?, now: Date, configuration: WatchConfiguration) throws(WatchError) {
        let modeName = request.travelMode ?? "car"
        guard let mode = Vocabulary.travelModes[modeName] else {
            throw .badInput("travelMode \(modeName) is not supported; use car, taxi, bicycle or pedestrian", parameter: "travelMode")
        }
        guard planning.graph(mode) != nil else {
            throw .badInput("this dataset has no \(mode.rawValue) graph (it has: \(planning.modes.map(\.rawValue).joined(separator: ", ")))",
                            parameter: "travelMode")
        }
        let typeName = request.routeType ?? "fastest"
        guard let named = Vocabulary.routeTypes[typeName] else {
            throw .badInput("routeType \(typeName) is not supported; use fastest, shortest, eco or thrilling", parameter: "routeType")
        }
        guard let type = Vocabulary.routeType(named, for: mode) else { throw .badInput(Vocabulary.bicycleThrillingRefusal, parameter: "routeType") }
        var avoid: [Avoidance] = []
        for name in request.avoid ?? [] {
            guard let kind = Vocabulary.avoidance(name) else {
                throw .badInput("avoid \(name) is not supported; use \(Vocabulary.avoidanceNames)", parameter: "avoid")
            }
            if !avoid.contains(kind) { avoid.append(kind) }
        }
        let preparation = request.preparationTime ?? 0
        guard preparation.isFinite, (0...86_400).contains(preparation) else {
            throw .badInput("preparationTime must be a number of seconds in 0...86400", parameter: "preparationTime")
        }
        guard let arrival = TimeInput.parse(request.arriveAt, timeZone: planning.timeZone, now: now) else {
            throw .badInput("arriveAt \"\(request.arriveAt.prefix(40))\" is not a time (2026-12-01T08:30:00+02:00, 2026-12-01T08:30 or 08:30)",
                            parameter: "arriveAt")
        }
        guard arrival.timeIntervalSince(now) <= configuration.maxArriveAheadSeconds else {
            throw .badInput("arriveAt must be within \(Int(configuration.maxArriveAheadSeconds / 86_400)) days", parameter: "arriveAt")
        }
        guard (request.waypoints?.count ?? 0) <= 20 else {
            throw .badInput("at most 20 waypoints are allowed", parameter: "waypoints")
        }
        origin = try Self.resolve(request.origin, field: "origin", places: places)
        destination = try Self.resolve(request.destination, field: "destination", places: places)
        var stops: [WatchPlace] = []
        for (i, w) in (request.waypoints ?? []).enumerated() { stops.append(try Self.resolve(w, field: "waypoints[\(i)]", places: places)) }
        waypoints = stops
        arriveAt = arrival.timeIntervalSince1970
        travelMode = mode
        routeType = type
        self.avoid = avoid
        preparationSeconds = Int(preparation.rounded())
        traffic = request.traffic ?? true
    }

    /// Coordinates as given, or the geocoder's best match for a name.
    static func resolve(_ input: PlaceInput, field: String, places: PlaceLookup?) throws(WatchError) -> WatchPlace {
        if let lat = input.lat, let lon = input.lon {
            guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw .badInput("\(field) \(lat),\(lon) is not a position: latitude must be in [-90, 90] and longitude in [-180, 180]", parameter: field)
            }
            return WatchPlace(lat: lat, lon: lon)
        }
        guard let text = input.query?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            throw .badInput("\(field) needs lat and lon, or a query naming a place", parameter: field)
        }
        let noIndex = "\(field) \"\(text)\" cannot be looked up: this dataset has no places index; give lat and lon"
        guard let places else { throw .badInput(noIndex, parameter: field) }
        let found: WatchPlace?
        do {
            found = try places(text)
        } catch {
            if error.code == .notFound { throw .badInput(noIndex, parameter: field) }
            throw WatchError(error)
        }
        guard let found else { throw .badInput("no place matches \"\(text)\" (\(field))", parameter: field) }
        return found
    }
}
