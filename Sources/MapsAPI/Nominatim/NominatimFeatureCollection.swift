// Nominatim's geojson shape.

/// `format=geojson`: a FeatureCollection of centroid points.
public struct NominatimFeatureCollection: Codable, Sendable {
    public var type: String = "FeatureCollection"
    public var licence: String
    public var features: [NominatimFeature]

    public init(licence: String = NominatimPlace.openStreetMapLicence, features: [NominatimFeature]) {
        self.licence = licence
        self.features = features
    }
}

public struct NominatimFeature: Codable, Sendable {
    public var type: String = "Feature"
    public var properties: NominatimFeatureProperties
    /// `[minlon, minlat, maxlon, maxlat]` as numbers.
    public var bbox: [Double]
    public var geometry: NominatimPointGeometry

    public init(properties: NominatimFeatureProperties, bbox: [Double], geometry: NominatimPointGeometry) {
        self.properties = properties
        self.bbox = bbox
        self.geometry = geometry
    }
}

public struct NominatimFeatureProperties: Codable, Sendable {
    public var placeID: Int64
    public var osmType: String?
    public var osmID: Int64?
    public var placeRank: Int
    public var category: String
    public var type: String
    public var importance: Double
    public var addresstype: String
    public var name: String
    public var displayName: String
    public var address: NominatimAddress?
    public var namedetails: [String: String]?
    public var extratags: [String: String]?

    public init(placeID: Int64, osmType: String?, osmID: Int64?, placeRank: Int, category: String, type: String,
                importance: Double, addresstype: String, name: String, displayName: String, address: NominatimAddress? = nil,
                namedetails: [String: String]? = nil, extratags: [String: String]? = nil) {
        self.placeID = placeID
        self.osmType = osmType
        self.osmID = osmID
        self.placeRank = placeRank
        self.category = category
        self.type = type
        self.importance = importance
        self.addresstype = addresstype
        self.name = name
        self.displayName = displayName
        self.address = address
        self.namedetails = namedetails
        self.extratags = extratags
    }

    enum CodingKeys: String, CodingKey {
        case placeID = "place_id", osmType = "osm_type", osmID = "osm_id", placeRank = "place_rank", category, type
        case importance, addresstype, name, displayName = "display_name", address, namedetails, extratags
    }
}

/// `{"type": "Point", "coordinates": [lon, lat]}`.
public struct NominatimPointGeometry: Codable, Sendable, Equatable {
    public var type: String = "Point"
    public var coordinates: [Double]
    public init(longitude: Double, latitude: Double) { coordinates = [longitude, latitude] }
}
