public import Places
public import MapsAPI
public import GeoCore
public import Foundation

extension PlaceResult {
    /// TomTom's result `type`.
    public var tomTomType: String {
        switch kind {
        case .poi: "POI"
        case .street: "Street"
        case .address: isInterpolated ? "Address Range" : "Point Address"
        case .locality, .postcode: "Geography"
        }
    }

    /// TomTom's `entityType` for Geography results.
    public var tomTomEntityType: String? {
        if kind == .postcode { return "PostalCodeArea" }
        guard kind == .locality else { return nil }
        switch addressRank {
        case ...4: return "Country"
        case 5...9: return "CountrySubdivision"
        case 10...13: return "CountrySecondarySubdivision"
        default: break
        }
        switch osmValue {
        case "city", "town", "village", "hamlet": return "Municipality"
        case "neighbourhood", "quarter", "square", "locality", "isolated_dwelling", "city_block": return "Neighbourhood"
        case "administrative": return addressRank <= 19 ? "Municipality" : addressRank <= 21 ? "MunicipalitySubdivision" : "Neighbourhood"
        default: return "MunicipalitySubdivision"
        }
    }

    /// A result id that stays the same across imports of the same data: OSM type letter and id, kind,
    /// and for interpolated numbers the number ("W123:address:17").
    public var stableID: String {
        var id = "\(osmType.letter)\(osmID):\(kind.name)"
        if isInterpolated, let number = address.houseNumber { id += ":\(number)" }
        return id
    }

    /// The address in TomTom's shape.
    public func tomTomAddress() -> SearchAddress {
        var freeform = address.freeform
        if kind == .locality {
            freeform = [name, address.municipality == name ? nil : address.municipality].compactMap { $0 }.joined(separator: ", ")
        }
        let entity = tomTomEntityType
        let subdivisions = ["MunicipalitySubdivision", "Neighbourhood"]
        return SearchAddress(
            streetNumber: address.houseNumber, streetName: address.streetName,
            municipalitySubdivision: kind == .locality && subdivisions.contains(entity ?? "") ? name : address.municipalitySubdivision,
            municipality: kind == .locality && entity == "Municipality" ? name : address.municipality,
            countrySecondarySubdivision: entity == "CountrySecondarySubdivision" ? name : address.countrySecondarySubdivision,
            countrySubdivision: entity == "CountrySubdivision" ? name : address.countrySubdivision,
            postalCode: address.postcode, countryCode: address.countryCode, country: CountryNames.name(address.countryCode),
            countryCodeISO3: CountryNames.iso3(address.countryCode), freeformAddress: freeform,
            localName: address.municipality ?? (kind == .locality ? name : nil))
    }

