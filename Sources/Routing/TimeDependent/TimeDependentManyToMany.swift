public import RoadNetwork

/// Exact time-dependent matrix rows: from one origin leaving at a moment, the earliest arrival at
/// every destination; or, backwards, towards one destination by a moment, the latest departure
/// from every origin. One label-setting Dijkstra per row (exact under FIFO) that stops once the
/// arcs of every other end are settled, and an end on the far side of a start on its own road
/// once no earlier return onto that road can come; the length of each chosen route is carried along.
public struct TimeDependentManyToMany {
    public let graph: RoadGraph
    public let table: TravelTimeTable
    let scratch: Scratch

    /// What a row or column knows of an arc once reached: forward, the seconds after departure at
    /// its start and end and the centimetres driven when entering it; backward, the absolute
    /// latest times at its start and end and the centimetres left after it. 32 bytes, so one
    /// relaxation writes one place beside the heap's entry.
    struct Label {
        var start: Double
        var end: Double
        var lengthCm: Double
        /// Whether the route entered a restricted run from open road (`RestrictedPassage.step`).
        var entered: Bool
    }

    /// Per-thread memory for one graph: a lazy heap keyed by whole milliseconds, the labels, and
    /// two bit sets small enough to stay in cache: the arcs the current search must settle
    /// (cleared after it) and the arcs in restricted areas (`Metric.restricted`, read from the
    /// graph's columns once, not at every turn).
    public final class Scratch: @unchecked Sendable {
        let heap: LabelHeap
        let labels: UnsafeMutablePointer<Label>
        let want: UnsafeMutablePointer<UInt64>
        let restricted: UnsafeMutablePointer<UInt64>
        let n: Int

        public init(graph: RoadGraph) {
            n = max(1, graph.arcCount)
            heap = LabelHeap(capacity: n)
            labels = .allocate(capacity: n)
            let words = (n + 63) / 64
            want = .allocate(capacity: words)
            want.initialize(repeating: 0, count: words)
            restricted = .allocate(capacity: words)
            restricted.initialize(repeating: 0, count: words)
            if graph.hasRestrictedAccess {
                for a in 0..<graph.arcCount where Metric.restricted(graph, ArcID(a)) { restricted[a >> 6] |= 1 << UInt64(a & 63) }
            }
        }

        deinit { labels.deallocate(); want.deallocate(); restricted.deallocate() }
    }

    public init(graph: RoadGraph, table: TravelTimeTable, scratch: Scratch? = nil) {
        precondition(scratch.map { $0.n == max(1, graph.arcCount) } ?? true, "scratch made for another graph")
        self.graph = graph
        self.table = table
        self.scratch = scratch ?? Scratch(graph: graph)
    }

    /// A* towards the nearest of a matrix's other ends: CH-potentials over lower bounds that hold
    /// for `table` (`CCHPotential`, towards the destinations for rows, from the origins for
    /// columns), prepared for all the ends once and then kept by a worker for all its rows, whose
    /// lazily computed values it shares. A full one-to-all pass over the bounds was tried first: on
    /// a 4.2M-arc graph that pass cost twice what the 2 × 2 matrix's plain rows had cost.
    public struct Goal {
        public let potential: CCHPotential
        public let bound: LowerBound

        /// Prepares `potential` for the ends of rows (`destinations`) or of columns (`origins`).
        public init(potential: CCHPotential, bound: LowerBound, ends: [[ArcPosition]], graph: RoadGraph) {
            self.potential = potential
            self.bound = bound
            if potential.towardsTargets {
                potential.prepare(graph.potentialStarts(towards: Array(ends.joined()), bound: bound))
            } else {
                potential.prepare(ends.joined().map { ($0.arc, bound.remaining($0)) })
            }
        }

        /// The bound of `arc` for a row (from its end) or a column (to its start); 0 on the ends'
        /// own arcs (`isEnd`), which must be settled whatever lies beyond them; infinity when no end
        /// is reachable. Consistent either way (a turn lowers it by at most its lower-bound cost).
        @inline(__always)
        func value(_ arc: Int, isEnd: Bool) -> UInt32 {
            if isEnd { return 0 }
            let v = potential.value(ArcID(arc))
            if potential.towardsTargets || v == CCHPotential.infinity { return v }
            return v > bound.arcWeight[arc] ? v - bound.arcWeight[arc] : 0
        }

        /// A label's heap key raised by its bound (below the heap's mark for settled entries).
        @inline(__always)
        static func key(_ label: UInt32, _ h: UInt32) -> UInt32 { min(UInt32.max - 1, Metric.add(label, h)) }
    }

    @inline(__always) static func isSet(_ bits: UnsafePointer<UInt64>, _ a: Int) -> Bool { bits[a >> 6] & (1 << UInt64(a & 63)) != 0 }

