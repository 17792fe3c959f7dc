// Codable value types only: no Foundation needed.

// TomTom Search API v2 shapes (fuzzy search, geocode, POI/category/nearby search, along-route,
// reverse geocode, POI categories, errors) and Nominatim's json/jsonv2/geojson shapes.
// Field names, nesting and types follow the services; nil optionals are omitted from the JSON.

// MARK: - TomTom search envelope

/// `{"summary": …, "results": [ … ]}`, the envelope of every TomTom search endpoint except reverse geocoding.
public struct SearchResponse: Codable, Sendable {
    public var summary: SearchSummary
    /// Always present, `[]` when nothing matched (clients index it unconditionally).
    public var results: [SearchResult]

    public init(summary: SearchSummary, results: [SearchResult]) {
        self.summary = summary
        self.results = results
    }
}

public struct SearchSummary: Codable, Sendable, Equatable {
    /// The query as understood (normalised).
    public var query: String
    /// `NEARBY` when a position bias was given, else `NON_NEAR`.
    public var queryType: String
    public var queryTime: Int
    public var numResults: Int
    public var offset: Int
    public var totalResults: Int
    /// 1 = exact matching, 2 = typo-tolerant matching was used.
    public var fuzzyLevel: Int
    public var geoBias: SearchPosition?

    public init(query: String, queryType: String, queryTime: Int, numResults: Int, offset: Int, totalResults: Int,
                fuzzyLevel: Int, geoBias: SearchPosition? = nil) {
        self.query = query
        self.queryType = queryType
        self.queryTime = queryTime
        self.numResults = numResults
        self.offset = offset
        self.totalResults = totalResults
        self.fuzzyLevel = fuzzyLevel
        self.geoBias = geoBias
    }
}

/// `{lat, lon}` in degrees, as TomTom's search results write positions.
public struct SearchPosition: Codable, Sendable, Equatable, Hashable {
    public var lat: Double
    public var lon: Double
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

public struct SearchViewport: Codable, Sendable, Equatable {
    public var topLeftPoint: SearchPosition
    public var btmRightPoint: SearchPosition
    public init(topLeftPoint: SearchPosition, btmRightPoint: SearchPosition) {
        self.topLeftPoint = topLeftPoint
        self.btmRightPoint = btmRightPoint
    }
}

public struct SearchEntryPoint: Codable, Sendable, Equatable {
    /// `main` or `minor`.
    public var type: String
    public var functions: [String]?
    public var position: SearchPosition
    public init(type: String, functions: [String]? = nil, position: SearchPosition) {
        self.type = type
        self.functions = functions
        self.position = position
    }
}

/// One search result: a POI, a street, a geography, a point address or an address range.
public struct SearchResult: Codable, Sendable {
    /// `POI`, `Street`, `Geography`, `Point Address`, `Address Range`, `Cross Street`.
    public var type: String
    public var id: String
    public var score: Double
    /// Metres from the bias position, when one was given.
    public var dist: Double?
    /// Source tag; Wayfinder writes the OSM object, e.g. `osm:node/123`.
    public var info: String?
    /// For `Geography` results: `Municipality`, `MunicipalitySubdivision`, `Neighbourhood`, …
    public var entityType: String?
    public var poi: SearchPOI?
    public var address: SearchAddress
    public var position: SearchPosition
    public var viewport: SearchViewport?
    /// Geography results carry their extent here too.
    public var boundingBox: SearchViewport?
    public var entryPoints: [SearchEntryPoint]?
    public var addressRanges: SearchAddressRanges?
    /// Along-route results: seconds added to the travel time (may be negative).
    public var detourTime: Int?
    /// Along-route results: metres added to the route length (may be negative).
    public var detourDistance: Int?
    /// Along-route results with `detourOffset=true`: metres from the route start to where the detour leaves it.
    public var detourOffset: Int?

