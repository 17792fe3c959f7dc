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

    /// The country code the boundaries give most often (ties to the first by name); nil when none.
    public var mostFrequentCountry: String? {
        countryCodes.filter { $0.key.count == 2 }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }
}
