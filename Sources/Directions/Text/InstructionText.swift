/// Words instructions in one language from its `Phrasebook`: the plain text, and the same with
/// its parts marked up as TomTom's `tagged` instructions have them (`<street>`, `<roadNumber>`,
/// `<signpostText>`, `<roundaboutExitNumber>`).
public struct InstructionText: Sendable {
    public enum Units: String, Sendable { case metric, imperial }

    /// The tag asked for (`de-DE`), and the table that answers it.
    public let language: String
    public let units: Units
    public let book: Phrasebook

    /// Nil for a language without a table.
    public init?(language: String, units: Units) {
        guard let book = Phrasebook.matching(language) else { return nil }
        self.language = language
        self.units = units
        self.book = book
    }

    /// The languages there are tables for, as base tags (`en`, `de`, …); any region of them is accepted.
    public static var supportedLanguages: [String] { Phrasebook.all.map(\.language) }

    /// A text with and without markup.
    public struct Text: Sendable, Equatable {
        public var plain: String
        public var tagged: String
    }

    /// What one instruction says, before it is worded.
    struct Wording {
        var kind: ManeuverKind
        var direction: TurnDirection
        var street: RoadName
        var sign = Signpost()
        var exitNumber = 0
        var rotaryName = ""
        var arrivalSide: TurnDirection?
        var intoMotorway = false
        /// The bicycle is walked from here on (true) or ridden again (false); nil: no change.
        var walking: Bool?
    }

    func phrase(_ p: Phrase) -> String { book.phrases[p] ?? Phrasebook.english.phrases[p] ?? p.rawValue }

    func render(_ w: Wording) -> Text {
        let named = !w.street.isEmpty
        let destination = w.sign.destinationText
        var key: Phrase
        var signposted = false  // ramps, exits and forks are told by their signs first
        switch w.kind {
        case .depart: key = .depart
        case .arrive: key = w.arrivalSide.map { $0.isLeft ? .arriveLeft : .arriveRight } ?? .arrive
        case .waypoint: key = w.arrivalSide.map { $0.isLeft ? .waypointLeft : .waypointRight } ?? .waypoint
        case .turn, .newName: key = w.kind == .newName && w.direction == .straight ? .straight : Self.turnKey(w.direction)
        case .continue: key = .continue
        case .endOfRoad: key = .endOfRoad
        case .fork:
            key = w.direction.isLeft ? .keepLeft : w.direction.isRight ? .keepRight : .straight
            signposted = true
        case .merge:
            key = w.intoMotorway ? .enterMotorway : .merge
            signposted = true
        case .onRamp:
            key = w.direction.isLeft ? .rampLeft : .rampRight
            signposted = true
        case .offRamp:
            let left = w.direction.isLeft
            key = w.sign.exitNumber.isEmpty ? (left ? .exitLeft : .exitRight) : (left ? .exitNumberLeft : .exitNumberRight)
            signposted = true
        case .uTurn: key = .uTurn
        case .ferry: key = .ferry
        case .roundabout: key = .roundabout
        case .rotary: key = w.rotaryName.isEmpty ? .roundabout : .rotary
        case .roundaboutTurn:
            // Taken like a junction when it turns; straight across or back, its exit is what to say.
            key = [.straight, .uTurn].contains(w.direction) ? .roundabout : .roundaboutTurn
        }
        let isPlace = w.kind == .arrive || w.kind == .waypoint
        let towards = !isPlace && w.kind != .depart && !destination.isEmpty && (!named || signposted)
        if !isPlace && (!named || towards), let unnamed = Phrase(rawValue: key.rawValue + "_UNNAMED") { key = unnamed }
        var plain = fill(phrase(key), w, tagged: false)
        var tagged = fill(phrase(key), w, tagged: true)
        if towards {
            plain = phrase(.towards).replacingAll("{instruction}", plain).replacingAll("{destination}", destination)
            tagged = phrase(.towards).replacingAll("{instruction}", tagged).replacingAll("{destination}", "<signpostText>\(destination)</signpostText>")
        }
        if let walking = w.walking, let change = book.phrases[walking ? .walkBike : .rideBike] {
            plain = change.replacingAll("{instruction}", plain)
            tagged = change.replacingAll("{instruction}", tagged)
        }
        return Text(plain: book.contracting(plain), tagged: book.contracting(tagged))
    }

    static func turnKey(_ d: TurnDirection) -> Phrase {
        switch d {
        case .sharpLeft: .turnSharpLeft
        case .left: .turnLeft
        case .slightLeft: .turnSlightLeft
        case .straight: .straight
        case .slightRight: .turnSlightRight
        case .right: .turnRight
        case .sharpRight: .turnSharpRight
        case .uTurn: .uTurn
        }
    }

