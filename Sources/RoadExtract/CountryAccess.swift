/// Which roads the law opens to bicycles and pedestrians where no tag says, by country.
///
/// The OSM wiki's "OSM tags for routing/Access restrictions" tables give trunk roads as open to
/// bicycles and pedestrians by default (Germany's table too: only `motorroad=yes`, a
/// Kraftfahrstraße, closes them, and `motorroad=yes` is excluded by the profiles anyway). A few
/// countries keep trunk roads to motor vehicles: those whose trunk and trunk_link columns in
/// Valhalla's country table (`kCountryAccess`, mjolnir/adminconstants.h) admit motor vehicles only.
/// With no country known, trunk roads stay closed, as OSRM's bicycle.lua and foot.lua keep them.
public enum CountryAccess {
    /// ISO 3166-1 alpha-2 codes of the countries whose trunk roads admit motor vehicles only.
    static let trunkMotorOnly: Set<String> = ["AT", "BE", "CH", "DK", "FR", "HU", "SK"]

    /// Whether trunk roads in `country` are open to bicycles and pedestrians; false when unknown.
    public static func opensTrunk(_ country: String?) -> Bool {
        guard let country else { return false }
        return !trunkMotorOnly.contains(country.uppercased())
    }
}

extension Profile {
    /// This profile where the country's law opens `countryHighwaySpeedsKmh` (`CountryAccess`).
    var withCountryHighways: Profile {
        var p = self
        p.highwaySpeedsKmh.merge(countryHighwaySpeedsKmh) { own, _ in own }
        p.countryHighwaySpeedsKmh = [:]
        return p
    }
}
