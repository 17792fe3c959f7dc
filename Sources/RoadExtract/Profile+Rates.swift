public import OSMPBF

extension Profile {
    /// How much of each direction's speed a way is worth when choosing fastest routes, in percent:
    /// OSRM lib/way_handlers.lua `penalties` (car.lua 26.10). A route's weight is its duration
    /// divided by this share, the duration itself is unchanged.
    ///
    /// On a two-way road: `lane_markings=no` 0.75; a `width` (metres, feet and inches read as
    /// OSRM's `Measure`) of at most 3 m 0.5, under 4 m 0.6, under 5 m 0.75, under 6 m 0.8, replacing
    /// the lane-markings share; `lanes` of at most 1 0.5, replacing both. On any road: a
    /// `servicePenalties` subtype (0.5), `side_road=yes|rotary` 0.8, and the direction that yields
    /// on a `priority=forward|backward` road 0.7. The shares do not multiply: the smallest counts.
    /// (car.lua's 0.4 for `oneway=alternating` never applies: this profile drops such ways.)
    func ratePercents(_ tags: Tags, bidirectional: Bool) -> (forward: UInt8, backward: UInt8) {
        guard ratePenalties else { return (100, 100) }
        var service = 1.0
        if let s = tags["service"], let share = servicePenalties[s] { service = share }
        var width = 1.0
        if bidirectional {
            if tags["lane_markings"] == "no" { width = 0.75 }
            if let w = tags["width"].flatMap(Self.meters) {
                if w <= 3 { width = 0.5 } else if w < 4 { width = 0.6 } else if w < 5 { width = 0.75 } else if w < 6 { width = 0.8 }
            }
            if let lanes = tags["lanes"].flatMap(Self.leadingInteger), lanes <= 1 { width = 0.5 }
        }
        let side = tags["side_road"] == "yes" || tags["side_road"] == "rotary" ? 0.8 : 1
        let shared = min(service, width, side)
        let priority = tags["priority"]
        let forward = priority == "backward" ? min(shared, 0.7) : shared
        let backward = priority == "forward" ? min(shared, 0.7) : shared
        return (UInt8((forward * 100).rounded()), UInt8((backward * 100).rounded()))
    }

    /// The digits a value starts with (`lanes=2;3` is 2), as Lua's `tonumber(s:match("%d*"))`.
    static func leadingInteger(_ value: String) -> Int? {
        Int(String(value.prefix { $0.isASCII && $0.isNumber }))
    }

    /// A length in metres as OSRM's `Measure.parse_value_meters` reads it: the first number
    /// (a decimal comma counts as a point); feet when an apostrophe follows, plus the inches after it.
    static func meters(_ value: String) -> Double? {
        let text = String(value.map { $0 == "," ? "." : $0 })
        guard let n = firstNumber(text) else { return nil }
        guard let mark = text.firstIndex(of: "'") else { return n }
        let inches = firstInteger(text[mark...]) ?? 0
        return (n * 12 + Double(inches)) * 0.0254
    }

    /// Lua's `%d+%.?%d*`: digits, an optional point and more digits.
    private static func firstNumber(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        guard var i = chars.firstIndex(where: isDigit) else { return nil }
        let start = i
        while i < chars.count, isDigit(chars[i]) { i += 1 }
        if i < chars.count, chars[i] == UInt8(ascii: ".") {
            i += 1
            while i < chars.count, isDigit(chars[i]) { i += 1 }
        }
        return Double(String(decoding: chars[start..<i], as: UTF8.self))
    }

    private static func firstInteger(_ text: Substring) -> Int? {
        guard let start = text.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
        return Int(String(text[start...].prefix { $0.isASCII && $0.isNumber }))
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
