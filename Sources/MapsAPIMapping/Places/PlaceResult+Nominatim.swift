public import Places
public import MapsAPI
import GeoCore

/// What a Nominatim answer includes beside the basics (`addressdetails`, `namedetails`, `extratags`).
public struct NominatimDetails: Sendable, Equatable {
    public var address: Bool
    public var names: Bool
    public var extraTags: Bool

    public init(address: Bool = false, names: Bool = false, extraTags: Bool = false) {
        self.address = address
        self.names = names
        self.extraTags = extraTags
    }
}

extension PlaceResult {
    /// Nominatim's `place_rank`: 30 for houses and POIs, 26/27 for streets, 21 for postcodes, 4–25 for areas.
    public var nominatimPlaceRank: Int { addressRank }

    /// Nominatim's `addresstype`.
    public var nominatimAddressType: String {
        switch kind {
        case .address: "place"
        case .street: "road"
        case .poi: osmKey
        case .postcode: "postcode"
        case .locality: osmKey == "boundary" ? Self.boundaryAddressType(rank: addressRank) : osmValue
        }
    }

    /// The `addresstype` of an administrative boundary by its rank, as Nominatim names the levels.
    static func boundaryAddressType(rank: Int) -> String {
        switch rank {
        case ...4: "country"
        case 5...9: "state"
        case 10...11: "region"
        case 12...13: "county"
        case 14...17: "city"
        case 18...19: "town"
        case 20...21: "suburb"
        default: "neighbourhood"
        }
    }

    /// The `address` object, most specific part first.
    public func nominatimAddress() -> NominatimAddress {
        var parts: [(label: String, value: String)] = []
        switch kind {
        case .poi: parts.append((osmKey, name))
        case .locality: parts.append((nominatimAddressType, name))
        default: break
        }
        if let n = address.houseNumber { parts.append(("house_number", n)) }
        if let s = address.streetName { parts.append(("road", s)) }
        if let d = address.municipalitySubdivision, kind != .locality || d != name { parts.append(("suburb", d)) }
        if let c = address.municipality, kind != .locality || c != name { parts.append(("city", c)) }
        if let c = address.countrySecondarySubdivision, kind != .locality || c != name { parts.append(("county", c)) }
        if let s = address.countrySubdivision, kind != .locality || s != name { parts.append(("state", s)) }
        if let p = address.postcode { parts.append(("postcode", p)) }
        if let country = CountryNames.name(address.countryCode), !(kind == .locality && osmValue == "country") {
            parts.append(("country", country))
        }
        if let code = address.countryCode { parts.append(("country_code", code.lowercased())) }
        return NominatimAddress(parts)
    }

    /// `display_name`: the address parts' values joined by ", ".
    public var nominatimDisplayName: String {
        var values: [String] = []
        for part in nominatimAddress().parts where part.label != "country_code" && !values.contains(part.value) {
            values.append(part.value)
        }
        return values.joined(separator: ", ")
    }

    private var nominatimBox: BoundingBox {
        if let extent, !extent.isEmpty { return extent }
        return BoundingBox(minLatitudeE7: position.latitudeE7 - 500, minLongitudeE7: position.longitudeE7 - 500,
                           maxLatitudeE7: position.latitudeE7 + 500, maxLongitudeE7: position.longitudeE7 + 500)
    }

    private var nominatimName: String { kind == .address && (address.streetNameAndNumber == name) ? "" : name }

    /// Postcodes made from addresses (and a country known only by its code) are no OSM object: Nominatim
    /// leaves out `osm_type` and `osm_id` for them.
    private var nominatimOSM: (type: String?, id: Int64?) { osmID == 0 ? (nil, nil) : (osmType.name, osmID) }

    private func nominatimNames(_ details: NominatimDetails) -> [String: String]? {
        guard details.names else { return nil }
        return otherNames.merging(nominatimName.isEmpty ? [:] : ["name": name]) { a, _ in a }
    }

    /// This place as a Nominatim json/jsonv2 object. `placeID` is the store's own id.
    public func nominatimPlace(format: NominatimFormat = .jsonv2, details: NominatimDetails = NominatimDetails()) -> NominatimPlace {
        let box = nominatimBox
        return NominatimPlace(
            format: format == .json ? .json : .jsonv2, placeID: id, osmType: nominatimOSM.type, osmID: nominatimOSM.id,
            lat: Coordinate.format(position.latitude, 7), lon: Coordinate.format(position.longitude, 7),
            osmClass: osmKey, type: osmValue, placeRank: nominatimPlaceRank, importance: importance,
            addresstype: nominatimAddressType, name: nominatimName, displayName: nominatimDisplayName,
            address: details.address ? nominatimAddress() : nil, namedetails: nominatimNames(details),
            extratags: details.extraTags ? extraTags : nil,
            boundingbox: [Coordinate.format(box.southWest.latitude, 7), Coordinate.format(box.northEast.latitude, 7),
                          Coordinate.format(box.southWest.longitude, 7), Coordinate.format(box.northEast.longitude, 7)])
    }

    /// This place as a Nominatim GeoJSON feature (a centroid point).
    public func nominatimFeature(details: NominatimDetails = NominatimDetails()) -> NominatimFeature {
        let box = nominatimBox
        return NominatimFeature(
            properties: NominatimFeatureProperties(
                placeID: id, osmType: nominatimOSM.type, osmID: nominatimOSM.id, placeRank: nominatimPlaceRank, category: osmKey,
                type: osmValue, importance: importance, addresstype: nominatimAddressType, name: nominatimName,
                displayName: nominatimDisplayName, address: details.address ? nominatimAddress() : nil,
                namedetails: nominatimNames(details), extratags: details.extraTags ? extraTags : nil),
            bbox: [box.southWest.longitude, box.southWest.latitude, box.northEast.longitude, box.northEast.latitude],
            geometry: NominatimPointGeometry(longitude: position.longitude, latitude: position.latitude))
    }
}

extension NominatimFeatureCollection {
    public static func nominatim(_ places: [PlaceResult], details: NominatimDetails = NominatimDetails()) -> NominatimFeatureCollection {
        NominatimFeatureCollection(features: places.map { $0.nominatimFeature(details: details) })
    }
}
