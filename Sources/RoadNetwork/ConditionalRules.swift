public import GeoCore
public import BinaryIO

/// The turns and arcs whose use depends on the time of day: OSM's `restriction:conditional`,
/// `day_on`/`hour_on` restrictions, `access:conditional` (and the mode's own key) and
/// `oneway:conditional`, each with the weekly schedule its condition names.
///
/// They are evaluated per request, at the moment the route reaches them, not baked in at import:
/// the graph keeps every such turn and arc as if it were open, so every metric, hierarchy and
/// lower bound built on it is a valid lower bound for any moment (a closure only ever removes
/// moves). Searches that know the time (`TimeDependentLegSearch`, `ArriveBySearch`, and
/// `AStarLegSearch` given a moment) ask `blocksTurn`/`blocksArc` when they meet a flagged element;
/// the static hierarchy cannot, so its answer is checked along the route and replaced by one of
/// those searches when it passes an element closed at that moment (see `RouteCalculation`).
///
/// Kept sparse: a bit per turn and per arc says whether it has a rule (a few bits of a cache line
/// on the fast path); the rules themselves are in small arrays sorted by element.
public struct ConditionalRules: Sendable {
    /// What the schedule means for an arc.
    public enum ArcRule: UInt8, Sendable {
        /// Closed while the schedule is open (`access:conditional=no @ (…)`, `oneway:conditional=yes @ (…)` backwards).
        case closedWhileActive = 0
        /// Open only while the schedule is open (`oneway:conditional=no @ (…)` on a one-way, backwards).
        case openWhileActive = 1
    }

    @usableFromInline let turnBits: [UInt64]
    @usableFromInline let arcBits: [UInt64]
    /// Turns forbidden while their schedule is open, ascending, with their schedule.
    public let turns: [UInt32]
    @usableFromInline let turnSchedule: [UInt32]
    public let arcs: [UInt32]
    @usableFromInline let arcSchedule: [UInt32]
    @usableFromInline let arcRule: [ArcRule]
    /// The distinct schedules (parsed once when the graph opens).
    @usableFromInline let schedules: [OpeningHours]

    public var isEmpty: Bool { turns.isEmpty && arcs.isEmpty }

    /// - Parameters:
    ///   - turns: (turn index, schedule) pairs; `arcs`: (arc, schedule, rule); schedules index `schedules`.
    public init(turnCount: Int, arcCount: Int, turns: [(turn: UInt32, schedule: UInt32)],
                arcs: [(arc: UInt32, schedule: UInt32, rule: ArcRule)], schedules: [OpeningHours]) {
        let sortedTurns = turns.sorted { $0.turn < $1.turn }
        let sortedArcs = arcs.sorted { $0.arc < $1.arc }
        // No bits at all where there is no rule (most graphs): `blocksTurn`/`blocksArc` look no further.
        var tb = [UInt64](repeating: 0, count: sortedTurns.isEmpty ? 0 : (turnCount + 63) / 64)
        var ab = [UInt64](repeating: 0, count: sortedArcs.isEmpty ? 0 : (arcCount + 63) / 64)
        for t in sortedTurns { tb[Int(t.turn) >> 6] |= 1 << UInt64(t.turn & 63) }
        for a in sortedArcs { ab[Int(a.arc) >> 6] |= 1 << UInt64(a.arc & 63) }
        (turnBits, arcBits) = (tb, ab)
        self.turns = sortedTurns.map(\.turn)
        turnSchedule = sortedTurns.map(\.schedule)
        self.arcs = sortedArcs.map(\.arc)
        arcSchedule = sortedArcs.map(\.schedule)
        arcRule = sortedArcs.map(\.rule)
        self.schedules = schedules
    }

    /// The minute of the week (0 = Monday 00:00) in local time at `time` (seconds since 1970).
    @inlinable
    public static func minuteOfWeek(_ time: Double, utcOffsetSeconds: Int) -> Int {
        Int(LocalWeek.position(time, utcOffsetSeconds: utcOffsetSeconds).secondsIntoWeek / 60)
    }

    /// Only where some turn (arc) has a rule: with none there are no bits.
    @usableFromInline func hasRule(turn t: Int) -> Bool { turnBits[t >> 6] & (1 << UInt64(t & 63)) != 0 }
    @usableFromInline func hasRule(arc a: Int) -> Bool { arcBits[a >> 6] & (1 << UInt64(a & 63)) != 0 }