    public init(type: String, id: String, score: Double, dist: Double? = nil, info: String? = nil, entityType: String? = nil,
                poi: SearchPOI? = nil, address: SearchAddress, position: SearchPosition, viewport: SearchViewport? = nil,
                boundingBox: SearchViewport? = nil, entryPoints: [SearchEntryPoint]? = nil, addressRanges: SearchAddressRanges? = nil,
                detourTime: Int? = nil, detourDistance: Int? = nil, detourOffset: Int? = nil) {
        self.type = type
        self.id = id
        self.score = score
        self.dist = dist
        self.info = info
        self.entityType = entityType
        self.poi = poi
        self.address = address
        self.position = position
        self.viewport = viewport
        self.boundingBox = boundingBox
        self.entryPoints = entryPoints
        self.addressRanges = addressRanges
        self.detourTime = detourTime
        self.detourDistance = detourDistance
        self.detourOffset = detourOffset
    }
}

public struct SearchAddressRanges: Codable, Sendable, Equatable {
    public var rangeLeft: String?
    public var rangeRight: String?
    public var from: SearchPosition
    public var to: SearchPosition
    public init(rangeLeft: String?, rangeRight: String?, from: SearchPosition, to: SearchPosition) {
        self.rangeLeft = rangeLeft
        self.rangeRight = rangeRight
        self.from = from
        self.to = to
    }
}

public struct SearchPOI: Codable, Sendable {
    public var name: String
    public var phone: String?
    public var url: String?
    public var brands: [SearchBrand]?
    /// Numeric category ids (the ones `categorySet` filters on).
    public var categorySet: [SearchCategoryID]?
    /// Lowercase localized category names.
    public var categories: [String]?
    public var classifications: [SearchClassification]?
    public var openingHours: SearchOpeningHours?
    public var timeZone: SearchTimeZone?

    public init(name: String, phone: String? = nil, url: String? = nil, brands: [SearchBrand]? = nil,
                categorySet: [SearchCategoryID]? = nil, categories: [String]? = nil,
                classifications: [SearchClassification]? = nil, openingHours: SearchOpeningHours? = nil,
                timeZone: SearchTimeZone? = nil) {
        self.name = name
        self.phone = phone
        self.url = url
        self.brands = brands
        self.categorySet = categorySet
        self.categories = categories
        self.classifications = classifications
        self.openingHours = openingHours
        self.timeZone = timeZone
    }
}

public struct SearchBrand: Codable, Sendable, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
}

public struct SearchCategoryID: Codable, Sendable, Equatable, Hashable {
    public var id: Int
    public init(id: Int) { self.id = id }
}

public struct SearchClassification: Codable, Sendable, Equatable {
    /// UPPER_SNAKE key, e.g. `PETROL_STATION`.
    public var code: String
    public var names: [SearchLocalizedName]
    public init(code: String, names: [SearchLocalizedName]) {
        self.code = code
        self.names = names
    }
}

public struct SearchLocalizedName: Codable, Sendable, Equatable {
    public var nameLocale: String
    public var name: String
    public init(nameLocale: String, name: String) {
        self.nameLocale = nameLocale
        self.name = name
    }
}

/// `{mode: "nextSevenDays", timeRanges: [...]}`; local times.
public struct SearchOpeningHours: Codable, Sendable, Equatable {
    public var mode: String
    public var timeRanges: [SearchTimeRange]
    public init(mode: String = "nextSevenDays", timeRanges: [SearchTimeRange]) {
        self.mode = mode
        self.timeRanges = timeRanges
    }
}

public struct SearchTimeRange: Codable, Sendable, Equatable {
    public var startTime: SearchLocalTime
    public var endTime: SearchLocalTime
    public init(startTime: SearchLocalTime, endTime: SearchLocalTime) {
        self.startTime = startTime
        self.endTime = endTime
    }
}

public struct SearchLocalTime: Codable, Sendable, Equatable {
    /// "YYYY-MM-DD".
    public var date: String
    public var hour: Int
    public var minute: Int
    public init(date: String, hour: Int, minute: Int) {
        self.date = date
        self.hour = hour
        self.minute = minute
    }
}

public struct SearchTimeZone: Codable, Sendable, Equatable {
    public var ianaId: String
    public init(ianaId: String) { self.ianaId = ianaId }
}

/// A TomTom address. Search results use the first group of fields; reverse geocoding adds
/// `street`, `streetNameAndNumber`, `routeNumbers` and a `boundingBox` with string corners.
public struct SearchAddress: Codable, Sendable, Equatable {
    public var streetNumber: String?
    public var streetName: String?
    public var municipalitySubdivision: String?
    public var municipality: String?
    public var countrySecondarySubdivision: String?
    public var countryTertiarySubdivision: String?
    public var countrySubdivision: String?
    public var countrySubdivisionName: String?
    public var postalCode: String?
    public var extendedPostalCode: String?
    public var countryCode: String?
    public var country: String?
    public var countryCodeISO3: String?
    /// Always present ("" when nothing is known).
    public var freeformAddress: String
    public var localName: String?
    public var routeNumbers: [String]?
    public var street: String?
    public var streetNameAndNumber: String?
    public var boundingBox: ReverseGeocodeBoundingBox?

