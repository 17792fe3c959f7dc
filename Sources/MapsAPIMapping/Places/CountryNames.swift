import Foundation

/// English names and ISO alpha-3 codes for the countries TomTom-shaped addresses name.
enum CountryNames {
    static let table: [String: (name: String, iso3: String)] = [
        "AD": ("Andorra", "AND"), "AT": ("Austria", "AUT"), "AU": ("Australia", "AUS"), "BE": ("Belgium", "BEL"),
        "BG": ("Bulgaria", "BGR"), "BR": ("Brazil", "BRA"), "CA": ("Canada", "CAN"), "CH": ("Switzerland", "CHE"),
        "CN": ("China", "CHN"), "CY": ("Cyprus", "CYP"), "CZ": ("Czechia", "CZE"), "DE": ("Germany", "DEU"),
        "DK": ("Denmark", "DNK"), "EE": ("Estonia", "EST"), "ES": ("Spain", "ESP"), "FI": ("Finland", "FIN"),
        "FR": ("France", "FRA"), "GB": ("United Kingdom", "GBR"), "GR": ("Greece", "GRC"), "HR": ("Croatia", "HRV"),
        "HU": ("Hungary", "HUN"), "IE": ("Ireland", "IRL"), "IL": ("Israel", "ISR"), "IN": ("India", "IND"),
        "IS": ("Iceland", "ISL"), "IT": ("Italy", "ITA"), "JP": ("Japan", "JPN"), "KR": ("South Korea", "KOR"),
        "LI": ("Liechtenstein", "LIE"), "LT": ("Lithuania", "LTU"), "LU": ("Luxembourg", "LUX"), "LV": ("Latvia", "LVA"),
        "MC": ("Monaco", "MCO"), "MT": ("Malta", "MLT"), "MX": ("Mexico", "MEX"), "NL": ("Netherlands", "NLD"),
        "NO": ("Norway", "NOR"), "NZ": ("New Zealand", "NZL"), "PL": ("Poland", "POL"), "PT": ("Portugal", "PRT"),
        "RO": ("Romania", "ROU"), "RS": ("Serbia", "SRB"), "RU": ("Russia", "RUS"), "SE": ("Sweden", "SWE"),
        "SI": ("Slovenia", "SVN"), "SK": ("Slovakia", "SVK"), "SM": ("San Marino", "SMR"), "TR": ("Turkey", "TUR"),
        "UA": ("Ukraine", "UKR"), "US": ("United States", "USA"), "VA": ("Vatican City", "VAT"), "ZA": ("South Africa", "ZAF"),
    ]

    static func name(_ code: String?) -> String? { code.flatMap { table[$0.uppercased()]?.name } }
    static func iso3(_ code: String?) -> String? { code.flatMap { table[$0.uppercased()]?.iso3 } }
}

extension CountryNames {
    /// Names countries go by in their own languages, for Nominatim's `country=` (upper-case ISO code by folded name).
    static let nativeNames: [String: String] = [
        "andorra": "AD", "osterreich": "AT", "belgique": "BE", "belgie": "BE", "belgien": "BE", "schweiz": "CH", "suisse": "CH",
        "svizzera": "CH", "svizra": "CH", "cesko": "CZ", "deutschland": "DE", "danmark": "DK", "eesti": "EE", "espana": "ES",
        "suomi": "FI", "france": "FR", "hellas": "GR", "ellada": "GR", "hrvatska": "HR", "magyarorszag": "HU", "eire": "IE",
        "island": "IS", "italia": "IT", "lietuva": "LT", "letzebuerg": "LU", "luxembourg": "LU", "latvija": "LV", "nederland": "NL",
        "norge": "NO", "polska": "PL", "portugal": "PT", "romania": "RO", "srbija": "RS", "sverige": "SE", "slovenija": "SI",
        "slovensko": "SK", "turkiye": "TR", "ukraina": "UA", "uk": "GB", "usa": "US", "monaco": "MC", "liechtenstein": "LI",
    ]
}

/// ISO 3166-1 alpha-2 codes for what people write in a country field: the code itself, the English
/// name, or the name in the country's own language ("Suomi", "Deutschland").
public enum CountryCodes {
    public static func code(for text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count == 2, trimmed.allSatisfy({ $0.isASCII && $0.isLetter }) { return trimmed.uppercased() }
        let folded = trimmed.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        if let code = CountryNames.nativeNames[folded] { return code }
        return CountryNames.table.first { $0.value.name.lowercased() == folded }?.key
    }
}