    /// Whether turn `t` is forbidden when made at `time` (seconds since 1970).
    @inlinable
    public func blocksTurn(_ t: Int, at time: Double, utcOffsetSeconds: Int) -> Bool {
        guard !turns.isEmpty, hasRule(turn: t) else { return false }
        let i = LiveOverlay.position(of: t, in: turns)
        return schedules[Int(turnSchedule[i])].isOpen(minuteOfWeek: Self.minuteOfWeek(time, utcOffsetSeconds: utcOffsetSeconds))
    }

    /// Whether arc `a` is closed when entered at `time`.
    @inlinable
    public func blocksArc(_ a: Int, at time: Double, utcOffsetSeconds: Int) -> Bool {
        guard !arcs.isEmpty, hasRule(arc: a) else { return false }
        let i = LiveOverlay.position(of: a, in: arcs)
        let active = schedules[Int(arcSchedule[i])].isOpen(minuteOfWeek: Self.minuteOfWeek(time, utcOffsetSeconds: utcOffsetSeconds))
        return arcRule[i] == .closedWhileActive ? active : !active
    }

    // MARK: Columns

    /// Writes the rules: turn and arc lists with schedule indices, and the schedules as their text
    /// (one or more opening_hours texts, one a line, open when any is).
    public static func columns(turns: [(turn: UInt32, schedule: UInt32)], arcs: [(arc: UInt32, schedule: UInt32, rule: ArcRule)],
                               scheduleTexts: [String], into out: inout some ColumnSink, prefix p: String) {
        out.add(p + "cond.turn", turns.map(\.turn))
        out.add(p + "cond.turnSchedule", turns.map(\.schedule))
        out.add(p + "cond.arc", arcs.map(\.arc))
        out.add(p + "cond.arcSchedule", arcs.map(\.schedule))
        out.add(p + "cond.arcRule", arcs.map(\.rule.rawValue))
        var bytes: [UInt8] = [], offsets: [UInt32] = [0]
        for s in scheduleTexts {
            bytes.append(contentsOf: s.utf8)
            offsets.append(UInt32(bytes.count))
        }
        out.add(p + "cond.scheduleBytes", bytes)
        out.add(p + "cond.scheduleOffsets", offsets)
    }

    public init(store: ColumnSet, prefix p: String, turnCount: Int, arcCount: Int) throws(ColumnSetError) {
        let turn: UnsafeBufferPointer<UInt32> = try store.column(p + "cond.turn")
        let turnSchedule: UnsafeBufferPointer<UInt32> = try store.column(p + "cond.turnSchedule")
        let arc: UnsafeBufferPointer<UInt32> = try store.column(p + "cond.arc")
        let arcSchedule: UnsafeBufferPointer<UInt32> = try store.column(p + "cond.arcSchedule")
        let arcRule: UnsafeBufferPointer<UInt8> = try store.column(p + "cond.arcRule")
        let bytes: UnsafeBufferPointer<UInt8> = try store.column(p + "cond.scheduleBytes")
        let offsets: UnsafeBufferPointer<UInt32> = try store.column(p + "cond.scheduleOffsets")
        var schedules: [OpeningHours] = []
        for i in 0..<max(0, offsets.count - 1) {
            let range = Int(offsets[i])..<Int(offsets[i + 1])
            // A schedule is one or more opening_hours texts, one a line: open when any of them is.
            guard range.upperBound <= bytes.count else { throw .damaged(p, "conditional schedule \(i) is cut short") }
            guard let hours = OpeningHours(anyOfLines: String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)) else {
                throw .damaged(p, "conditional schedule \(i) does not read")
            }
            schedules.append(hours)
        }
        guard turnSchedule.count == turn.count, arcSchedule.count == arc.count, arcRule.count == arc.count,
              turn.allSatisfy({ Int($0) < turnCount }), arc.allSatisfy({ Int($0) < arcCount }),
              turnSchedule.allSatisfy({ Int($0) < schedules.count }), arcSchedule.allSatisfy({ Int($0) < schedules.count }),
              arcRule.allSatisfy({ ArcRule(rawValue: $0) != nil }) else {
            throw .damaged(p, "conditional rules do not agree with the graph")
        }
        self.init(turnCount: turnCount, arcCount: arcCount, turns: zip(turn, turnSchedule).map { ($0, $1) },
                  arcs: (0..<arc.count).map { (arc[$0], arcSchedule[$0], ArcRule(rawValue: arcRule[$0])!) }, schedules: schedules)
    }
}
