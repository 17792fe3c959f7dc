public import Places
public import MapsAPI
import GeoCore

extension PlaceResult {
    /// Nominatim's `place_rank`: 30 for houses and POIs, 26 for streets, 16–25 for settlements.
    public var nominatimPlaceRank: Int {
        switch kind {
        case .address, .poi: return 30
        case .street: return ["motorway", "trunk", "primary", "secondary", "tertiary"].contains(osmValue) ? 26 : 27
        case .locality:
            return ["city": 16, "town": 18, "borough": 18, "village": 19, "city_district": 19, "hamlet": 20, "suburb": 20,
                    "island": 20, "quarter": 22, "neighbourhood": 22, "isolated_dwelling": 22, "locality": 25, "square": 25][osmValue] ?? 25
        }
    }

    /// Nominatim's `addresstype`.
    public var nominatimAddressType: String {
        switch kind {
        case .address: "place"
        case .street: "road"
        case .poi: osmKey
        case .locality: osmValue
        }
    }

    /// The `address` object, most specific part first.
    public func nominatimAddress() -> NominatimAddress {
        var parts: [(label: String, value: String)] = []
        switch kind {
        case .poi: parts.append((osmKey, name))
        case .locality: parts.append((osmValue, name))
        default: break
        }
        if let n = address.houseNumber { parts.append(("house_number", n)) }
        if let s = address.streetName { parts.append(("road", s)) }
        if let d = address.municipalitySubdivision, kind != .locality || d != name { parts.append(("suburb", d)) }
        if let c = address.municipality, kind != .locality || c != name { parts.append(("city", c)) }
        if let p = address.postcode { parts.append(("postcode", p)) }
        if let country = CountryNames.name(address.countryCode) { parts.append(("country", country)) }
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

    /// This place as a Nominatim json/jsonv2 object. `placeID` defaults to the store's own id.
    public func nominatimPlace(format: NominatimFormat = .jsonv2, addressDetails: Bool = false, nameDetails: Bool = false) -> NominatimPlace {
        let box = nominatimBox
        return NominatimPlace(
            format: format == .json ? .json : .jsonv2, placeID: id, osmType: osmType.name, osmID: osmID,
            lat: Coordinate.format(position.latitude, 7), lon: Coordinate.format(position.longitude, 7),
            osmClass: osmKey, type: osmValue, placeRank: nominatimPlaceRank, importance: importance,
            addresstype: nominatimAddressType, name: nominatimName, displayName: nominatimDisplayName,
            address: addressDetails ? nominatimAddress() : nil,
            namedetails: nameDetails ? otherNames.merging(["name": name]) { a, _ in a } : nil,
            boundingbox: [Coordinate.format(box.southWest.latitude, 7), Coordinate.format(box.northEast.latitude, 7),
                          Coordinate.format(box.southWest.longitude, 7), Coordinate.format(box.northEast.longitude, 7)])
    }

    /// This place as a Nominatim GeoJSON feature (a centroid point).
    public func nominatimFeature(addressDetails: Bool = false, nameDetails: Bool = false) -> NominatimFeature {
        let box = nominatimBox
        return NominatimFeature(
            properties: NominatimFeatureProperties(
                placeID: id, osmType: osmType.name, osmID: osmID, placeRank: nominatimPlaceRank, category: osmKey, type: osmValue,
                importance: importance, addresstype: nominatimAddressType, name: nominatimName, displayName: nominatimDisplayName,
                address: addressDetails ? nominatimAddress() : nil,
                namedetails: nameDetails ? otherNames.merging(["name": name]) { a, _ in a } : nil),
            bbox: [box.southWest.longitude, box.southWest.latitude, box.northEast.longitude, box.northEast.latitude],
            geometry: NominatimPointGeometry(longitude: position.longitude, latitude: position.latitude))
    }
}

extension NominatimFeatureCollection {
    public static func nominatim(_ places: [PlaceResult], addressDetails: Bool = false, nameDetails: Bool = false) -> NominatimFeatureCollection {
        NominatimFeatureCollection(features: places.map { $0.nominatimFeature(addressDetails: addressDetails, nameDetails: nameDetails) })
    }
}
