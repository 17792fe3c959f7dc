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
