public import MapsAPI
public import MapsAPIMapping
public import Places
import GeoCore

/// A Nominatim answer: an array of places (json, jsonv2) or a FeatureCollection (geojson).
public enum NominatimAnswer: Sendable {
    case places([NominatimPlace])
    case place(NominatimPlace)
    case features(NominatimFeatureCollection)
    /// Reverse geocoding with nothing near (HTTP 200).
    case notFound(NominatimNotFound)

    /// The body, written with JSONWriter (the shapes' Codable conformances are what the SDK decodes).
    public var json: [UInt8] {
        var w = JSONWriter(capacity: 4_096)
        switch self {
        case .places(let places):
            w.beginArray()
            for p in places { p.write(to: &w) }
            w.endArray()
        case .place(let p): p.write(to: &w)
        case .features(let f): f.write(to: &w)
        case .notFound(let n): n.write(to: &w)
        }
        return w.bytes
    }
}

extension MapsService {
    /// Nominatim `/search` (free text or structured, with `autocomplete` for typeahead).
    public func nominatimSearch(_ query: PlaceSearchQuery, format: NominatimFormat, details: NominatimDetails) throws(APIError) -> NominatimAnswer {
        let places = try searchPlaces(query)
        if format == .geojson { return .features(NominatimFeatureCollection.nominatim(places, details: details)) }
        return .places(places.map { $0.nominatimPlace(format: format, details: details) })
    }

    /// Nominatim `/reverse` at a point. With `layers` naming only POI layers, the nearest such POI answers
    /// (as Nominatim's `layer=poi`); otherwise the address (or, by `zoom`, the street or area) there.
    public func nominatimReverse(_ query: ReverseGeocodeQuery, layers: Set<PlaceSearchQuery.Layer>, format: NominatimFormat,
                                 details: NominatimDetails) throws(APIError) -> NominatimAnswer {
        let place: PlaceResult?
        if !layers.isEmpty && !layers.contains(.address) {
            let store = try placeStore()
            do {
                let near = try store.nearby(NearbyQuery(center: query.position, radiusMeters: min(query.radiusMeters, 1_000), limit: 100,
                                                        language: query.language))
                place = near.first { layers.contains(PlaceSearchQuery.Layer.of($0)) }
            } catch {
                throw APIError(.unavailable, "the places index could not be read: \(error)")
            }
        } else {
            let found = try reverseGeocodeResult(query)?.place
            if let found, layers.isEmpty || layers.contains(.poi) { place = try objectItself(found, language: query.language) } else { place = found }
        }
        return answer(place, format: format, details: details)
    }

    /// The object an address found belongs to, when that is a POI: Nominatim answers with the object (its
    /// name and category, `amenity=restaurant`), where reverse geocoding answers with the address it carries.
    private func objectItself(_ place: PlaceResult, language: String?) throws(APIError) -> PlaceResult {
        guard place.kind == .address else { return place }
        let store = try placeStore()
        let same: [PlaceResult]
        do {
            same = try store.places(osmType: place.osmType, osmID: place.osmID, language: language)
        } catch {
            throw APIError(.unavailable, "the places index could not be read: \(error)")
        }
        return same.first { $0.kind == .poi } ?? place
    }

    /// Nominatim `/reverse` with `osm_type` and `osm_id`: the address of that object.
    public func nominatimReverse(osmType: OSMObjectType, osmID: Int64, language: String?, format: NominatimFormat,
                                 details: NominatimDetails) throws(APIError) -> NominatimAnswer {
        let store = try placeStore()
        do {
            let found = try store.places(osmType: osmType, osmID: osmID, language: language)
            return answer(found.first { $0.kind != .address } ?? found.first, format: format, details: details)
        } catch {
            throw APIError(.unavailable, "the places index could not be read: \(error)")
        }
    }

    private func answer(_ place: PlaceResult?, format: NominatimFormat, details: NominatimDetails) -> NominatimAnswer {
        guard let place else { return .notFound(NominatimNotFound()) }
        if format == .geojson { return .features(NominatimFeatureCollection.nominatim([place], details: details)) }
        return .place(place.nominatimPlace(format: format, details: details))
    }

    /// Photon `/api`: typeahead search in Photon's GeoJSON shape.
    public func photonSearch(_ query: PlaceSearchQuery, tags: [PhotonTagFilter], types: Set<String>) throws(APIError) -> PhotonFeatureCollection {
        var q = query
        // Filters applied after the search need room in the candidate list.
        if !tags.isEmpty || !types.isEmpty { q.limit = min(100, max(q.limit * 5, 50)) }
        let places = try searchPlaces(q).filter { p in
            (types.isEmpty || types.contains(p.photonType)) && tags.allSatisfy { $0.accepts(key: p.osmKey, value: p.osmValue) }
        }
        return PhotonFeatureCollection.photon(Array(places.prefix(query.limit)))
    }
}

/// One of Photon's `osm_tag` filters: `key`, `key:value` or `:value`; `!key` and `!key:value` exclude
/// what they name, `key:!value` keeps the key but not that value.
public struct PhotonTagFilter: Sendable, Equatable {
    public var key: String?
    public var value: String?
    /// `!` before the whole filter.
    public var excludes: Bool
    /// `!` before the value only.
    public var excludesValue: Bool

    /// Nil when the text is not a filter.
    public init?(_ text: String) {
        var t = Substring(text.trimmingCharacters(in: .whitespaces))
        excludes = t.hasPrefix("!")
        if excludes { t = t.dropFirst() }
        let parts = t.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let k = parts.first.map(String.init) ?? ""
        var v = parts.count > 1 ? String(parts[1]) : ""
        excludesValue = v.hasPrefix("!")
        if excludesValue { v.removeFirst() }
        guard !(k.isEmpty && v.isEmpty), !k.contains("!"), !v.contains("!"), !(excludes && excludesValue) else { return nil }
        key = k.isEmpty ? nil : k
        value = v.isEmpty ? nil : v
    }

    public func accepts(key k: String, value v: String) -> Bool {
        let keyMatches = key == nil || key == k
        let valueMatches = value == nil || value == v
        if excludesValue { return keyMatches && !valueMatches }
        return excludes ? !(keyMatches && valueMatches) : keyMatches && valueMatches
    }
}