    func fill(_ template: String, _ w: Wording, tagged: Bool) -> String {
        var out = template
        if out.contains("{street}") { out = out.replacingAll("{street}", street(w.street, onto: true, tagged: tagged)) }
        if out.contains("{onStreet}") { out = out.replacingAll("{onStreet}", street(w.street, onto: false, tagged: tagged)) }
        if out.contains("{modifier}") { out = out.replacingAll("{modifier}", modifier(w.direction)) }
        if out.contains("{ordinal}") {
            let o = book.ordinal(w.exitNumber)
            out = out.replacingAll("{ordinal}", tagged ? "<roundaboutExitNumber>\(o)</roundaboutExitNumber>" : o)
        }
        if out.contains("{exit}") { out = out.replacingAll("{exit}", tagged ? "<signpostText>\(w.sign.exitNumber)</signpostText>" : w.sign.exitNumber) }
        if out.contains("{rotary}") { out = out.replacingAll("{rotary}", tagged ? "<street>\(w.rotaryName)</street>" : w.rotaryName) }
        return out
    }

    /// A road as said: its article, name and numbers ("die Hauptstraße/B 3").
    func street(_ r: RoadName, onto: Bool, tagged: Bool) -> String {
        let article = book.article(r.name.isEmpty ? (r.refs.first ?? "") : r.name, onto)
        var parts: [String] = []
        if !r.name.isEmpty { parts.append(tagged ? "<street>\(r.name)</street>" : r.name) }
        for ref in r.refs { parts.append(tagged ? "<roadNumber>\(ref)</roadNumber>" : ref) }
        return article + parts.joined(separator: "/")
    }

    func modifier(_ d: TurnDirection) -> String {
        switch d {
        case .sharpLeft: phrase(.modSharpLeft)
        case .left: phrase(.modLeft)
        case .slightLeft: phrase(.modSlightLeft)
        case .straight: phrase(.modStraight)
        case .slightRight: phrase(.modSlightRight)
        case .right: phrase(.modRight)
        case .sharpRight: phrase(.modSharpRight)
        case .uTurn: phrase(.modUTurn)
        }
    }

    /// "Head north on …" for a step that starts a route, `bearing` its compass direction.
    func head(bearing: Double, street r: RoadName, tagged: Bool) -> String {
        let compass: [Phrase] = [.north, .northeast, .east, .southeast, .south, .southwest, .west, .northwest]
        let direction = phrase(compass[Int(((bearing + 22.5) / 45).rounded(.down)) % 8])
        let template = phrase(r.isEmpty ? .headUnnamed : .head)
        return book.contracting(template.replacingAll("{direction}", direction).replacingAll("{onStreet}", street(r, onto: false, tagged: tagged)))
    }

    /// "Exit the roundabout onto …".
    func exitRoundabout(_ r: RoadName) -> String {
        book.contracting(fill(phrase(r.isEmpty ? .exitRoundaboutUnnamed : .exitRoundabout),
                              Wording(kind: .roundabout, direction: .straight, street: r), tagged: false))
    }

    /// This instruction and the next in one sentence.
    func combine(_ first: Text, _ second: Text) -> Text {
        func join(_ a: String, _ b: String) -> String {
            phrase(.then).replacingAll("{first}", a).replacingAll("{second}", Self.lowercasingFirst(b))
        }
        return Text(plain: join(first.plain, second.plain), tagged: join(first.tagged, second.tagged))
    }

    static func lowercasingFirst(_ s: String) -> String {
        guard let first = s.first, first != "<" else { return s }
        return first.lowercased() + s.dropFirst()
    }

    /// A leg's summary: where it leaves from and its main roads.
    func group(from: String, roads: [String], toWaypoint: Bool) -> String {
        let names = roads.isEmpty ? phrase(.theRoute) : phrase(.groupRoads).replacingAll("{roads}", roads.joined(separator: ", "))
        return book.contracting(phrase(toWaypoint ? .groupWaypoint : .group).replacingAll("{from}", from.isEmpty ? phrase(.startPoint) : from)
            .replacingAll("{roads}", names))
    }

    /// A distance for people: "120 m", "1.4 km" (or "1,4 km"), "500 ft", "0.9 mi".
    public func distance(_ meters: Double) -> String {
        switch units {
        case .metric:
            if meters < 1000 { return "\(Int((meters / 10).rounded()) * 10) m" }
            return oneDecimal(meters / 1000) + " km"
        case .imperial:
            let feet = meters * 3.28084
            if feet < 1000 { return "\(Int((feet / 10).rounded()) * 10) ft" }
            return oneDecimal(meters / 1609.344) + " mi"
        }
    }

    /// "Continue for 1.4 km" in this language.
    public func continueFor(_ meters: Double) -> String { book.contracting(phrase(.continueFor).replacingAll("{distance}", distance(meters))) }

    func oneDecimal(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10)\(book.decimalSeparator)\(tenths % 10)"
    }
}