    /// This place as a TomTom search result. `taxonomy` supplies category ids and names. With `openingHoursFrom`
    /// (TomTom's `openingHours=nextSevenDays`) a POI whose `opening_hours` can be read gets the next seven days' spans.
    public func tomTomResult(taxonomy: CategoryTaxonomy = .standard, language: String? = nil,
                             openingHoursFrom: (start: Date, timeZone: TimeZone)? = nil) -> SearchResult {
        var poi: SearchPOI?
        if kind == .poi {
            let categories = self.categories.compactMap { taxonomy.category(id: $0) }
            var ids: [SearchCategoryID] = []
            for c in categories { if let id = c.tomTomID, !ids.contains(SearchCategoryID(id: id)) { ids.append(SearchCategoryID(id: id)) } }
            poi = SearchPOI(
                name: name(inLanguage: language), phone: phone, url: website, brands: brand.map { [SearchBrand(name: $0)] },
                categorySet: ids.isEmpty ? nil : ids,
                categories: categories.isEmpty ? nil : categories.flatMap(\.lowercaseNames),
                classifications: categories.isEmpty ? nil : categories.map {
                    SearchClassification(code: $0.tomTomCode, names: [SearchLocalizedName(nameLocale: "en-US", name: $0.name.lowercased())])
                },
                openingHours: openingHoursFrom.flatMap { from in
                    openingHours.flatMap { OpeningHours($0) }?.tomTomOpeningHours(startingOn: from.start, timeZone: from.timeZone)
                },
                timeZone: openingHoursFrom.map { SearchTimeZone(ianaId: $0.timeZone.identifier) })
        }
        let box = viewportBox
        return SearchResult(
            type: tomTomType, id: stableID, score: score, dist: distanceMeters, info: "osm:\(osmType.name)/\(osmID)",
            entityType: tomTomEntityType, poi: poi, address: tomTomAddress(), position: Self.searchPosition(position),
            viewport: SearchViewport(topLeftPoint: Self.searchPosition(Coordinate(latitudeE7: box.maxLatitudeE7, longitudeE7: box.minLongitudeE7)),
                                     btmRightPoint: Self.searchPosition(Coordinate(latitudeE7: box.minLatitudeE7, longitudeE7: box.maxLongitudeE7))),
            boundingBox: kind == .locality && extent != nil ? SearchViewport(
                topLeftPoint: Self.searchPosition(Coordinate(latitudeE7: box.maxLatitudeE7, longitudeE7: box.minLongitudeE7)),
                btmRightPoint: Self.searchPosition(Coordinate(latitudeE7: box.minLatitudeE7, longitudeE7: box.maxLongitudeE7))) : nil)
    }

    /// The extent, or a box of about 100 m around a point (TomTom gives every result a viewport).
    var viewportBox: BoundingBox {
        if let extent, !extent.isEmpty { return extent }
        let margin: Double = kind == .locality ? 1_000 : 50
        return BoundingBox(minLatitudeE7: position.latitudeE7, minLongitudeE7: position.longitudeE7,
                           maxLatitudeE7: position.latitudeE7, maxLongitudeE7: position.longitudeE7).expanded(byMeters: margin)
    }

    static func searchPosition(_ c: Coordinate) -> SearchPosition {
        SearchPosition(lat: (c.latitude * 1e7).rounded() / 1e7, lon: (c.longitude * 1e7).rounded() / 1e7)
    }
}

extension PlaceSearchResponse {
    /// The TomTom search envelope. `query` is the text as received; `offset` the page start.
    public func tomTomResponse(query: String, queryTimeMilliseconds: Int, offset: Int, bias: Coordinate? = nil,
                               taxonomy: CategoryTaxonomy = .standard, language: String? = nil,
                               openingHoursFrom: (start: Date, timeZone: TimeZone)? = nil) -> SearchResponse {
        SearchResponse(
            summary: SearchSummary(query: normalizedQuery.isEmpty ? query.lowercased() : normalizedQuery,
                                   queryType: bias == nil ? "NON_NEAR" : "NEARBY", queryTime: queryTimeMilliseconds,
                                   numResults: results.count, offset: offset, totalResults: totalResults, fuzzyLevel: fuzzyLevel,
                                   geoBias: bias.map(PlaceResult.searchPosition)),
            results: results.map { $0.tomTomResult(taxonomy: taxonomy, language: language, openingHoursFrom: openingHoursFrom) })
    }
}

extension SearchResponse {
    /// A TomTom envelope around any list of places (nearby, category, along-route candidates).
    public static func tomTom(places: [PlaceResult], query: String, queryTimeMilliseconds: Int, offset: Int = 0,
                              totalResults: Int? = nil, bias: Coordinate? = nil, taxonomy: CategoryTaxonomy = .standard,
                              language: String? = nil) -> SearchResponse {
        PlaceSearchResponse(results: places, totalResults: totalResults ?? offset + places.count, fuzzyLevel: 1,
                            normalizedQuery: query.lowercased())
            .tomTomResponse(query: query, queryTimeMilliseconds: queryTimeMilliseconds, offset: offset, bias: bias,
                            taxonomy: taxonomy, language: language)
    }
}
