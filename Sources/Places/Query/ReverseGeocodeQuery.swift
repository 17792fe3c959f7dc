public import GeoCore

/// What is at a point: the address of the building there, else the POI, entrance or address point
/// nearest, else the nearest street (with a number between its known ones); or, at a coarser level,
/// the street, the settlement, the county, the country around it.
public struct ReverseGeocodeQuery: Sendable, Equatable {
    public var position: Coordinate
    /// Nothing farther than this is returned.
    public var radiusMeters: Double
    /// Whether a street without a house number may answer when no address is near.
    public var allowStreet: Bool
    public var language: String?
    /// Nominatim's address rank of the finest answer wanted: 30 a house, 27 any street, 26 a major street,
    /// 22 a neighbourhood, 19 a village or suburb, 16 a city, 12 a county, 8 a state, 4 a country
    /// (what Nominatim's `zoom` selects; see `maxRank(zoom:)`).
    public var maxRank: Int
    /// TomTom's `entityType`: answer with the area of the finest of these types around the point.
    public var areaTypes: [AreaType]
    /// TomTom's `number`: the position of this house number on the street nearest the point.
    public var houseNumber: String?
    /// TomTom's `roadUse`: only streets of these uses answer (and give numbers); empty = any.
    public var roadUses: Set<RoadAttributes.Use> = []
    /// Look up the street of an address answer too, for its `road` attributes (TomTom's `returnSpeedLimit`,
    /// `returnRoadUse`); otherwise a close address answers without it.
    public var includeRoad = false

    public init(position: Coordinate, radiusMeters: Double = 200, allowStreet: Bool = true, language: String? = nil,
                maxRank: Int = 30, areaTypes: [AreaType] = [], houseNumber: String? = nil) {
        self.position = position
        self.radiusMeters = radiusMeters
        self.allowStreet = allowStreet
        self.language = language
        self.maxRank = maxRank
        self.areaTypes = areaTypes
        self.houseNumber = houseNumber
    }

    /// Nominatim's `zoom` (0–18) as the finest rank it wants.
    public static func maxRank(zoom: Int) -> Int {
        let ranks = [2, 2, 2, 4, 4, 8, 10, 10, 12, 12, 16, 17, 18, 19, 22, 25, 26, 27, 30]
        return ranks[max(0, min(18, zoom))]
    }

    /// The areas TomTom's `entityType` names, finest last.
    public enum AreaType: String, Sendable, CaseIterable, Equatable {
        case country = "Country", countrySubdivision = "CountrySubdivision",
             countrySecondarySubdivision = "CountrySecondarySubdivision", municipality = "Municipality",
             municipalitySubdivision = "MunicipalitySubdivision", neighbourhood = "Neighbourhood", postalCodeArea = "PostalCodeArea"

        /// The Nominatim rank an area of this type has.
        var rank: Int {
            switch self {
            case .country: 4
            case .countrySubdivision: 8
            case .countrySecondarySubdivision: 12
            case .municipality: 16
            case .municipalitySubdivision: 20
            case .neighbourhood: 22
            case .postalCodeArea: 21
            }
        }
    }
}

/// The answer to a reverse geocode.
public struct ReverseGeocodeResult: Sendable, Equatable {
    public enum MatchType: String, Sendable, Equatable {
        /// A mapped house number (a building containing the point, an entrance, an address point).
        case addressPoint = "AddressPoint"
        /// A house number on an OSM interpolation line, or estimated between known numbers on the street.
        case houseNumberRange = "HouseNumberRange"
        /// A street, without a number.
        case street = "Street"
        /// An area: a settlement, county, state, country or postcode area.
        case area = "Geography"
    }

    public enum Side: String, Sendable, Equatable { case left = "LEFT", right = "RIGHT" }

    public var matchType: MatchType
    /// The address (kind `.address` or `.street`, or a locality or postcode for areas), positioned where it was matched.
    public var place: PlaceResult
    /// From the query position to `place.position`.
    public var distanceMeters: Double
    /// The street the answer lies on (class, roundabout, speed limit), when there is one near.
    public var road: RoadAttributes?
    /// With a requested house number: which side of the street's direction it is on.
    public var side: Side?
    /// With a requested house number: its position projected onto the street.
    public var offsetPosition: Coordinate?

    public init(matchType: MatchType, place: PlaceResult, distanceMeters: Double, road: RoadAttributes? = nil, side: Side? = nil,
                offsetPosition: Coordinate? = nil) {
        self.matchType = matchType
        self.place = place
        self.distanceMeters = distanceMeters
        self.road = road
        self.side = side
        self.offsetPosition = offsetPosition
    }
}
