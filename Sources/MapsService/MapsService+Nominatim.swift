public import MapsAPI
import MapsAPIMapping
public import Places

/// A Nominatim answer: an array of places (json, jsonv2) or a FeatureCollection (geojson).
public enum NominatimAnswer: Encodable, Sendable {
    case places([NominatimPlace])
    case place(NominatimPlace)
    case features(NominatimFeatureCollection)
    /// Reverse geocoding with nothing near (HTTP 200).
    case notFound(NominatimNotFound)

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .places(let p): try c.encode(p)
        case .place(let p): try c.encode(p)
        case .features(let f): try c.encode(f)
        case .notFound(let n): try c.encode(n)
        }
    }
}

extension MapsService {
    /// Nominatim `/search`.
    public func nominatimSearch(_ query: PlaceSearchQuery, format: NominatimFormat, addressDetails: Bool,
                                nameDetails: Bool) throws(APIError) -> NominatimAnswer {
        let places = try searchPlaces(query)
        if format == .geojson {
            return .features(NominatimFeatureCollection.nominatim(places, addressDetails: addressDetails, nameDetails: nameDetails))
        }
        return .places(places.map { $0.nominatimPlace(format: format, addressDetails: addressDetails, nameDetails: nameDetails) })
    }

    /// Nominatim `/reverse`.
    public func nominatimReverse(_ query: ReverseGeocodeQuery, format: NominatimFormat, addressDetails: Bool,
                                 nameDetails: Bool) throws(APIError) -> NominatimAnswer {
        guard let result = try reverseGeocodeResult(query) else { return .notFound(NominatimNotFound()) }
        if format == .geojson {
            return .features(NominatimFeatureCollection.nominatim([result.place], addressDetails: addressDetails, nameDetails: nameDetails))
        }
        return .place(result.place.nominatimPlace(format: format, addressDetails: addressDetails, nameDetails: nameDetails))
    }
}
