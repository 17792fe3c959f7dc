/// `{"summary": {"queryTime", "numResults"}, "addresses": [ … ]}`.
public struct ReverseGeocodeResponse: Codable, Sendable {
    public var summary: ReverseGeocodeSummary
    /// Always present, `[]` when nothing is near.
    public var addresses: [ReverseGeocodeAddress]

    public init(summary: ReverseGeocodeSummary, addresses: [ReverseGeocodeAddress]) {
        self.summary = summary
        self.addresses = addresses
    }
}

public struct ReverseGeocodeSummary: Codable, Sendable, Equatable {
    public var queryTime: Int
    public var numResults: Int
    public init(queryTime: Int, numResults: Int) {
        self.queryTime = queryTime
        self.numResults = numResults
    }
}

public struct ReverseGeocodeAddress: Codable, Sendable {
    public var address: SearchAddress
    /// A STRING `"lat,lon"` (6 decimals), unlike search results' `{lat, lon}` object.
    public var position: String
    /// `AddressPoint`, `HouseNumberRange` or `Street` (with `returnMatchType=true`).
    public var matchType: String?
    public var roadUse: [String]?
    public var entityType: String?
    /// With `number`: `LEFT` or `RIGHT` of the street's direction.
    public var sideOfStreet: String?
    /// With `number`: the number's point on the street, `"lat,lon"`.
    public var offsetPosition: String?

    public init(address: SearchAddress, position: String, matchType: String? = nil, roadUse: [String]? = nil, entityType: String? = nil,
                sideOfStreet: String? = nil, offsetPosition: String? = nil) {
        self.address = address
        self.position = position
        self.matchType = matchType
        self.roadUse = roadUse
        self.entityType = entityType
        self.sideOfStreet = sideOfStreet
        self.offsetPosition = offsetPosition
    }
}

/// Corners as `"lat,lon"` strings.
public struct ReverseGeocodeBoundingBox: Codable, Sendable, Equatable {
    public var northEast: String
    public var southWest: String
    public var entity: String
    public init(northEast: String, southWest: String, entity: String = "position") {
        self.northEast = northEast
        self.southWest = southWest
        self.entity = entity
    }
}
