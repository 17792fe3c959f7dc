public import Places
public import MapsAPI
import GeoCore

extension PlaceResult {
    /// Photon's `type`: house, street, locality, district, city, county, state, country or other.
    public var photonType: String {
        switch kind {
        case .address: return "house"
        case .poi: return address.houseNumber != nil ? "house" : "other"
        case .street: return "street"
        case .postcode: return "other"
        case .locality:
            switch addressRank {
            case ...4: return "country"
            case 5...11: return "state"
            case 12...15: return "county"
            case 16...19: return ["suburb", "borough", "city_district"].contains(osmValue) ? "district" : "city"
            case 20...22: return "district"
            default: return "locality"
            }
        }
    }

    /// This place as one feature of Photon's `/api` answer.
    public func photonFeature() -> PhotonFeature {
        let box = extent.flatMap { $0.isEmpty || $0.southWest == $0.northEast ? nil : $0 }
        let properties = PhotonProperties(
            osmType: osmID == 0 ? nil : String(osmType.letter), osmID: osmID == 0 ? nil : osmID, osmKey: osmKey, osmValue: osmValue,
            type: photonType, name: kind == .address && name == address.streetNameAndNumber ? nil : name,
            housenumber: address.houseNumber, street: kind == .street ? nil : address.streetName, postcode: address.postcode,
            district: address.municipalitySubdivision, city: kind == .locality && photonType == "city" ? nil : address.municipality,
            county: address.countrySecondarySubdivision, state: address.countrySubdivision, country: CountryNames.name(address.countryCode),
            countrycode: address.countryCode?.uppercased(),
            extent: box.map { [$0.southWest.longitude, $0.northEast.latitude, $0.northEast.longitude, $0.southWest.latitude] })
        return PhotonFeature(geometry: PhotonPoint(longitude: position.longitude, latitude: position.latitude), properties: properties)
    }
}

extension PhotonFeatureCollection {
    public static func photon(_ places: [PlaceResult]) -> PhotonFeatureCollection {
        PhotonFeatureCollection(features: places.map { $0.photonFeature() })
    }
}
