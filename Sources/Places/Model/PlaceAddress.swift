/// The address parts of a result, as far as they are known.
public struct PlaceAddress: Sendable, Equatable, Hashable {
    public var houseNumber: String?
    public var streetName: String?
    public var postcode: String?
    /// The city, town or village.
    public var municipality: String?
    /// The suburb, quarter or neighbourhood.
    public var municipalitySubdivision: String?
    /// The county (an `admin_level=6` boundary), when the map has one around the place.
    public var countrySecondarySubdivision: String?
    /// The state or region (an `admin_level=4` boundary), when the map has one around the place.
    public var countrySubdivision: String?
    /// ISO 3166-1 alpha-2, upper case, when known.
    public var countryCode: String?

    public init(houseNumber: String? = nil, streetName: String? = nil, postcode: String? = nil, municipality: String? = nil,
                municipalitySubdivision: String? = nil, countrySecondarySubdivision: String? = nil, countrySubdivision: String? = nil,
                countryCode: String? = nil) {
        self.houseNumber = houseNumber
        self.streetName = streetName
        self.postcode = postcode
        self.municipality = municipality
        self.municipalitySubdivision = municipalitySubdivision
        self.countrySecondarySubdivision = countrySecondarySubdivision
        self.countrySubdivision = countrySubdivision
        self.countryCode = countryCode
    }

    /// Countries that write the house number before the street ("40 North 1st Street").
    static let numberFirstCountries: Set<String> = ["US", "CA", "GB", "IE", "AU", "NZ", "FR", "MC", "LU", "IL", "ZA", "SG", "IN", "PH", "MY"]
    /// Countries that write the postcode after the city ("Springfield, IL 62701" style is US; these use "City Postcode").
    static let postcodeAfterCityCountries: Set<String> = ["US", "CA", "GB", "IE", "AU", "NZ", "SG", "IN"]

    /// "Mannerheimintie 5", or "40 North 1st Street" where the country writes numbers first.
    public var streetNameAndNumber: String? {
        guard let streetName, !streetName.isEmpty else { return nil }
        guard let houseNumber, !houseNumber.isEmpty else { return streetName }
        if let countryCode, Self.numberFirstCountries.contains(countryCode) { return "\(houseNumber) \(streetName)" }
        return "\(streetName) \(houseNumber)"
    }

    /// "00100 Helsinki" (or "Springfield 62701" in countries that put the postcode last).
    public var postcodeAndMunicipality: String? {
        let city = municipality ?? municipalitySubdivision
        switch (postcode, city) {
        case (let p?, let c?):
            if let countryCode, Self.postcodeAfterCityCountries.contains(countryCode) { return "\(c) \(p)" }
            return "\(p) \(c)"
        case (let p?, nil): return p
        case (nil, let c?): return c
        case (nil, nil): return nil
        }
    }

    /// "Mannerheimintie 5, 00100 Helsinki"; "" when nothing is known.
    public var freeform: String {
        [streetNameAndNumber, postcodeAndMunicipality].compactMap { $0 }.joined(separator: ", ")
    }

    public var isEmpty: Bool {
        houseNumber == nil && streetName == nil && postcode == nil && municipality == nil && municipalitySubdivision == nil
    }
}
