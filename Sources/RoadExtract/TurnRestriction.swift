public import OSMPBF

/// A turn restriction relation (`type=restriction`), as members and the modes it binds.
public struct TurnRestriction: Sendable, Equatable {
    public enum Kind: Sendable { case prohibitive, mandatory }

    public var relationID: Int64
    public var kind: Kind
    public var fromWays: [Int64]
    public var viaNode: Int64?
    public var viaWays: [Int64]
    public var toWays: [Int64]
    /// What the restriction names, such as `left_turn` or `straight_on` (the value after `no_`/`only_`);
    /// used to pick the right arcs when a way continues on both sides of the via node.
    public var turn: String
    /// Bit i set: the restriction binds the profile at index i of the extraction.
    public var profileMask: UInt8
    /// The weekly schedule during which the restriction holds (`restriction:conditional`, `day_on`/`hour_on`);
    /// nil: always.
    public var schedule: String? = nil

    /// What reading a relation gave: a restriction, or one whose condition is not supported (dropped).
    enum Parsed {
        case restriction(TurnRestriction)
        case unsupportedCondition
    }

    /// Reads a relation; nil when it is not a restriction any of `profiles` obeys, or is incomplete.
    /// A conditional restriction whose condition is not supported is treated as off (`ConditionalTag`).
    static func parse(block: OSMBlock, relation i: Int, profiles: [Profile]) -> Parsed? {
        let tags = block.relationTags(i)
        guard let type = tags["type"], type == "restriction" || type.hasPrefix("restriction:") else { return nil }
        let except = Set((tags["except"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: " ") })
        var mask: UInt8 = 0
        var kind: Kind?
        var turn = ""
        var schedule: String?
        var unsupported = false
        let hours = ConditionalTag.restrictionSchedule(tags)
        for (p, profile) in profiles.enumerated() where !profile.restrictionKeys.isEmpty {
            guard except.isDisjoint(with: profile.restrictionExemptions) else { continue }
            // The most specific key this profile reads decides (restriction:motorcar beats restriction),
            // its conditional form (`restriction:conditional=no_left_turn @ (Mo-Fr 07:00-09:00)`) too.
            var value: String?
            var condition: String?
            for key in profile.restrictionKeys.reversed() {
                if let v = tags[key] { value = v; break }
                if let c = tags[key + ":conditional"] {
                    guard case .supported(let v, let text) = ConditionalTag.read(c) else { unsupported = true; break }
                    (value, condition) = (v, text)
                    break
                }
            }
            if value == nil, !unsupported, type.hasPrefix("restriction:"), profile.restrictionKeys.contains(type) { value = tags["restriction"] }
            guard let value else { continue }
            if condition == nil, let hours {
                guard case .supported(_, let text) = hours else { unsupported = true; continue }
                condition = text
            }
            if value.hasPrefix("no_") {
                kind = .prohibitive
                turn = String(value.dropFirst(3))
            } else if value.hasPrefix("only_") {
                kind = .mandatory
                turn = String(value.dropFirst(5))
            } else {
                continue
            }
            mask |= 1 << UInt8(p)
            schedule = schedule ?? condition
        }
        guard mask != 0, let kind else { return unsupported ? .unsupportedCondition : nil }
        var from: [Int64] = [], to: [Int64] = [], viaWays: [Int64] = []
        var viaNode: Int64?
        for m in block.relationMemberRange(i) {
            let role = block.strings[Int(block.relationMemberRoles[m])]
            let id = block.relationMemberIDs[m]
            switch (role, block.relationMemberTypes[m]) {
            case ("from", .way): from.append(id)
            case ("to", .way): to.append(id)
            case ("via", .node): viaNode = id
            case ("via", .way): viaWays.append(id)
            default: break
            }
        }
        guard !from.isEmpty, !to.isEmpty, (viaNode != nil) != !viaWays.isEmpty else { return nil }
        return .restriction(TurnRestriction(relationID: block.relationIDs[i], kind: kind, fromWays: from, viaNode: viaNode,
                                            viaWays: viaWays, toWays: to, turn: turn, profileMask: mask, schedule: schedule))
    }
}

extension TurnRestriction {
    /// Whether a turn of `angle` degrees (positive = right) is the kind this restriction names.
    func names(angle: Double, isUTurn: Bool) -> Bool {
        switch turn {
        case "left_turn": return angle < -15 && angle > -170 && !isUTurn
        case "right_turn": return angle > 15 && angle < 170 && !isUTurn
        case "straight_on": return abs(angle) < 60 && !isUTurn
        case "u_turn": return isUTurn || abs(angle) > 150
        default: return true
        }
    }
}
