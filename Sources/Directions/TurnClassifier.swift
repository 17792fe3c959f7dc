import GeoCore
import RoadNetwork

/// Decides what a driver must be told at one junction (roundabouts aside), after the handlers
/// of OSRM's guidance: nothing where the way on is obvious and keeps its name, a new name where
/// only the name changes, and otherwise a turn, fork, ramp, merge or end of road.
struct TurnClassifier {
    let facts: RoadFacts

    struct Decision: Equatable {
        var kind: ManeuverKind
        var direction: TurnDirection
    }

    /// nil when the junction needs no instruction. Where the bicycle starts or stops being
    /// pushed, the junction is always told (OSRM starts a step at every change of mode).
    func classify(_ x: Intersection) -> Decision? {
        if let d = classifyTurn(x) { return d }
        guard facts.isPushing(x.arriving) != facts.isPushing(x.taken.leaving) else { return nil }
        return Decision(kind: x.taken.deviation <= 45 ? .newName : .turn, direction: TurnDirection(angle: x.taken.angle))
    }

    private func classifyTurn(_ x: Intersection) -> Decision? {
        let a = x.arriving, b = x.taken.leaving
        let angle = x.taken.angle
        let direction = TurnDirection(angle: angle)
        let inName = facts.name(a), outName = facts.name(b)
        let announce = inName.needsAnnouncing(outName)
        let inClass = facts.roadClass(a), outClass = facts.roadClass(b)
        if x.outIndex == x.inIndex { return Decision(kind: .uTurn, direction: .uTurn) }
        if facts.flags(b).contains(.ferry) && !facts.flags(a).contains(.ferry) { return Decision(kind: .ferry, direction: direction) }
        let alternatives = choices(x)
        if alternatives.isEmpty {
            // A real turn where another road (one that cannot be entered from here) looks as much
            // like the way on is said, as OSRM does: the driver sees two ways.
            if x.taken.deviation > 60 && x.others.contains(where: { !facts.isStrictlyLess($0.anyArc, than: x.taken.leaving)
                                                                && $0.deviation / x.taken.deviation < 2 && $0.deviation < 150 }) {
                return Decision(kind: inName.isSameRoad(outName) ? .continue : .turn, direction: direction)
            }
            // No choice: only a change of name is worth saying.
            guard announce else { return nil }
            if inClass.isLink && (outClass == .motorway || outClass == .trunk), x.others.contains(where: { !$0.entryAllowed }) {
                return Decision(kind: .merge, direction: Self.slight(angle))
            }
            return Decision(kind: x.taken.deviation <= 45 ? .newName : .turn, direction: direction)
        }
        let isHighway = { (c: RoadClass) in c == .motorway || c == .trunk }
        // Motorways: leaving by a ramp, joining from one, splitting in two.
        if isHighway(inClass) && outClass.isLink {
            let stays = alternatives.contains { isHighway(facts.roadClass($0.leaving)) }
            if stays { return Decision(kind: .offRamp, direction: Self.side(of: x.taken, against: alternatives)) }
            if alternatives.allSatisfy({ facts.roadClass($0.leaving).isLink }) {
                return Decision(kind: .fork, direction: Self.side(of: x.taken, against: alternatives))
            }
        }
        if !inClass.isLink && !isHighway(inClass) && (outClass == .motorwayLink || outClass == .trunkLink) {
            return Decision(kind: .onRamp, direction: direction)
        }
        if inClass.isLink && isHighway(outClass) && alternatives.allSatisfy({ facts.isLowPriority($0.leaving) || facts.roadClass($0.leaving).isLink }) {
            return Decision(kind: .merge, direction: Self.slight(angle))
        }
        // A motorway or its ramp splitting into motorways or ramps is a fork, whatever the names
        // (a motorway with only ramps leaving goes on: the ramps are told where they leave).
        let motorwayish = { (c: RoadClass) in isHighway(c) || c == .motorwayLink || c == .trunkLink }
        if motorwayish(inClass) && motorwayish(outClass) && x.taken.deviation <= 60 {
            let branches = alternatives.filter { motorwayish(facts.roadClass($0.leaving)) && $0.deviation <= 60 }
            let rampsOnly = isHighway(outClass) && branches.allSatisfy { facts.roadClass($0.leaving).isLink }
            if !branches.isEmpty && !rampsOnly { return Decision(kind: .fork, direction: Self.side(of: x.taken, against: branches)) }
        }
        // Leaving a road for a link beside a road that goes on is always said, however gently.
        if outClass.isLink && !inClass.isLink && !isHighway(inClass) && alternatives.contains(where: {
            let c = facts.roadClass($0.leaving)
            return !c.isLink && !facts.isLowPriority($0.leaving) && facts.rank(c) <= facts.rank(inClass)
        }) {
            return Decision(kind: .turn, direction: direction == .straight ? (angle < 0 ? .slightLeft : .slightRight) : direction)
        }
        // Where the road ends at a T, the way on is said even when it keeps the name.
        if isEndOfRoad(x) {
            return Decision(kind: inName.isSameRoad(outName) ? .continue : .endOfRoad, direction: direction)
        }
        // The road turns square off a way that goes on straight ahead (a minor one too): say to keep on it.
        if inName.isSameRoad(outName) && x.taken.deviation > 75 && alternatives.contains(where: { $0.deviation < 25 }) {
            return Decision(kind: .continue, direction: direction)
        }
        if obvious(x) {
            guard announce else { return nil }
            return Decision(kind: x.taken.deviation <= 45 ? .newName : .turn, direction: direction)
        }
        // A same-named loop that curls back into the other carriageway: a U-turn, however gently it leaves.
        if turnsBack(x, x.taken) && !announce {
            let ahead = angleAhead(x, x.taken)
            return Decision(kind: .continue, direction: abs(ahead) >= 150 ? .uTurn : TurnDirection(angle: ahead))
        }
        if let other = forkPartner(x) {
            return Decision(kind: .fork, direction: Self.side(of: x.taken, against: [other]))
        }
        if x.taken.deviation <= 20 {
            return announce ? Decision(kind: .newName, direction: direction) : nil
        }
        let sameName = !inName.isEmpty && !outName.isEmpty && !announce
        // Keeping on a road that curls on is said by the whole bend a driver sees, as OSRM reads
        // it from coordinates further along: 39° at the node that is 60° by 25 m is a left.
        if sameName {
            let bend = angleAhead(x, x.taken, meters: Self.bendMeters)
            let seen = (bend < 0) == (angle < 0) && abs(bend) > abs(angle) && abs(bend) < 150 ? bend : angle
            return Decision(kind: .continue, direction: TurnDirection(angle: seen))
        }
        return Decision(kind: .turn, direction: direction)
    }

