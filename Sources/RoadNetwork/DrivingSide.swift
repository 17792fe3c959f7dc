/// The side of the road traffic keeps to: it decides which way roundabouts turn, which side a
/// U-turn is made from and where a kerb-side turn is.
public enum DrivingSide: String, Sendable, Codable, Equatable {
    case left = "LEFT", right = "RIGHT"

    /// The side in a country (ISO 3166-1 alpha-2 code); right for codes not known to drive on the left.
    public init(countryCode: String) {
        self = Self.leftHandCountries.contains(countryCode.uppercased()) ? .left : .right
    }

    /// The side in the country of a time zone, for datasets that know no country code.
    public init(timeZoneIdentifier zone: String) {
        let left = ["Europe/London", "Europe/Dublin", "Europe/Malta", "Europe/Isle_of_Man", "Europe/Jersey", "Europe/Guernsey",
                    "Asia/Nicosia", "Asia/Famagusta", "Asia/Tokyo", "Asia/Kolkata", "Asia/Calcutta", "Asia/Hong_Kong", "Asia/Macau",
                    "Asia/Singapore", "Asia/Bangkok", "Asia/Kuala_Lumpur", "Asia/Jakarta", "Asia/Colombo", "Asia/Dhaka",
                    "Asia/Karachi", "Asia/Kathmandu", "Asia/Thimphu", "Africa/Johannesburg", "Africa/Nairobi", "Africa/Harare",
                    "Africa/Maputo", "Africa/Lusaka", "Africa/Gaborone", "Africa/Windhoek", "Africa/Dar_es_Salaam",
                    "Africa/Kampala", "Pacific/Auckland", "Pacific/Fiji", "America/Jamaica", "America/Barbados",
                    "America/Port_of_Spain", "America/Guyana", "Atlantic/Stanley", "Indian/Mauritius",
                    "Indian/Christmas", "Indian/Cocos", "Pacific/Norfolk", "Pacific/Pitcairn", "Pacific/Fakaofo"]
        self = left.contains(zone) || zone.hasPrefix("Australia/") ? .left : .right
    }

    /// The 75 countries and territories that drive on the left, by ISO 3166-1 alpha-2 code: the list
    /// in Wikipedia's "Left- and right-hand traffic" article (Saint Helena's code covering Ascension
    /// and Tristan da Cunha).
    static let leftHandCountries: Set<String> = [
        "GB", "IE", "MT", "CY", "IM", "JE", "GG", "JP", "IN", "PK", "BD", "LK", "NP", "BT", "MV", "TH", "MY", "SG", "ID",
        "BN", "TL", "HK", "MO", "AU", "NZ", "PG", "FJ", "SB", "TO", "WS", "KI", "TV", "NR", "ZA", "NA", "BW", "ZW", "ZM",
        "MW", "MZ", "TZ", "KE", "UG", "LS", "SZ", "MU", "SC", "JM", "BS", "BB", "TT", "GY", "SR", "AG", "DM", "GD", "KN",
        "LC", "VC", "AI", "BM", "KY", "MS", "TC", "VG", "VI", "FK", "SH", "CK", "NU", "TK", "NF", "CX", "CC", "PN",
    ]
}
