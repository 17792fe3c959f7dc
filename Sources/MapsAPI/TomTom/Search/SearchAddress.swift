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
    /// Reverse geocoding with `returnSpeedLimit=true`: the street's limit, as "50.00KPH".
    public var speedLimit: String?

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