    /// Whether the route's way on is the one anyone would take, after OSRM's test: every rival
    /// (a road that may be entered, minor roads aside) is of a clearly lesser class, or clearly
    /// more of a turn — twice the angle and 25° more — or, where the road goes on under its
    /// name, a lesser road at least 1.4 times the angle; or the road goes on under its name
    /// nearly dead straight.
    func obvious(_ x: Intersection) -> Bool {
        let b = x.taken
        let outRank = facts.rank(facts.roadClass(b.leaving))
        let minor = facts.isLowPriority(b.leaving)
        // A service road that leaves about as gently as a way on that bends (beyond straight, short
        // of a turn) is a choice all the same: at such a Y the driver sees two ways (OSRM's
        // narrow-turn test lets a lesser road compete below 1.4 times the angle). Tracks and paths,
        // which OSRM's car profile leaves out, never do.
        let looksAsMuch = { (c: Intersection.Road) in
            b.deviation > 20 && b.deviation < 60 && c.deviation < 1.4 * b.deviation && facts.roadClass(c.leaving) == .service
        }
        let rivals = choices(x).filter { minor || !facts.isLowPriority($0.leaving) || looksAsMuch($0) }
        if rivals.isEmpty { return true }
        let inName = facts.name(x.arriving)
        let inRank = facts.rank(facts.roadClass(x.arriving))
        let keepsName = inName.isSameRoad(facts.name(b.leaving)) && outRank <= inRank
        func distinct(_ c: Intersection.Road) -> Bool {
            // A road of a clearly lesser class never competes (OSRM's "strictly less").
            if facts.isStrictlyLess(c.leaving, than: b.leaving) && !(facts.isLowPriority(c.leaving) && looksAsMuch(c)) { return true }
            let ratio = c.deviation / max(0.1, b.deviation)
            if b.deviation > 60 { return ratio > 2 }
            if ratio > 2 && c.deviation - b.deviation > 25 { return true }
            return keepsName && outRank == inRank && facts.rank(facts.roadClass(c.leaving)) > outRank && ratio > 1.4
        }
        if keepsName && b.deviation < 3 && rivals.allSatisfy({ facts.rank(facts.roadClass($0.leaving)) >= outRank }) { return true }
        return rivals.allSatisfy(distinct)
    }

    /// The roads a driver could take instead, a same-named branch of the same class close beside
    /// the route's one that soon meets it again aside: that is one road split around an island
    /// (as OSRM merges such roads), not a choice.
    func choices(_ x: Intersection) -> [Intersection.Road] {
        let b = x.taken
        let name = facts.name(b.leaving), c = facts.roadClass(b.leaving)
        guard ![.motorway, .trunk, .motorwayLink, .trunkLink].contains(c) else { return x.alternatives }
        return x.alternatives.filter { r in
            !(abs(r.angle - b.angle) <= 60 && facts.roadClass(r.leaving) == c && name.isSameRoad(facts.name(r.leaving))
              && rejoin(b.leaving, r.leaving))
        }
    }

    /// Whether two branches of a road come together again within 200 m (followed along their name).
    func rejoin(_ a: ArcID, _ b: ArcID) -> Bool {
        let g = facts.graph
        let reached = Set(follow(a).map(g.head(of:)))
        return follow(b).contains { reached.contains(g.head(of: $0)) }
    }

