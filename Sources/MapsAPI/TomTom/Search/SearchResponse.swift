// Codable value types only. Field names, nesting and types follow the service; nil optionals are
// omitted from the JSON.

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
