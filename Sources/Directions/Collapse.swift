import GeoCore
import RoadNetwork

/// Folds candidate steps that a driver does not take as separate decisions into one, after the
/// collapsing in OSRM's guidance post-processing: the short pieces of road inside a junction or
/// between the carriageways of a dual road, a turn onto a slip road and off it again, a name
/// that changes for a few metres, or a U-turn made of two turns.
struct Collapse {
    let facts: RoadFacts
    let drivingSide: DrivingSide

    /// Steps this close (metres, with no junction between) are one decision.
    static let shortMeters = 30.0
    /// A name held for less than this (metres) is not announced when another follows at once.
    static let nameSegmentMeters = 105.0

    func leg(_ input: [RawStep]) -> [RawStep] {
        var s = input
        // A junction at the very point of departure is not driven through: the departure already
        // says the road the route leaves on (a start snapped onto a fork's node gave a fork at 0 m).
        // At a later leg's start the driver arrives through the junction, so its turn stays.
        while s.count > 2, s[0].kind == .depart, s[0].leg == 0, !s[1].isWaypoint, !s[1].isRoundabout, s[1].offsetMeters - s[0].offsetMeters < 1 {
            s[0].toArc = s[1].toArc
            s[0].intersections += s[1].intersections
            s.remove(at: 1)
        }
        // A new name that only brings back the name the last instruction gave (after a stretch
        // with none) is no news.
        var k = 1
        while k + 1 < s.count {
            if s[k].kind == .newName && !changesMode(s[k]) && !facts.name(s[k - 1].toArc).needsAnnouncing(facts.name(s[k].toArc)) {
                s[k - 1].intersections += s[k].intersections
                s.remove(at: k)
            } else {
                k += 1
            }
        }
        var i = 1
        // Every rule that applies removes a step, so this ends.
        while i + 2 < s.count {
            if fold(&s, i) { i = max(1, i - 1) } else { i += 1 }
        }
        return s
    }

    /// Tries each rule on steps `i` and `i + 1` (neither a waypoint); true when one applied.
    func fold(_ s: inout [RawStep], _ i: Int) -> Bool {
        let j = i + 1
        guard !s[i].isWaypoint, !s[j].isWaypoint, !s[i].isRoundabout, !s[j].isRoundabout else { return false }
        guard !changesMode(s[i]), !changesMode(s[j]) else { return false }
        let d = s[j].offsetMeters - s[i].offsetMeters
        let short = d <= Self.shortMeters && s[i].silentJunctions == 0
        let a = s[i], b = s[j]
        let total = Geodesy.turnAngle(from: a.bearingBefore, to: b.bearingAfter)
        let nameBefore = facts.name(a.fromArc), nameAfter = facts.name(b.toArc)

        // Two turns the same way across the gap of a dual carriageway, back onto the same road: one U-turn.
        if isTurnLike(a) && isTurnLike(b) && abs(total) >= 145 && (a.angle < 0) == (b.angle < 0)
            && !nameBefore.needsAnnouncing(nameAfter)
            && (short || (facts.name(a.toArc).isEmpty && d <= 2 * Self.shortMeters && a.silentJunctions == 0) || b.alternatives == 0) {
            merge(&s, i)
            s[i].kind = .uTurn
            s[i].direction = .uTurn
            return true
        }
        // A staggered crossing: left then right (or right then left) within a few metres goes straight on.
        if isTurnLike(a) && isTurnLike(b) && d < 3 && a.silentJunctions == 0
            && ((isSquareLeft(a.angle) && isSquareRight(b.angle)) || (isSquareRight(a.angle) && isSquareLeft(b.angle))) {
            merge(&s, i)
            if nameBefore.needsAnnouncing(nameAfter) {
                s[i].kind = .newName
                s[i].direction = .straight
            } else {
                s.remove(at: i)
            }
            return true
        }
        // A name that changes and changes back: neither is worth saying.
        if isNameChange(a) && isNameChange(b) && !nameBefore.needsAnnouncing(nameAfter) {
            s.removeSubrange(i...j)
            return true
        }
        // Two new names in a row, the first for a short stretch (OSRM's name-segment cut-off,
        // 105 m): only the second is worth saying, where the first name began.
        if isNameChange(a) && isNameChange(b) && d <= Self.nameSegmentMeters {
            merge(&s, i)
            if !retype(&s[i]) { s.remove(at: i) }
            return true
        }
        // A few metres of another name just before a turn (a little more where the name changed
        // with no choice to make): the turn is what counts.
        let choicelessName = a.alternatives == 0 && d <= 1.5 * Self.shortMeters && a.silentJunctions == 0
        if isNameChange(a) && (short || choicelessName) && isManeuver(b) && b.kind != .newName {
            s[j].fromArc = a.fromArc
            if isTurnLike(b) { s[j].bearingBefore = a.bearingBefore }
            s.remove(at: i)
            if !retype(&s[i]) { s.remove(at: i) }
            return true
        }
        // A turn and, a few metres on, the road's name changes: say the turn onto the new name.
        let choiceless = b.alternatives == 0
        if isManeuver(a) && a.kind != .newName && isNameChange(b)
            && (short || (d <= 1.5 * Self.shortMeters && ((b.kind == .newName && b.direction == .straight) || choiceless))) {
            merge(&s, i)
            if !retype(&s[i]) { s.remove(at: i) }
            return true
        }
        // A turn and then, close by, a bend where there was no choice: one turn.
        if isManeuver(a) && isTurnLike(b) && choiceless && short {
            merge(&s, i)
            if !retype(&s[i]) { s.remove(at: i) }
            return true
        }
        // Two turns the same way inside one junction (across a median): one turn by their total angle.
        if isTurnLike(a) && isTurnLike(b) && d < 0.8 * Self.shortMeters && a.silentJunctions <= 1 && (a.angle < 0) == (b.angle < 0)
            && abs(total) > 20 && abs(total) < 145 {
            merge(&s, i)
            if !retype(&s[i]) { s.remove(at: i) }
            return true
        }
        // A slip road: bearing off to the kerb side onto a short link, then onto the other road.
        if isSliproad(a, d: d) && [.turn, .continue, .merge, .newName, .endOfRoad].contains(b.kind) && !facts.roadClass(b.toArc).isLink {
            merge(&s, i)
            s[i].kind = .turn
            if !retype(&s[i]) { s.remove(at: i) }
            return true
        }
        return false
    }