    /// How far along a kept road its bend is read for the direction said.
    static let bendMeters = 25.0

    /// How far a branch has turned from the way in once 40 m (or `meters`) along it (followed along its name),
    /// in degrees (+ right): a loop that curls back into the other carriageway leaves gently but
    /// is a U-turn, as OSRM sees it from its coordinates further along.
    func angleAhead(_ x: Intersection, _ r: Intersection.Road, meters: Double = 40) -> Double {
        var line: [Coordinate] = []
        for arc in follow(r.leaving, upTo: meters) { line += facts.graph.shape(of: arc).dropFirst(line.isEmpty ? 0 : 1) }
        let end = min(meters, zip(line, line.dropFirst()).reduce(0) { $0 + Geodesy.distanceMeters($1.0, $1.1) })
        guard end >= 20 else { return r.angle }
        let heading = Geodesy.bearingDegrees(from: RoadFacts.pointAlong(line, meters: end - 12), to: RoadFacts.pointAlong(line, meters: end))
        return Geodesy.turnAngle(from: facts.arriveBearing(x.arriving), to: heading)
    }

    /// Whether a branch keeping the road's name turns back on itself within 40 m.
    func turnsBack(_ x: Intersection, _ r: Intersection.Road) -> Bool {
        facts.name(x.arriving).isSameRoad(facts.name(r.leaving)) && abs(angleAhead(x, r)) > 120
    }

    /// The arcs ahead along a road's name, up to `limit` metres.
    func follow(_ start: ArcID, upTo limit: Double = 200) -> [ArcID] {
        let g = facts.graph
        let name = facts.name(start)
        var arcs: [ArcID] = []
        var arc = start, meters = 0.0
        for _ in 0..<16 {
            arcs.append(arc)
            meters += Double(g.lengthCm(of: arc)) / 100
            guard meters < limit else { break }
            let next = g.turns(from: arc).map { g.arcOriginal[g.turnTarget[$0].index] }
                .filter { g.edge(of: $0) != g.edge(of: arc) && name.isSameRoad(facts.name($0)) }
            guard let n = next.first(where: { facts.sameWay($0, arc) }) ?? next.first else { break }
            arc = n
        }
        return arcs
    }

    /// A road leaving close beside the route's one, both roughly ahead: the other branch of a fork.
    func forkPartner(_ x: Intersection) -> Intersection.Road? {
        let b = x.taken
        guard b.deviation <= 60, !turnsBack(x, b) else { return nil }
        let outRank = facts.rank(facts.roadClass(b.leaving))
        // As OSRM groups fork candidates: the straighter branch within 40° of straight on, the
        // other too or within 60° and 40° of it. Branches either side of straight on, or both
        // nearly straight; one clearly sharper on the same side is a turn off the other.
        return choices(x).filter { c in
            let lo = min(c.deviation, b.deviation), hi = max(c.deviation, b.deviation)
            return lo <= 40 && (hi <= 40 || (hi <= 60 && abs(c.angle - b.angle) <= 40))
                && abs(facts.rank(facts.roadClass(c.leaving)) - outRank) <= 1
                && !facts.isLowPriority(c.leaving) && ((c.angle < 0) != (b.angle < 0) || hi <= 25) && !turnsBack(x, c)
        }.min { abs($0.angle - b.angle) < abs($1.angle - b.angle) }
    }

    /// The road arrived on ends here at a T: nothing ahead, and roads (minor ways aside) off to
    /// the left and to the right, each within 30° of square.
    func isEndOfRoad(_ x: Intersection) -> Bool {
        guard x.taken.deviation >= 60 else { return false }
        let ahead = x.roads.indices.contains { $0 != x.inIndex && x.roads[$0].deviation < 35 }
        guard !ahead else { return false }
        let minor = facts.isLowPriority(x.taken.leaving)
        let arms = x.roads.indices.filter { $0 != x.inIndex && x.roads[$0].entryAllowed }.map { x.roads[$0] }
            .filter { minor || !facts.isLowPriority($0.leaving) }
        func square(_ r: Intersection.Road) -> Bool { r.deviation >= 60 && r.deviation <= 120 }
        return arms.contains { $0.angle < 0 && square($0) } && arms.contains { $0.angle > 0 && square($0) }
    }

    /// Left or right of the other branches (for forks and exits): by angle, the side the route keeps.
    static func side(of road: Intersection.Road, against others: [Intersection.Road]) -> TurnDirection {
        let leftOf = others.allSatisfy { road.angle < $0.angle }
        let rightOf = others.allSatisfy { road.angle > $0.angle }
        if leftOf && !rightOf { return .slightLeft }
        if rightOf && !leftOf { return .slightRight }
        return road.angle < 0 ? .slightLeft : .slightRight
    }

    static func slight(_ angle: Double) -> TurnDirection {
        abs(angle) <= 5 ? .straight : angle < 0 ? .slightLeft : .slightRight
    }
}