    public init(streetNumber: String? = nil, streetName: String? = nil, municipalitySubdivision: String? = nil,
                municipality: String? = nil, countrySecondarySubdivision: String? = nil, countryTertiarySubdivision: String? = nil,
                countrySubdivision: String? = nil, countrySubdivisionName: String? = nil, postalCode: String? = nil,
                extendedPostalCode: String? = nil, countryCode: String? = nil, country: String? = nil,
                countryCodeISO3: String? = nil, freeformAddress: String, localName: String? = nil,
                routeNumbers: [String]? = nil, street: String? = nil, streetNameAndNumber: String? = nil,
                boundingBox: ReverseGeocodeBoundingBox? = nil) {
        self.streetNumber = streetNumber
        self.streetName = streetName
        self.municipalitySubdivision = municipalitySubdivision
        self.municipality = municipality
        self.countrySecondarySubdivision = countrySecondarySubdivision
        self.countryTertiarySubdivision = countryTertiarySubdivision
        self.countrySubdivision = countrySubdivision
        self.countrySubdivisionName = countrySubdivisionName
        self.postalCode = postalCode
        self.extendedPostalCode = extendedPostalCode
        self.countryCode = countryCode
        self.country = country
        self.countryCodeISO3 = countryCodeISO3
        self.freeformAddress = freeformAddress
        self.localName = localName
        self.routeNumbers = routeNumbers
        self.street = street
        self.streetNameAndNumber = streetNameAndNumber
        self.boundingBox = boundingBox
    }
}

// MARK: - TomTom reverse geocode

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

    public init(address: SearchAddress, position: String, matchType: String? = nil, roadUse: [String]? = nil, entityType: String? = nil) {
        self.address = address
        self.position = position
        self.matchType = matchType
        self.roadUse = roadUse
        self.entityType = entityType
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

// MARK: - TomTom POI categories and errors

/// `{"poiCategories": [ … ]}`.
public struct POICategoriesResponse: Codable, Sendable {
    public var poiCategories: [POICategory]
    public init(poiCategories: [POICategory]) { self.poiCategories = poiCategories }
}

public struct POICategory: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var childCategoryIds: [Int]
    public var synonyms: [String]
    public init(id: Int, name: String, childCategoryIds: [Int], synonyms: [String]) {
        self.id = id
        self.name = name
        self.childCategoryIds = childCategoryIds
        self.synonyms = synonyms
    }
}

/// A search error in both of TomTom's variants at once (`errorText` and `error`), with
/// `detailedError{code, message, target}` and the HTTP status.
public struct SearchErrorResponse: Codable, Sendable, Equatable {
    public var errorText: String
    public var error: String
    public var httpStatusCode: Int
    public var detailedError: Detail

    public struct Detail: Codable, Sendable, Equatable {
        /// `BadRequest`, `NotFound`, …
        public var code: String
        public var message: String
        public var target: String
        public init(code: String, message: String, target: String = "") {
            self.code = code
            self.message = message
            self.target = target
        }
    }

    public init(message: String, httpStatusCode: Int = 400, code: String = "BadRequest", target: String = "") {
        errorText = message
        error = message
        self.httpStatusCode = httpStatusCode
        detailedError = Detail(code: code, message: message, target: target)
    }
}

// MARK: - Nominatim

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

/// Nominatim's `address` object: labels (`road`, `house_number`, `suburb`, `city`, `postcode`,
/// `country_code`, …) in order from the most specific to the most general.
public struct NominatimAddress: Codable, Sendable, Equatable {
    public var parts: [(label: String, value: String)]

    public init(_ parts: [(label: String, value: String)]) { self.parts = parts }

    public subscript(label: String) -> String? { parts.first { $0.label == label }?.value }

    public static func == (lhs: NominatimAddress, rhs: NominatimAddress) -> Bool {
        lhs.parts.count == rhs.parts.count && zip(lhs.parts, rhs.parts).allSatisfy { $0.label == $1.label && $0.value == $1.value }
    }

    struct Label: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Label.self)
        parts = try c.allKeys.map { (label: $0.stringValue, value: try c.decode(String.self, forKey: $0)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Label.self)
        for part in parts { try c.encode(part.value, forKey: Label(stringValue: part.label)) }
    }
}

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

/// Reverse geocoding with nothing near: HTTP 200 `{"error": "Unable to geocode"}`.
public struct NominatimNotFound: Codable, Sendable, Equatable {
    public var error: String
    public init(error: String = "Unable to geocode") { self.error = error }
}

/// Bad input: HTTP 400 `{"error": {"code": 400, "message": "…"}}`.
public struct NominatimErrorResponse: Codable, Sendable, Equatable {
    public var error: Detail
    public struct Detail: Codable, Sendable, Equatable {
        public var code: Int
        public var message: String
    }
    public init(code: Int = 400, message: String) { error = Detail(code: code, message: message) }
}
