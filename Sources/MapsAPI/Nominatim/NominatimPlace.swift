// Nominatim's json/jsonv2 shapes; field names and types follow Nominatim 5.

/// The output formats of Nominatim `/search` and `/reverse` that Wayfinder speaks.
public enum NominatimFormat: String, Codable, Sendable, CaseIterable {
    case json, jsonv2, geojson
}

/// One Nominatim result (format json or jsonv2; the JSON key of `osmClass` is `class` in json and
/// `category` in jsonv2). `/search` answers an array of these; `/reverse` a single object.
public struct NominatimPlace: Codable, Sendable {
    public var format: NominatimFormat
    public var placeID: Int64
    public var licence: String
    /// `node`, `way` or `relation`.
    public var osmType: String?
    public var osmID: Int64?
    /// Degrees as a STRING with 7 decimals.
    public var lat: String
    public var lon: String
    public var osmClass: String
    public var type: String
    public var placeRank: Int
    public var importance: Double
    public var addresstype: String
    public var name: String
    public var displayName: String
    public var address: NominatimAddress?
    public var namedetails: [String: String]?
    public var extratags: [String: String]?
    /// `[minlat, maxlat, minlon, maxlon]` as STRINGS.
    public var boundingbox: [String]

    public static let openStreetMapLicence = "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright"

    public init(format: NominatimFormat = .jsonv2, placeID: Int64, licence: String = NominatimPlace.openStreetMapLicence,
                osmType: String?, osmID: Int64?, lat: String, lon: String, osmClass: String, type: String, placeRank: Int,
                importance: Double, addresstype: String, name: String, displayName: String, address: NominatimAddress? = nil,
                namedetails: [String: String]? = nil, extratags: [String: String]? = nil, boundingbox: [String]) {
        self.format = format
        self.placeID = placeID
        self.licence = licence
        self.osmType = osmType
        self.osmID = osmID
        self.lat = lat
        self.lon = lon
        self.osmClass = osmClass
        self.type = type
        self.placeRank = placeRank
        self.importance = importance
        self.addresstype = addresstype
        self.name = name
        self.displayName = displayName
        self.address = address
        self.namedetails = namedetails
        self.extratags = extratags
        self.boundingbox = boundingbox
    }

    enum CodingKeys: String, CodingKey {
        case placeID = "place_id", licence, osmType = "osm_type", osmID = "osm_id", lat, lon
        case osmClass = "class", category, type, placeRank = "place_rank", importance, addresstype, name
        case displayName = "display_name", address, namedetails, extratags, boundingbox
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        placeID = try c.decode(Int64.self, forKey: .placeID)
        licence = try c.decodeIfPresent(String.self, forKey: .licence) ?? ""
        osmType = try c.decodeIfPresent(String.self, forKey: .osmType)
        osmID = try c.decodeIfPresent(Int64.self, forKey: .osmID)
        lat = try c.decode(String.self, forKey: .lat)
        lon = try c.decode(String.self, forKey: .lon)
        if let category = try c.decodeIfPresent(String.self, forKey: .category) {
            osmClass = category
            format = .jsonv2
        } else {
            osmClass = try c.decodeIfPresent(String.self, forKey: .osmClass) ?? ""
            format = .json
        }
        type = try c.decodeIfPresent(String.self, forKey: .type) ?? ""
        placeRank = try c.decodeIfPresent(Int.self, forKey: .placeRank) ?? 30
        importance = try c.decodeIfPresent(Double.self, forKey: .importance) ?? 0
        addresstype = try c.decodeIfPresent(String.self, forKey: .addresstype) ?? ""
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
        displayName = try c.decode(String.self, forKey: .displayName)
        address = try c.decodeIfPresent(NominatimAddress.self, forKey: .address)
        namedetails = try c.decodeIfPresent([String: String].self, forKey: .namedetails)
        extratags = try c.decodeIfPresent([String: String].self, forKey: .extratags)
        boundingbox = try c.decodeIfPresent([String].self, forKey: .boundingbox) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(placeID, forKey: .placeID)
        try c.encode(licence, forKey: .licence)
        try c.encodeIfPresent(osmType, forKey: .osmType)
        try c.encodeIfPresent(osmID, forKey: .osmID)
        try c.encode(lat, forKey: .lat)
        try c.encode(lon, forKey: .lon)
        try c.encode(osmClass, forKey: format == .json ? .osmClass : .category)
        try c.encode(type, forKey: .type)
        try c.encode(placeRank, forKey: .placeRank)
        try c.encode(importance, forKey: .importance)
        try c.encode(addresstype, forKey: .addresstype)
        try c.encode(name, forKey: .name)
        try c.encode(displayName, forKey: .displayName)
        try c.encodeIfPresent(address, forKey: .address)
        try c.encodeIfPresent(namedetails, forKey: .namedetails)
        try c.encodeIfPresent(extratags, forKey: .extratags)
        try c.encode(boundingbox, forKey: .boundingbox)
    }
}
