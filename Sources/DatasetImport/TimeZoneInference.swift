import Foundation
import GeoCore
import RoadExtract

/// Chooses a dataset's IANA time zone when `--timezone` is not given, from the best evidence:
/// 1. `timezone=*` tags on boundary relations in the extract;
/// 2. the `ISO3166-1` code of a country boundary in the extract;
/// 3. the extract's centre inside a country's box (a coarse built-in table, smallest box wins);
/// 4. failing all, a fixed-offset zone from the longitude (`Etc/GMT-2` for 30°E), said plainly.
enum TimeZoneInference {
    static func infer(hints: TimeZoneHints, center: Coordinate) -> (zone: String, source: String) {
        if let (zone, _) = hints.timezoneTags.max(by: { $0.value < $1.value }), TimeZone(identifier: zone) != nil {
            return (zone, "timezone tag in the extract")
        }
        if hints.mostFrequentCountry != nil, let code = country(hints: hints, center: center),
           let zone = countries.first(where: { $0.code == code })?.zone {
            return (zone, "country code \(code) in the extract")
        }
        let lat = center.latitude, lon = center.longitude
        let containing = countries.filter { $0.south <= lat && lat <= $0.north && $0.west <= lon && lon <= $0.east }
        if let best = containing.min(by: { ($0.north - $0.south) * ($0.east - $0.west) < ($1.north - $1.south) * ($1.east - $1.west) }) {
            return (best.zone, "location (inside \(best.code))")
        }
        let hours = Int((lon / 15).rounded())
        let zone = hours == 0 ? "Etc/UTC" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
        return (zone, "longitude (no country matched; pass --timezone for daylight saving)")
    }

    /// The extract's country: of the countries its boundaries name (an extract often holds its
    /// neighbours' too: Liechtenstein's names Austria and Switzerland), the one whose box holds
    /// `center`, else the most frequent; with no boundary, the smallest country box around `center`
    /// (when given); nil when neither tells.
    static func country(hints: TimeZoneHints, center: Coordinate?) -> String? {
        let around = center.map { c in
            countries.filter { $0.south <= c.latitude && c.latitude <= $0.north && $0.west <= c.longitude && c.longitude <= $0.east }
                .sorted { ($0.north - $0.south) * ($0.east - $0.west) < ($1.north - $1.south) * ($1.east - $1.west) }.map(\.code)
        } ?? []
        if let named = hints.mostFrequentCountry {
            return around.first { hints.countryCodes[$0] != nil } ?? named
        }
        return around.first
    }

    /// Approximate country boxes (degrees) with their main zone.
    static let countries: [(code: String, zone: String, south: Double, west: Double, north: Double, east: Double)] = [
        ("MC", "Europe/Monaco", 43.72, 7.40, 43.76, 7.44),
        ("VA", "Europe/Vatican", 41.90, 12.44, 41.91, 12.46),
        ("SM", "Europe/San_Marino", 43.89, 12.40, 43.99, 12.52),
        ("LI", "Europe/Vaduz", 47.04, 9.47, 47.28, 9.64),
        ("AD", "Europe/Andorra", 42.42, 1.40, 42.66, 1.79),
        ("LU", "Europe/Luxembourg", 49.44, 5.73, 50.19, 6.53),
        ("MT", "Europe/Malta", 35.78, 14.18, 36.09, 14.58),
        ("CY", "Asia/Nicosia", 34.56, 32.26, 35.70, 34.60),
        ("SI", "Europe/Ljubljana", 45.42, 13.38, 46.88, 16.61),
        ("ME", "Europe/Podgorica", 41.85, 18.43, 43.56, 20.36),
        ("BE", "Europe/Brussels", 49.49, 2.54, 51.51, 6.41),
        ("NL", "Europe/Amsterdam", 50.75, 3.36, 53.56, 7.23),
        ("CH", "Europe/Zurich", 45.82, 5.96, 47.81, 10.49),
        ("DK", "Europe/Copenhagen", 54.56, 8.07, 57.75, 15.20),
        ("EE", "Europe/Tallinn", 57.51, 21.76, 59.68, 28.21),
        ("LV", "Europe/Riga", 55.67, 20.97, 58.09, 28.24),
        ("LT", "Europe/Vilnius", 53.90, 20.95, 56.45, 26.84),
        ("AT", "Europe/Vienna", 46.37, 9.53, 49.02, 17.16),
        ("CZ", "Europe/Prague", 48.55, 12.09, 51.06, 18.86),
        ("SK", "Europe/Bratislava", 47.73, 16.83, 49.61, 22.57),
        ("HU", "Europe/Budapest", 45.74, 16.11, 48.59, 22.90),
        ("IE", "Europe/Dublin", 51.42, -10.48, 55.39, -5.99),
        ("PT", "Europe/Lisbon", 36.96, -9.53, 42.15, -6.19),
        ("GR", "Europe/Athens", 34.80, 19.37, 41.75, 28.25),
        ("BG", "Europe/Sofia", 41.23, 22.36, 44.22, 28.61),
        ("RO", "Europe/Bucharest", 43.62, 20.26, 48.27, 29.69),
        ("HR", "Europe/Zagreb", 42.39, 13.49, 46.56, 19.45),
        ("RS", "Europe/Belgrade", 42.23, 18.82, 46.19, 23.01),
        ("BA", "Europe/Sarajevo", 42.56, 15.72, 45.28, 19.62),
        ("GB", "Europe/London", 49.86, -8.65, 60.86, 1.77),
        ("IS", "Atlantic/Reykjavik", 63.30, -24.55, 66.57, -13.49),
        ("IT", "Europe/Rome", 36.62, 6.63, 47.09, 18.52),
        ("DE", "Europe/Berlin", 47.27, 5.87, 55.06, 15.04),
        ("PL", "Europe/Warsaw", 49.00, 14.12, 54.84, 24.15),
        ("FI", "Europe/Helsinki", 59.70, 20.55, 70.09, 31.59),
        ("ES", "Europe/Madrid", 36.00, -9.30, 43.79, 4.33),
        ("FR", "Europe/Paris", 42.33, -4.79, 51.09, 8.23),
        ("NO", "Europe/Oslo", 57.96, 4.64, 71.19, 31.07),
        ("SE", "Europe/Stockholm", 55.34, 11.03, 69.06, 24.17),
        ("UA", "Europe/Kyiv", 44.39, 22.14, 52.38, 40.23),
        ("TR", "Europe/Istanbul", 35.82, 25.66, 42.11, 44.82),
        ("JP", "Asia/Tokyo", 24.04, 122.93, 45.55, 145.82),
        ("NZ", "Pacific/Auckland", -47.29, 166.43, -34.39, 178.57),
        ("AU", "Australia/Sydney", -43.64, 113.34, -10.67, 153.57),
        ("BR", "America/Sao_Paulo", -33.75, -73.99, 5.27, -34.79),
        ("US", "America/New_York", 24.52, -87.63, 47.46, -66.95),
        ("CA", "America/Toronto", 41.68, -95.15, 56.86, -52.62),
    ]
}
