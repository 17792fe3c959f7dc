// Photon's `/api` shape (komoot/photon): a GeoJSON FeatureCollection of points.

/// Photon's answer: `{"type": "FeatureCollection", "features": [...]}`.
public struct PhotonFeatureCollection: Codable, Sendable {
    public var type: String = "FeatureCollection"
    public var features: [PhotonFeature]

    public init(features: [PhotonFeature]) { self.features = features }
}

public struct PhotonFeature: Codable, Sendable {
    public var type: String = "Feature"
    public var geometry: PhotonPoint
    public var properties: PhotonProperties

    public init(geometry: PhotonPoint, properties: PhotonProperties) {
        self.geometry = geometry
        self.properties = properties
    }
}

public struct PhotonPoint: Codable, Sendable {
    public var type: String = "Point"
    /// `[lon, lat]`.
    public var coordinates: [Double]

    public init(longitude: Double, latitude: Double) { coordinates = [longitude, latitude] }
}

/// A Photon feature's properties; absent parts are left out.
public struct PhotonProperties: Codable, Sendable, Equatable {
    /// `N`, `W` or `R`.
    public var osmType: String?
    public var osmID: Int64?
    public var osmKey: String
    public var osmValue: String
    /// `house`, `street`, `locality`, `district`, `city`, `county`, `state`, `country` or `other`.
    public var type: String
    public var name: String?
    public var housenumber: String?
    public var street: String?
    public var postcode: String?
    public var district: String?
    public var city: String?
    public var county: String?
    public var state: String?
    public var country: String?
    public var countrycode: String?
    /// `[minlon, maxlat, maxlon, minlat]`, for areas.
    public var extent: [Double]?

    public init(osmType: String?, osmID: Int64?, osmKey: String, osmValue: String, type: String, name: String? = nil,
                housenumber: String? = nil, street: String? = nil, postcode: String? = nil, district: String? = nil,
                city: String? = nil, county: String? = nil, state: String? = nil, country: String? = nil, countrycode: String? = nil,
                extent: [Double]? = nil) {
        self.osmType = osmType
        self.osmID = osmID
        self.osmKey = osmKey
        self.osmValue = osmValue
        self.type = type
        self.name = name
        self.housenumber = housenumber
        self.street = street
        self.postcode = postcode
        self.district = district
        self.city = city
        self.county = county
        self.state = state
        self.country = country
        self.countrycode = countrycode
        self.extent = extent
    }

    enum CodingKeys: String, CodingKey {
        case osmType = "osm_type", osmID = "osm_id", osmKey = "osm_key", osmValue = "osm_value", type, name, housenumber, street
        case postcode, district, city, county, state, country, countrycode, extent
    }
}

/// Photon's errors: HTTP 400 with `{"message": "…"}`.
public struct PhotonError: Codable, Sendable, Equatable {
    public var message: String
    public init(message: String) { self.message = message }
}
