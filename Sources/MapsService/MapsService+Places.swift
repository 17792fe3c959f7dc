import Foundation
public import MapsAPI
public import GeoCore
public import RoadNetwork
public import Places
public import MapsAPIMapping
import RoutePlanning

/// Search, reverse geocoding, categories and search along a route.
extension MapsService {
    func placeStore() throws(APIError) -> any PlaceStore {
        guard let store = places else {
            throw APIError(.notFound, "this dataset has no places index; re-import it without --skip-places")
        }
        return store
    }

    static func milliseconds(since start: UInt64) -> Int {
        Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }

    /// TomTom fuzzy search (and geocode with `kinds`).
    public func search(_ query: PlaceSearchQuery) throws(APIError) -> SearchResponse {
        let store = try placeStore()
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let response = try store.search(query)
            return response.tomTomResponse(query: query.text, queryTimeMilliseconds: Self.milliseconds(since: start), offset: query.offset,
                                           bias: query.bias, taxonomy: store.taxonomy, language: query.language)
        } catch {
            throw APIError(.unavailable, "the places index could not be read: \(error)")
        }
    }

    /// The best match for a name, as a time-to-leave watch keeps its places; nil when nothing matches.
    public func firstPlace(named text: String) throws(APIError) -> WatchPlace? {
        let response = try search(PlaceSearchQuery(text: text, limit: 1))
        guard let first = response.results.first else { return nil }
        let name = first.poi?.name ?? first.address.freeformAddress
        return WatchPlace(lat: first.position.lat, lon: first.position.lon, name: name.isEmpty ? nil : name, query: text)
    }

    /// The raw places of a search (for Nominatim and the CLI).
    public func searchPlaces(_ query: PlaceSearchQuery) throws(APIError) -> [PlaceResult] {
        let store = try placeStore()
        do { return try store.search(query).results } catch { throw APIError(.unavailable, "the places index could not be read: \(error)") }
    }

    /// TomTom nearby / category search.
    public func nearby(_ query: NearbyQuery, label: String) throws(APIError) -> SearchResponse {
        let store = try placeStore()
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let places = try store.nearby(query)
            return SearchResponse.tomTom(places: places, query: label, queryTimeMilliseconds: Self.milliseconds(since: start),
                                         offset: query.offset, bias: query.center, taxonomy: store.taxonomy, language: query.language)
        } catch {
            throw APIError(.unavailable, "the places index could not be read: \(error)")
        }
    }

    public func reverseGeocode(_ query: ReverseGeocodeQuery, extras: ReverseGeocodeExtras = ReverseGeocodeExtras()) throws(APIError) -> ReverseGeocodeResponse {
        let store = try placeStore()
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let result = try store.reverseGeocode(query)
            return ReverseGeocodeResponse.tomTom(result, queryTimeMilliseconds: Self.milliseconds(since: start), extras: extras)
        } catch {
            throw APIError(.unavailable, "the places index could not be read: \(error)")
        }
    }

    public func reverseGeocodeResult(_ query: ReverseGeocodeQuery) throws(APIError) -> ReverseGeocodeResult? {
        let store = try placeStore()
        do { return try store.reverseGeocode(query) } catch { throw APIError(.unavailable, "the places index could not be read: \(error)") }
    }

    public func poiCategories() throws(APIError) -> POICategoriesResponse {
        (places?.taxonomy ?? .standard).tomTomCategories()
    }

    public var taxonomy: CategoryTaxonomy { places?.taxonomy ?? .standard }

    // MARK: Search along a route

    public struct AlongRouteQuery: Sendable {
        public enum SortBy: String, Sendable { case detourTime, detourDistance, detourOffset }
        /// The route as driven (TomTom's body `route.points`), at least two points.
        public var points: [Coordinate]
        public var mode: TravelMode = .car
        public var text: String?
        public var categories: [String] = []
        public var maxDetourSeconds: Int
        public var limit = 10
        public var sortBy: SortBy = .detourTime
        /// Spread results along the whole route (TomTom's `spreadingMode=auto`).
        public var spread = false
        public var language: String?

        public init(points: [Coordinate], maxDetourSeconds: Int) {
            self.points = points
            self.maxDetourSeconds = maxDetourSeconds
        }
    }

    /// Places whose visit adds at most `maxDetourSeconds` to the route, with exact detours on the
    /// road network: the route is rebuilt on the graph through its own points, every candidate in
    /// a corridor gets its cheapest leave-visit-rejoin detour (`RouteDetourSearch`), and the
    /// detour's extra distance and where it leaves the route come from the unpacked paths.
    public func searchAlongRoute(_ q: AlongRouteQuery) throws(APIError) -> SearchResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        guard q.points.count >= 2 else { throw .badInput("the route needs at least two points", parameter: "route.points") }
        guard q.points.count <= limits.maxAlongRoutePoints else {
            throw .badInput("the route may have at most \(limits.maxAlongRoutePoints) points", parameter: "route.points")
        }
        guard (1...limits.maxDetourSeconds).contains(q.maxDetourSeconds) else {
            throw .badInput("maxDetourTime must be an integer number of seconds in [1, \(limits.maxDetourSeconds)]", parameter: "maxDetourTime")
        }
        guard (1...limits.maxAlongRouteResults).contains(q.limit) else {
            throw .badInput("limit must be an integer in [1, \(limits.maxAlongRouteResults)]", parameter: "limit")
        }
        guard q.text?.isEmpty == false || !q.categories.isEmpty else {
            throw .badInput("give a query text or a categorySet", parameter: "query")
        }
        let store = try placeStore()
        _ = try graph(q.mode)
        let corridor: RouteCorridor
        do {
            corridor = try planning.corridor(through: q.points, mode: q.mode)
        } catch {
            switch error {
            case .noSegment(let i, let c):
                throw APIError(.mapMatchingFailure, "route point \(i) (\(c.formatted())) is not near any road usable by \(q.mode.rawValue)", parameter: "route.points")
            case .noRoute:
                throw APIError(.noRouteFound, "the route's points cannot be joined by \(q.mode.rawValue) on this map", parameter: "route.points")
            case .noHierarchy, .unknownMode:
                throw APIError(.unavailable, "this dataset has no routing hierarchy; re-import it")
            }
        }

        // Candidates in a corridor the detour budget could reach, nearest first.
        let speed = q.mode == .pedestrian ? 1.4 : q.mode == .bicycle ? 4.0 : 9.0
        let width = min(5_000, max(150, Double(q.maxDetourSeconds) * speed / 2))
        let candidates: [CorridorMatch]
        do {
            candidates = try store.corridor(CorridorQuery(polyline: corridor.points, maxDistanceMeters: width, text: q.text,
                                                          categories: q.categories, limit: 400, language: q.language))
        } catch {
            throw APIError(.unavailable, "the places index could not be read: \(error)")
        }
        let budget = Int64(q.maxDetourSeconds) * 1000
        var found: [(match: CorridorMatch, detour: RouteCorridor.Detour)] = []
        for match in candidates {
            guard let d = corridor.detour(to: match.place.position), d.addedCost <= budget else { continue }
            found.append((match, d))
        }
        // Order, spread, then unpack only what is returned.
        found.sort { $0.detour.addedCost < $1.detour.addedCost }
        var chosen = found
        if q.spread && found.count > q.limit {
            let total = max(1, corridor.lengthMeters)
            var perSlice: [Int: (CorridorMatch, RouteCorridor.Detour)] = [:]
            for f in found {
                let slice = min(q.limit - 1, Int(f.detour.leaveOffsetMeters / total * Double(q.limit)))
                if perSlice[slice] == nil { perSlice[slice] = f }
            }
            chosen = perSlice.values.map { (match: $0.0, detour: $0.1) }
            for f in found where chosen.count < q.limit && !chosen.contains(where: { $0.match.place.stableID == f.match.place.stableID }) {
                chosen.append(f)
            }
        }
        var results: [(PlaceResult, time: Int, distance: Int, offset: Int)] = []
        for f in chosen.prefix(max(q.limit * 3, q.limit)) {
            guard let d = corridor.unpackedDetour(to: f.match.place.position) else { continue }
            // The given route may be a little slower than the best one through its own points
            // (it is re-snapped every 500 m), so a place right on it can come out a few seconds
            // "negative": a stop never saves time, so that reads as no detour. Metres stay signed:
            // a slower detour can be shorter.
            let seconds = max(0, Int((Double(d.addedMilliseconds) / 1000).rounded()))
            results.append((f.match.place, seconds, Int(d.addedMeters.rounded()), Int(d.leaveOffsetMeters.rounded())))
        }
        switch q.sortBy {
        case .detourTime: results.sort { $0.time < $1.time }
        case .detourDistance: results.sort { $0.distance < $1.distance }
        case .detourOffset: results.sort { $0.offset < $1.offset }
        }
        if q.spread { results.sort { $0.offset < $1.offset } }
        let top = Array(results.prefix(q.limit))
        var response = SearchResponse.tomTom(places: top.map(\.0), query: q.text ?? q.categories.joined(separator: ","),
                                             queryTimeMilliseconds: Self.milliseconds(since: started), totalResults: results.count,
                                             taxonomy: store.taxonomy, language: q.language)
        for (i, r) in top.enumerated() {
            response.results[i].detourTime = r.time
            response.results[i].detourDistance = r.distance
            response.results[i].detourOffset = r.offset
            response.results[i].dist = nil
        }
        response.summary.queryType = "NON_NEAR"
        return response
    }
}
