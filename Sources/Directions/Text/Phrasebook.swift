/// The phrases of instructions in one language, written as Swift values: templates with
/// `{street}` (the road taken, in the form for "onto"), `{onStreet}` (the road one is on),
/// `{modifier}`, `{direction}`, `{ordinal}`, `{exit}`, `{destination}`, `{rotary}`, `{first}`,
/// `{second}`, `{from}`, `{roads}` and `{distance}`; ordinals; how street names take articles;
/// and how numbers are written.
public struct Phrasebook: Sendable {
    /// The base language tag (`de`, `nb`, …) and the tags it answers to besides `xx-YY` forms.
    public let language: String
    public let aliases: [String]
    public let phrases: [Phrase: String]
    /// Ordinals for 1…10 as used before "exit"; beyond, `ordinalFormat` with `{n}`.
    public let ordinals: [String]
    public let ordinalFormat: String
    public let decimalSeparator: String
    /// The article (with its space or apostrophe) a street name takes, in the "onto" and the "on" form.
    public let article: @Sendable (_ name: String, _ onto: Bool) -> String
    /// Words that merge once a street's article is in place ("de le" → "du", "em a" → "na").
    public let contractions: [(String, String)]

    public init(language: String, aliases: [String] = [], phrases: [Phrase: String], ordinals: [String], ordinalFormat: String,
                decimalSeparator: String, article: @escaping @Sendable (String, Bool) -> String = { _, _ in "" },
                contractions: [(String, String)] = []) {
        self.language = language
        self.aliases = aliases
        self.phrases = phrases
        self.ordinals = ordinals
        self.ordinalFormat = ordinalFormat
        self.decimalSeparator = decimalSeparator
        self.article = article
        self.contractions = contractions
    }

    /// A text with this language's contractions made.
    func contracting(_ text: String) -> String {
        contractions.reduce(text) { $0.replacingAll($1.0, $1.1) }
    }

    /// The first word of a name, lowercased (for articles chosen by a street's kind).
    static func firstWord(_ name: String) -> String {
        String(name.split(whereSeparator: { $0 == " " || $0 == "-" }).first ?? "").lowercased()
    }

    /// The last word of a name, lowercased.
    static func lastWord(_ name: String) -> String {
        String(name.split(whereSeparator: { $0 == " " }).last ?? "").lowercased()
    }

    /// Whether a name is a road number (`A 5`, `D6007`, `N 13`, `IC1`): letters then digits.
    static func isRoadNumber(_ name: String) -> Bool {
        let compact = name.filter { $0 != " " && $0 != "-" && $0 != "." }
        guard let firstDigit = compact.firstIndex(where: \.isNumber), firstDigit != compact.startIndex else { return false }
        return compact[..<firstDigit].allSatisfy(\.isLetter) && compact[firstDigit...].allSatisfy { $0.isNumber || $0.isLetter }
            && compact[..<firstDigit].count <= 3
    }

    public func ordinal(_ n: Int) -> String {
        n >= 1 && n <= ordinals.count ? ordinals[n - 1] : ordinalFormat.replacingAll("{n}", String(n))
    }

    /// Every table, English first.
    public static let all: [Phrasebook] = [.english, .german, .french, .italian, .spanish, .portuguese, .dutch, .finnish,
                                           .swedish, .danish, .norwegian, .polish]

    /// The table for an IETF tag (`de`, `de-AT`, `nb-NO`, `no`), nil when none fits.
    public static func matching(_ tag: String) -> Phrasebook? {
        let lower = tag.lowercased().replacingAll("_", "-")
        let base = lower.split(separator: "-").first.map(String.init) ?? lower
        return all.first { $0.language == base || $0.aliases.contains(lower) || $0.aliases.contains(base) }
    }
}

