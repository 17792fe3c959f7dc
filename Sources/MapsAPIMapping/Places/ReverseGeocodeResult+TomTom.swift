public import Places
public import MapsAPI
import GeoCore

/// What TomTom's reverse geocoding adds on request: `returnSpeedLimit`, `returnRoadUse`, `returnMatchType`.
public struct ReverseGeocodeExtras: Sendable, Equatable {
    public var matchType: Bool
    public var speedLimit: Bool
    public var roadUse: Bool

    public init(matchType: Bool = false, speedLimit: Bool = false, roadUse: Bool = false) {
        self.matchType = matchType
        self.speedLimit = speedLimit
        self.roadUse = roadUse
    }
}

extension ReverseGeocodeResult {
    /// One entry of TomTom's reverse-geocode `addresses[]` (position as a "lat,lon" string).
    public func tomTomAddress(_ extras: ReverseGeocodeExtras = ReverseGeocodeExtras()) -> ReverseGeocodeAddress {
        var address = place.tomTomAddress()
        address.street = place.address.streetName
        address.streetNameAndNumber = place.address.streetNameAndNumber
        address.routeNumbers = []
        let box = place.kind == .street || matchType == .area ? place.viewportBox
            : BoundingBox(minLatitudeE7: place.position.latitudeE7, minLongitudeE7: place.position.longitudeE7,
                          maxLatitudeE7: place.position.latitudeE7, maxLongitudeE7: place.position.longitudeE7).expanded(byMeters: 10)
        address.boundingBox = ReverseGeocodeBoundingBox(northEast: box.northEast.formatted(decimals: 6),
                                                        southWest: box.southWest.formatted(decimals: 6))
        if extras.speedLimit, let kmh = road?.speedLimitKmh { address.speedLimit = "\(kmh).00KPH" }
        return ReverseGeocodeAddress(address: address, position: place.position.formatted(decimals: 6),
                                     matchType: extras.matchType && matchType != .area ? matchType.rawValue : nil,
                                     roadUse: extras.roadUse ? road.map { [$0.use.rawValue] } : nil,
                                     entityType: matchType == .area ? place.tomTomEntityType : nil,
                                     sideOfStreet: side?.rawValue, offsetPosition: offsetPosition?.formatted(decimals: 6))
    }
}

extension ReverseGeocodeResponse {
    /// TomTom's reverse-geocode envelope; nothing near gives `"addresses": []`.
    /// (Names are already in the language the query asked the store for.)
    public static func tomTom(_ result: ReverseGeocodeResult?, queryTimeMilliseconds: Int,
                              extras: ReverseGeocodeExtras = ReverseGeocodeExtras()) -> ReverseGeocodeResponse {
        let addresses = result.map { [$0.tomTomAddress(extras)] } ?? []
        return ReverseGeocodeResponse(summary: ReverseGeocodeSummary(queryTime: queryTimeMilliseconds, numResults: addresses.count),
                                      addresses: addresses)
    }
}