    /// Seconds of travel and centimetres of a cell's route.
    public struct Cell: Sendable, Equatable {
        public var seconds: Double
        public var lengthCm: Double
    }

    /// Marks the arcs of `ends` (arrivals also on their restriction copies) as to be settled, or
    /// clears them again; returns how many distinct arcs were newly marked.
    @discardableResult
    func mark(_ ends: [[ArcPosition]], copies withCopies: Bool, clear: Bool = false) -> Int {
        let want = scratch.want
        var count = 0
        for positions in ends {
            for p in positions {
                for arc in withCopies ? copies(p.arc) : [p.arc] {
                    let a = arc.index, bit: UInt64 = 1 << UInt64(a & 63)
                    if clear { want[a >> 6] &= ~bit } else if want[a >> 6] & bit == 0 { want[a >> 6] |= bit; count += 1 }
                }
            }
        }
        return count
    }

    func copies(_ arc: ArcID) -> [ArcID] {
        let original = graph.arcOriginal[arc.index]
        return [original] + (graph.restrictionCopies[original] ?? [])
    }

    /// Whole milliseconds, rounded half up (as `rounded()` for these non-negative values, without a libm call).
    static func key(_ seconds: Double) -> UInt32 { UInt32(min(Double(UInt32.max - 1), max(0, seconds * 1000) + 0.5)) }

    static func better(_ c: Cell, than old: Cell?) -> Bool { old.map { c.seconds < $0.seconds } ?? true }

    /// Arcs shared by a start and an end with the end on the far side of the start (a destination
    /// behind the origin, an origin ahead of the destination): routes between them leave the arc
    /// and come back onto it, so settling the arc as a start does not finish it. The arc is the
    /// start's (`onEnd` false: rows come back onto the origin's arc) or the end's (columns).
    func returning(starts: [ArcPosition], ends: [[ArcPosition]], started: [Int], onEnd: Bool,
                   beyond: (_ start: Double, _ end: Double) -> Bool) -> [Int] {
        var arcs: [Int] = []
        for p in starts {
            for q in ends.joined() where graph.arcOriginal[q.arc.index] == graph.arcOriginal[p.arc.index] && beyond(p.fraction, q.fraction) {
                let a = onEnd ? q.arc.index : p.arc.index
                if started.contains(a) && !arcs.contains(a) { arcs.append(a) }
            }
        }
        return arcs
    }

    /// Whether no better return onto any of `arcs` can come once the heap's keys have reached `key`:
    /// past the best return's key (`best`), and past it by the entry penalty when routes that
    /// entered a restricted run sort after the others. False while an arc has no return yet.
    static func returnsDone(_ arcs: [Int], key: UInt32, slack: Int, best: (Int) -> UInt32?) -> Bool {
        arcs.allSatisfy { a in best(a).map { Int(key) > Int($0) + slack } ?? false }
    }

