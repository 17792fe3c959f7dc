public import OSMPBF

/// Evidence for a dataset's time zone gathered while reading relations: `timezone=*` tags on
/// boundaries and `ISO3166-1` country codes. `TimeZoneInference` turns it into an answer.
public struct TimeZoneHints: Sendable {
    public var timezoneTags: [String: Int] = [:]
    public var countryCodes: [String: Int] = [:]

    mutating func observe(_ tags: Tags) {
        if let tz = tags["timezone"], tz.contains("/") { timezoneTags[tz, default: 0] += 1 }
        if tags["boundary"] == "administrative", tags["admin_level"] == "2" {
            if let cc = tags["ISO3166-1"] ?? tags["ISO3166-1:alpha2"] ?? tags["country_code"] {
                countryCodes[cc.uppercased(), default: 0] += 1
            }
        }
    }
}
