public import OSMPBF

/// Parses OSM `maxspeed=*` values into km/h.
///
/// Handles plain numbers ("50"), units ("30 mph", "20 knots", "50 km/h"), several values
/// ("50;30", the lowest wins), and the implicit zone values `CC:zone` ("FI:urban", "RU:rural",
/// "DE:motorway", "FR:zone30"), plus "walk" and "none". Unknown values give nil, so the road
/// keeps its class speed.
public enum MaxSpeed {
    public static func kmh(_ value: String) -> Double? {
        let parts = value.split(separator: ";")
        if parts.count > 1 {
            return parts.compactMap { kmh(String($0)) }.min()
        }
        let text = value.trimmingCharacters(in: " ").lowercased()
        if text.isEmpty { return nil }
        if let zone = zoneSpeeds[text] { return zone }
        if text == "walk" { return 7 }
        if text == "none" { return 140 }
        if text.contains(":") {
            let pieces = text.split(separator: ":", maxSplits: 1)
            let zone = String(pieces.last ?? "")
            if zone.hasPrefix("zone"), let n = Double(zone.dropFirst(4).filter(\.isNumber)) { return n }
            return genericZones[zone]
        }
        var number = ""
        var rest = Substring(text)
        while let c = rest.first, c.isNumber || c == "." {
            number.append(c)
            rest = rest.dropFirst()
        }
        guard let n = Double(number), n > 0 else { return nil }
        let unit = rest.trimmingCharacters(in: " ")
        switch unit {
        case "", "km/h", "kmh", "kph", "kmph": return n
        case "mph", "mp/h": return n * 1.609344
        case "knots", "knot", "kn": return n * 1.852
        default: return nil
        }
    }

    /// Keys that give a way's speed, the first that parses deciding (OSRM car.lua's order): the
    /// advisory speed drivers are asked to keep (bends, ramps), the limit, then the zone a limit
    /// was derived from (`source:maxspeed=DE:urban`, `maxspeed:type=US:urban`) where no limit is set.
    static let signedKeys = ["maxspeed:advisory", "maxspeed", "source:maxspeed", "maxspeed:type"]

    /// The speeds signed for each direction of a way (`KEY:forward`/`KEY:backward` before `KEY`),
    /// km/h; nil where no key gives one.
    public static func signed(_ tags: Tags) -> (forward: Double?, backward: Double?) {
        var forward: Double?, backward: Double?
        for key in signedKeys where forward == nil || backward == nil {
            let both = tags[key].flatMap(kmh)
            forward = forward ?? tags[key + ":forward"].flatMap(kmh) ?? both
            backward = backward ?? tags[key + ":backward"].flatMap(kmh) ?? both
        }
        return (forward, backward)
    }

    /// Country zone values that are not urban/rural defaults.
    static let zoneSpeeds: [String: Double] = [
        "fi:urban": 50, "fi:rural": 80, "fi:motorway": 120, "fi:trunk": 100,
        "ru:urban": 60, "ru:rural": 90, "ru:motorway": 110, "ru:living_street": 20,
        "de:urban": 50, "de:rural": 100, "de:motorway": 140, "de:living_street": 7, "de:bicycle_road": 30,
        "fr:urban": 50, "fr:rural": 80, "fr:motorway": 130, "fr:zone30": 30,
        "it:urban": 50, "it:rural": 90, "it:motorway": 130, "it:trunk": 110,
        "pt:urban": 50, "pt:rural": 90, "pt:motorway": 120, "pt:trunk": 100,
        "es:urban": 50, "es:rural": 90, "es:motorway": 120, "es:trunk": 100,
        "dk:urban": 50, "dk:rural": 80, "dk:motorway": 130,
        "ch:urban": 50, "ch:rural": 80, "ch:trunk": 100, "ch:motorway": 120,
        "at:urban": 50, "at:rural": 100, "at:trunk": 100, "at:motorway": 130,
        "li:urban": 50, "li:rural": 80,
        "ad:urban": 50, "ad:rural": 90,
        "mc:urban": 50,
        "gb:nsl_single": 96.56, "gb:nsl_dual": 112.65, "gb:motorway": 112.65, "uk:nsl_single": 96.56,
        "uk:nsl_dual": 112.65, "uk:motorway": 112.65,
        "nl:urban": 50, "nl:rural": 80, "nl:trunk": 100, "nl:motorway": 130,
        "be:urban": 50, "be:rural": 70, "be:motorway": 120,
        "se:urban": 50, "se:rural": 70, "se:motorway": 110,
        "no:urban": 50, "no:rural": 80, "no:motorway": 110,
        "pl:urban": 50, "pl:rural": 90, "pl:motorway": 140,
        "cz:urban": 50, "cz:rural": 90, "cz:motorway": 130,
        "ua:urban": 50, "ua:rural": 90, "ua:motorway": 130,
    ]

    /// Fallbacks for zones of countries not listed, as OSRM's maxspeed_table_default.
    static let genericZones: [String: Double] = [
        "urban": 50, "rural": 90, "trunk": 110, "motorway": 130, "living_street": 10, "walk": 7,
    ]
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
