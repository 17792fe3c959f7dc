public import Places
public import MapsAPI
import GeoCore

extension ReverseGeocodeResult {
    /// One entry of TomTom's reverse-geocode `addresses[]` (position as a "lat,lon" string).
    public func tomTomAddress(includeMatchType: Bool = false) -> ReverseGeocodeAddress {
        var address = place.tomTomAddress()
        address.street = place.address.streetName
        address.streetNameAndNumber = place.address.streetNameAndNumber
        address.routeNumbers = []
        let box = place.kind == .street ? place.viewportBox
            : BoundingBox(minLatitudeE7: place.position.latitudeE7, minLongitudeE7: place.position.longitudeE7,
                          maxLatitudeE7: place.position.latitudeE7, maxLongitudeE7: place.position.longitudeE7).expanded(byMeters: 10)
        address.boundingBox = ReverseGeocodeBoundingBox(northEast: box.northEast.formatted(decimals: 6),
                                                        southWest: box.southWest.formatted(decimals: 6))
        return ReverseGeocodeAddress(address: address, position: place.position.formatted(decimals: 6),
                                     matchType: includeMatchType ? matchType.rawValue : nil)
    }
}

extension ReverseGeocodeResponse {
    /// TomTom's reverse-geocode envelope; nothing near gives `"addresses": []`.
    /// (Names are already in the language the query asked the store for.)
    public static func tomTom(_ result: ReverseGeocodeResult?, queryTimeMilliseconds: Int, includeMatchType: Bool = false) -> ReverseGeocodeResponse {
        let addresses = result.map { [$0.tomTomAddress(includeMatchType: includeMatchType)] } ?? []
        return ReverseGeocodeResponse(summary: ReverseGeocodeSummary(queryTime: queryTimeMilliseconds, numResults: addresses.count),
                                      addresses: addresses)
    }
}