    func isSliproad(_ a: RawStep, d: Double) -> Bool {
        guard [.turn, .onRamp, .fork, .newName].contains(a.kind), d <= 120, a.silentJunctions == 0 else { return false }
        let c = facts.roadClass(a.toArc)
        guard c == .primaryLink || c == .secondaryLink || c == .tertiaryLink else { return false }
        guard !facts.roadClass(a.fromArc).isLink else { return false }
        return drivingSide == .right ? a.angle > 0 : a.angle < 0
    }

    /// Where the bicycle starts or stops being walked: a step of its own whatever the names say
    /// (OSRM's collapsing never joins steps of different modes).
    func changesMode(_ s: RawStep) -> Bool { !s.fromArc.isNone && facts.isPushing(s.fromArc) != facts.isPushing(s.toArc) }
    func isTurnLike(_ s: RawStep) -> Bool { s.kind == .turn || s.kind == .continue || s.kind == .endOfRoad }
    func isNameChange(_ s: RawStep) -> Bool { s.kind == .newName || ((s.kind == .turn || s.kind == .continue) && s.direction == .straight) }
    func isManeuver(_ s: RawStep) -> Bool { !s.isWaypoint && !s.isRoundabout && s.kind != .ferry }
    func isSquareLeft(_ angle: Double) -> Bool { angle < -45 && angle > -135 }
    func isSquareRight(_ angle: Double) -> Bool { angle > 45 && angle < 135 }

    /// Step `i` takes over step `i + 1`: it now announces that step's road and leaves as it does.
    func merge(_ s: inout [RawStep], _ i: Int) {
        let b = s.remove(at: i + 1)
        s[i].toArc = b.toArc
        s[i].bearingAfter = b.bearingAfter
        s[i].intersections += b.intersections
        if s[i].lanes.isEmpty { s[i].lanes = b.lanes }
        if s[i].exitSign == nil { s[i].exitSign = b.exitSign }
    }

    /// Sets a folded step's kind and direction from its total angle and the names on either
    /// side; false when what is left is going straight on along the same road (no instruction).
    func retype(_ t: inout RawStep) -> Bool {
        // The end of a road keeps the way it turns there: that is the decision.
        guard [.turn, .continue, .newName].contains(t.kind) else { return true }
        t.direction = TurnDirection(angle: t.angle)
        let before = facts.name(t.fromArc), after = facts.name(t.toArc)
        let same = !before.isEmpty && !before.needsAnnouncing(after)
        if t.direction == .straight {
            t.kind = .newName
            return !same && before.needsAnnouncing(after)
        }
        if t.kind == .newName && abs(t.angle) > 45 { t.kind = .turn }
        if t.kind != .newName { t.kind = same ? .continue : .turn }
        return true
    }
}