    /// Leaving `origin` at `departure` (seconds since 1970): the earliest arrival at each destination.
    /// With `goal` (prepared for `destinations`), an A* search that labels only what can lie on a
    /// route to a destination; without one, or when a destination lies behind the origin on its
    /// own road (whose return needs the plain search's order), a Dijkstra.
    public mutating func row(from origin: [ArcPosition], departure: Double, to destinations: [[ArcPosition]],
                             goal: Goal? = nil) -> [Cell?] {
        var remaining = mark(destinations, copies: true)
        defer { mark(destinations, copies: true, clear: true) }
        let s = scratch, heap = s.heap, labels = s.labels, want = UnsafePointer(s.want), restricted = UnsafePointer(s.restricted)
        heap.reset()
        var cells = [Cell?](repeating: nil, count: destinations.count)
        let pi = returning(starts: origin, ends: destinations, started: origin.map(\.arc.index), onEnd: false) { $1 < $0 }.isEmpty ? goal : nil
        var startArcs: [Int] = []
        for p in origin {
            let a = p.arc.index
            let ms = table.traverseMs(a, entry: departure, fraction: 1 - p.fraction, ignoringClosure: true)
            let key = Self.key(ms / 1000), h = pi?.value(a, isEnd: Self.isSet(want, a)) ?? 0
            guard ms.isFinite, h != CCHPotential.infinity, !heap.isSettled(a),
                  heap.push(a, key: Goal.key(key, h), label: key, parent: LabelHeap.noParent) else { continue }
            if !startArcs.contains(a) { startArcs.append(a) }
            labels[a] = Label(start: -.infinity, end: ms / 1000, lengthCm: -Double(graph.lengthCm(of: p.arc)) * p.fraction, entered: false)
            // Destinations ahead on the origin's own road.
            for (j, positions) in destinations.enumerated() {
                for q in positions where graph.arcOriginal[q.arc.index] == graph.arcOriginal[a] && q.fraction >= p.fraction {
                    let t = table.traverseMs(a, entry: departure, fraction: q.fraction - p.fraction, ignoringClosure: true)
                    let c = Cell(seconds: t / 1000, lengthCm: Double(graph.lengthCm(of: q.arc)) * (q.fraction - p.fraction))
                    if t.isFinite && Self.better(c, than: cells[j]) { cells[j] = c }
                }
            }
        }
        // A route back onto the origin's own road (to a destination behind the origin on a one-way).
        var reentry: [Int: (time: Double, length: Double)] = [:]
        let rule = graph.hasRestrictedAccess
        let returns = returning(starts: origin, ends: destinations, started: startArcs, onEnd: false) { $1 < $0 }
        remaining -= returns.filter { Self.isSet(want, $0) }.count
        let slack = rule ? Int(WeightUnit.milliseconds.restrictedEntryPenalty) : 0
        let turnFirstOut = graph.turnFirstOut, turnTarget = graph.turnTarget, turnDuration = graph.turnDurationMs
        while let (u, key) = heap.popMin() {
            if remaining == 0 && (returns.isEmpty || Self.returnsDone(returns, key: key, slack: slack) { reentry[$0].map { Self.key($0.time) } }) { break }
            if Self.isSet(want, u) && !returns.contains(u) { remaining -= 1 }
            let label = labels[u]
            let tu = label.end, lu = label.lengthCm + Double(graph.lengthCm(of: ArcID(u)))
            let restrictedU = rule && Self.isSet(restricted, u)
            for t in Int(turnFirstOut[u])..<Int(turnFirstOut[u + 1]) {
                let v = turnTarget[t].index
                var entered = false
                if rule {
                    guard let e = RestrictedPassage.step(fromRestricted: restrictedU, toRestricted: Self.isSet(restricted, v),
                                                         entered: label.entered, forward: true) else { continue }
                    entered = e
                }
                let entry = tu + Double(turnDuration[t]) / 1000
                if startArcs.contains(v) {
                    if reentry[v].map({ entry < $0.time }) ?? true { reentry[v] = (entry, lu) }
                    continue
                }
                // Settled, or reached already by a key this entry cannot beat (driving the arc only adds
                // to it), or leading to no destination.
                guard !heap.isSettled(v), !(heap.isReached(v) && Self.key(entry) >= heap.label(v)) else { continue }
                let h = pi?.value(v, isEnd: Self.isSet(want, v)) ?? 0
                guard h != CCHPotential.infinity else { continue }
                let ms = table.traverseMs(v, entry: departure + entry)
                let key = RestrictedPassage.key(Self.key(entry + ms / 1000), entered: entered)
                guard ms.isFinite, heap.push(v, key: Goal.key(key, h), label: key, parent: UInt32(u)) else { continue }
                labels[v] = Label(start: entry, end: entry + ms / 1000, lengthCm: lu, entered: entered)
            }
        }
        for (j, positions) in destinations.enumerated() {
            for q in positions {
                for arc in copies(q.arc) {
                    let a = arc.index
                    let entered: (time: Double, length: Double)?
                    if startArcs.contains(a) { entered = reentry[a] } else { entered = heap.isSettled(a) ? (labels[a].start, labels[a].lengthCm) : nil }
                    guard let entered else { continue }
                    let t = table.traverseMs(a, entry: departure + entered.time, fraction: q.fraction, ignoringClosure: true)
                    let c = Cell(seconds: entered.time + t / 1000, lengthCm: entered.length + Double(graph.lengthCm(of: arc)) * q.fraction)
                    if t.isFinite && Self.better(c, than: cells[j]) { cells[j] = c }
                }
            }
        }
        return cells
    }

