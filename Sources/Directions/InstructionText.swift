/// Instruction text from one template table per language. English (`en-GB`, `en-US`) is the only
/// table today; adding a language means adding a table, not touching the guidance logic.
public struct InstructionText: Sendable {
    public enum Units: String, Sendable { case metric, imperial }

    public let language: String
    public let units: Units
    let table: [String: String]

    public static let supportedLanguages = ["en-GB", "en-US", "en"]

    /// Nil for a language without a table.
    public init?(language: String, units: Units) {
        guard Self.supportedLanguages.contains(where: { $0.caseInsensitiveCompare(language) }) else { return nil }
        self.language = language
        self.units = units
        table = Self.english
    }

    static let english: [String: String] = [
        "DEPART": "Leave from {street}", "DEPART_UNNAMED": "Leave from your start point",
        "HEAD": "Head {direction} on {street}", "HEAD_UNNAMED": "Head {direction}",
        "STRAIGHT": "Continue onto {street}", "STRAIGHT_UNNAMED": "Continue straight on",
        "FOLLOW": "Follow {street}",
        "TURN_LEFT": "Turn left onto {street}", "TURN_LEFT_UNNAMED": "Turn left",
        "TURN_RIGHT": "Turn right onto {street}", "TURN_RIGHT_UNNAMED": "Turn right",
        "BEAR_LEFT": "Bear left onto {street}", "BEAR_LEFT_UNNAMED": "Bear left",
        "BEAR_RIGHT": "Bear right onto {street}", "BEAR_RIGHT_UNNAMED": "Bear right",
        "SHARP_LEFT": "Make a sharp left onto {street}", "SHARP_LEFT_UNNAMED": "Make a sharp left",
        "SHARP_RIGHT": "Make a sharp right onto {street}", "SHARP_RIGHT_UNNAMED": "Make a sharp right",
        "KEEP_LEFT": "Keep left onto {street}", "KEEP_LEFT_UNNAMED": "Keep left",
        "KEEP_RIGHT": "Keep right onto {street}", "KEEP_RIGHT_UNNAMED": "Keep right",
        "MAKE_UTURN": "Make a U-turn onto {street}", "MAKE_UTURN_UNNAMED": "Make a U-turn",
        "ENTER_MOTORWAY": "Join the motorway {street}", "ENTER_MOTORWAY_UNNAMED": "Join the motorway",
        "TAKE_EXIT": "Take the exit onto {street}", "TAKE_EXIT_UNNAMED": "Take the exit",
        "MOTORWAY_EXIT_LEFT": "Take the exit on the left onto {street}", "MOTORWAY_EXIT_LEFT_UNNAMED": "Take the exit on the left",
        "MOTORWAY_EXIT_RIGHT": "Take the exit on the right onto {street}", "MOTORWAY_EXIT_RIGHT_UNNAMED": "Take the exit on the right",
        "TAKE_FERRY": "Take the ferry {street}", "TAKE_FERRY_UNNAMED": "Take the ferry",
        "ROUNDABOUT": "At the roundabout take the {ordinal} exit onto {street}", "ROUNDABOUT_UNNAMED": "At the roundabout take the {ordinal} exit",
        "ARRIVE": "You have arrived", "ARRIVE_LEFT": "You have arrived. Your destination is on the left",
        "ARRIVE_RIGHT": "You have arrived. Your destination is on the right",
        "WAYPOINT_REACHED": "You have reached your waypoint", "WAYPOINT_LEFT": "You have reached your waypoint. It is on the left",
        "WAYPOINT_RIGHT": "You have reached your waypoint. It is on the right",
        "THEN": "{first} then {second}", "GROUP": "Leave from {from}. Take {roads} to your destination",
        "GROUP_WAYPOINT": "Leave from {from}. Take {roads} to your waypoint",
        "NORTH": "north", "NORTHEAST": "northeast", "EAST": "east", "SOUTHEAST": "southeast", "SOUTH": "south",
        "SOUTHWEST": "southwest", "WEST": "west", "NORTHWEST": "northwest",
    ]

    /// The text for a template key with `{street}`, `{ordinal}`, `{direction}` filled in; falls back to
    /// the `_UNNAMED` form when the street is empty.
    func text(_ key: String, street: String = "", exit: Int = 0, direction: String = "") -> String {
        let chosen = street.isEmpty ? (table[key + "_UNNAMED"] ?? table[key] ?? key) : (table[key] ?? key)
        return chosen.replacingAll("{street}", street).replacingAll("{ordinal}", ordinal(exit))
            .replacingAll("{direction}", table[direction] ?? direction.lowercased())
    }

    func combine(_ first: String, _ second: String) -> String {
        let lowered = second.prefix(1).lowercased() + second.dropFirst()
        return (table["THEN"] ?? "{first} then {second}").replacingAll("{first}", first).replacingAll("{second}", lowered)
    }

    func group(from: String, roads: [String], toWaypoint: Bool) -> String {
        let names = roads.isEmpty ? "the route" : "the " + roads.joined(separator: ", ")
        return (table[toWaypoint ? "GROUP_WAYPOINT" : "GROUP"] ?? "").replacingAll("{from}", from.isEmpty ? "your start point" : from)
            .replacingAll("{roads}", names)
    }

    func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 10, n % 100) {
        case (1, let h) where h != 11: suffix = "st"
        case (2, let h) where h != 12: suffix = "nd"
        case (3, let h) where h != 13: suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }

    /// A distance for people: "120 m", "1.4 km" or "500 ft", "0.9 mi".
    public func distance(_ meters: Double) -> String {
        switch units {
        case .metric:
            if meters < 1000 { return "\(Int((meters / 10).rounded()) * 10) m" }
            return String(format1(meters / 1000)) + " km"
        case .imperial:
            let feet = meters * 3.28084
            if feet < 1000 { return "\(Int((feet / 10).rounded()) * 10) ft" }
            return format1(meters / 1609.344) + " mi"
        }
    }

    func format1(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension String {
    func caseInsensitiveCompare(_ other: String) -> Bool { lowercased() == other.lowercased() }

    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        return components(separatedBy: target).joined(separator: replacement)
    }

    func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var rest = Substring(self)
        while !rest.isEmpty {
            if rest.hasPrefix(separator) {
                parts.append(current)
                current = ""
                rest = rest.dropFirst(separator.count)
            } else {
                current.append(rest.removeFirst())
            }
        }
        parts.append(current)
        return parts
    }
}