/// The keys of every phrase table; English has them all, and so must every other language.
public enum Phrase: String, Sendable, CaseIterable {
    case depart = "DEPART", departUnnamed = "DEPART_UNNAMED"
    case head = "HEAD", headUnnamed = "HEAD_UNNAMED"
    case turnSharpLeft = "TURN_SHARP_LEFT", turnSharpLeftUnnamed = "TURN_SHARP_LEFT_UNNAMED"
    case turnLeft = "TURN_LEFT", turnLeftUnnamed = "TURN_LEFT_UNNAMED"
    case turnSlightLeft = "TURN_SLIGHT_LEFT", turnSlightLeftUnnamed = "TURN_SLIGHT_LEFT_UNNAMED"
    case turnSlightRight = "TURN_SLIGHT_RIGHT", turnSlightRightUnnamed = "TURN_SLIGHT_RIGHT_UNNAMED"
    case turnRight = "TURN_RIGHT", turnRightUnnamed = "TURN_RIGHT_UNNAMED"
    case turnSharpRight = "TURN_SHARP_RIGHT", turnSharpRightUnnamed = "TURN_SHARP_RIGHT_UNNAMED"
    case straight = "STRAIGHT", straightUnnamed = "STRAIGHT_UNNAMED"
    case `continue` = "CONTINUE", continueUnnamed = "CONTINUE_UNNAMED"
    case endOfRoad = "END_OF_ROAD", endOfRoadUnnamed = "END_OF_ROAD_UNNAMED"
    case keepLeft = "KEEP_LEFT", keepLeftUnnamed = "KEEP_LEFT_UNNAMED"
    case keepRight = "KEEP_RIGHT", keepRightUnnamed = "KEEP_RIGHT_UNNAMED"
    case merge = "MERGE", mergeUnnamed = "MERGE_UNNAMED"
    case enterMotorway = "ENTER_MOTORWAY", enterMotorwayUnnamed = "ENTER_MOTORWAY_UNNAMED"
    case rampLeft = "RAMP_LEFT", rampLeftUnnamed = "RAMP_LEFT_UNNAMED"
    case rampRight = "RAMP_RIGHT", rampRightUnnamed = "RAMP_RIGHT_UNNAMED"
    case exitLeft = "EXIT_LEFT", exitLeftUnnamed = "EXIT_LEFT_UNNAMED"
    case exitRight = "EXIT_RIGHT", exitRightUnnamed = "EXIT_RIGHT_UNNAMED"
    case exitNumberLeft = "EXIT_NUMBER_LEFT", exitNumberLeftUnnamed = "EXIT_NUMBER_LEFT_UNNAMED"
    case exitNumberRight = "EXIT_NUMBER_RIGHT", exitNumberRightUnnamed = "EXIT_NUMBER_RIGHT_UNNAMED"
    case towards = "TOWARDS"
    case uTurn = "UTURN", uTurnUnnamed = "UTURN_UNNAMED"
    case ferry = "FERRY", ferryUnnamed = "FERRY_UNNAMED"
    case walkBike = "WALK_BIKE", rideBike = "RIDE_BIKE"
    case roundabout = "ROUNDABOUT", roundaboutUnnamed = "ROUNDABOUT_UNNAMED"
    case rotary = "ROTARY", rotaryUnnamed = "ROTARY_UNNAMED"
    case roundaboutTurn = "ROUNDABOUT_TURN", roundaboutTurnUnnamed = "ROUNDABOUT_TURN_UNNAMED"
    case exitRoundabout = "EXIT_ROUNDABOUT", exitRoundaboutUnnamed = "EXIT_ROUNDABOUT_UNNAMED"
    case arrive = "ARRIVE", arriveLeft = "ARRIVE_LEFT", arriveRight = "ARRIVE_RIGHT"
    case waypoint = "WAYPOINT", waypointLeft = "WAYPOINT_LEFT", waypointRight = "WAYPOINT_RIGHT"
    case then = "THEN", group = "GROUP", groupWaypoint = "GROUP_WAYPOINT", groupRoads = "GROUP_ROADS"
    case startPoint = "START_POINT", theRoute = "THE_ROUTE", continueFor = "CONTINUE_FOR"
    case north = "NORTH", northeast = "NORTHEAST", east = "EAST", southeast = "SOUTHEAST"
    case south = "SOUTH", southwest = "SOUTHWEST", west = "WEST", northwest = "NORTHWEST"
    case modSharpLeft = "MOD_SHARP_LEFT", modLeft = "MOD_LEFT", modSlightLeft = "MOD_SLIGHT_LEFT", modStraight = "MOD_STRAIGHT"
    case modSlightRight = "MOD_SLIGHT_RIGHT", modRight = "MOD_RIGHT", modSharpRight = "MOD_SHARP_RIGHT", modUTurn = "MOD_UTURN"
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.range(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        guard let first = target.first else { return nil }
        var i = startIndex
        while let start = self[i...].firstIndex(of: first) {
            if self[start...].hasPrefix(target) { return start..<index(start, offsetBy: target.count) }
            i = index(after: start)
        }
        return nil
    }
}