    /// Arriving at `destination` by `arrival` (seconds since 1970): the latest departure from each
    /// origin, as seconds of travel (arrival less departure) with the route's length. `goal`
    /// (prepared for `origins`) as for rows.
    public mutating func column(to destination: [ArcPosition], arrival: Double, from origins: [[ArcPosition]],
                                goal: Goal? = nil) -> [Cell?] {
        var remaining = mark(origins, copies: false)
        defer { mark(origins, copies: false, clear: true) }
        let s = scratch, heap = s.heap, labels = s.labels, want = UnsafePointer(s.want), restricted = UnsafePointer(s.restricted)
        heap.reset()
        var cells = [Cell?](repeating: nil, count: origins.count)
        let started = destination.flatMap { copies($0.arc).map(\.index) }
        let sigma = returning(starts: destination, ends: origins, started: started, onEnd: true) { $1 > $0 }.isEmpty ? goal : nil
        var targetArcs: [Int] = []
        for q in destination {
            for arc in copies(q.arc) {
                let a = arc.index
                guard let entry = table.latestEntry(a, exit: arrival, fraction: q.fraction, ignoringClosure: true) else { continue }
                let key = Self.key(arrival - entry), h = sigma?.value(a, isEnd: Self.isSet(want, a)) ?? 0
                guard h != CCHPotential.infinity, !heap.isSettled(a),
                      heap.push(a, key: Goal.key(key, h), label: key, parent: LabelHeap.noParent) else { continue }
                if !targetArcs.contains(a) { targetArcs.append(a) }
                labels[a] = Label(start: entry, end: .infinity, lengthCm: Double(graph.lengthCm(of: arc)) * q.fraction, entered: false)
            }
            // Origins behind the destination on its own road.
            for (i, positions) in origins.enumerated() {
                for p in positions where graph.arcOriginal[p.arc.index] == graph.arcOriginal[q.arc.index] && p.fraction <= q.fraction {
                    guard let d = table.latestEntry(q.arc.index, exit: arrival, fraction: q.fraction - p.fraction, ignoringClosure: true) else { continue }
                    let c = Cell(seconds: arrival - d, lengthCm: Double(graph.lengthCm(of: q.arc)) * (q.fraction - p.fraction))
                    if Self.better(c, than: cells[i]) { cells[i] = c }
                }
            }
        }
        var reexit: [Int: (time: Double, length: Double)] = [:]
        let rule = graph.hasRestrictedAccess
        let endsRestricted = rule && destination.contains { Metric.restricted(graph, $0.arc) }
        let reverseFirst = graph.turnReverseFirst, reverseTurn = graph.turnReverseTurn, turnSource = graph.turnSource
        let turnDuration = graph.turnDurationMs
        let returns = returning(starts: destination, ends: origins, started: targetArcs, onEnd: true) { $1 > $0 }
        remaining -= returns.filter { Self.isSet(want, $0) }.count
        let slack = rule ? Int(WeightUnit.milliseconds.restrictedEntryPenalty) : 0
        while let (b, key) = heap.popMin() {
            if remaining == 0 && (returns.isEmpty || Self.returnsDone(returns, key: key, slack: slack) { reexit[$0].map { Self.key(arrival - $0.time) } }) { break }
            if Self.isSet(want, b) && !returns.contains(b) { remaining -= 1 }
            let label = labels[b]
            let entryB = label.start, left = label.lengthCm
            let restrictedB = rule && Self.isSet(restricted, b)
            for i in Int(reverseFirst[b])..<Int(reverseFirst[b + 1]) {
                let t = Int(reverseTurn[i])
                let a = turnSource[t].index
                var entered = false
                if rule {
                    guard let e = RestrictedPassage.step(fromRestricted: Self.isSet(restricted, a), toRestricted: restrictedB,
                                                         entered: label.entered, forward: false, endsRestricted: endsRestricted) else { continue }
                    entered = e
                }
                let leaveA = entryB - Double(turnDuration[t]) / 1000
                if targetArcs.contains(a) {
                    if reexit[a].map({ leaveA > $0.time }) ?? true { reexit[a] = (leaveA, left) }
                    continue
                }
                guard !heap.isSettled(a), !(heap.isReached(a) && Self.key(arrival - leaveA) >= heap.label(a)) else { continue }
                let h = sigma?.value(a, isEnd: Self.isSet(want, a)) ?? 0
                guard h != CCHPotential.infinity, let entryA = table.latestEntry(a, exit: leaveA) else { continue }
                let key = RestrictedPassage.key(Self.key(arrival - entryA), entered: entered)
                guard heap.push(a, key: Goal.key(key, h), label: key, parent: UInt32(b)) else { continue }
                labels[a] = Label(start: entryA, end: leaveA, lengthCm: left + Double(graph.lengthCm(of: ArcID(a))), entered: entered)
            }
        }
        for (i, positions) in origins.enumerated() {
            for p in positions {
                let a = p.arc.index
                let exited: (time: Double, length: Double)?
                if targetArcs.contains(a) { exited = reexit[a] } else {
                    exited = heap.isSettled(a) ? (labels[a].end, labels[a].lengthCm - Double(graph.lengthCm(of: p.arc))) : nil
                }
                guard let exited, let d = table.latestEntry(a, exit: exited.time, fraction: 1 - p.fraction, ignoringClosure: true) else { continue }
                let c = Cell(seconds: arrival - d, lengthCm: exited.length + Double(graph.lengthCm(of: p.arc)) * (1 - p.fraction))
                if Self.better(c, than: cells[i]) { cells[i] = c }
            }
        }
        return cells
    }
}
