public import RoadNetwork

/// Exact time-dependent matrix rows: from one origin leaving at a moment, the earliest arrival at
/// every destination; or, backwards, towards one destination by a moment, the latest departure
/// from every origin. One label-setting Dijkstra per row (exact under FIFO) that stops once the
/// arcs of every other end are settled; the length of each chosen route is carried along.
public struct TimeDependentManyToMany {
    public let graph: RoadGraph
    public let table: TravelTimeTable
    let scratch: Scratch

    /// Per-thread memory: a heap, and per arc the times at its two ends and the length so far.
    public final class Scratch: @unchecked Sendable {
        let heap: SearchScratch
        /// Forward: seconds after departure at the arc's start and end. Backward: absolute latest
        /// times at its start and end.
        let start: UnsafeMutablePointer<Double>, end: UnsafeMutablePointer<Double>
        /// Forward: centimetres driven when entering the arc. Backward: centimetres left after it.
        let length: UnsafeMutablePointer<Double>
        /// Whether the arc's route entered a restricted run from open road (`RestrictedPassage.step`).
        let entered: UnsafeMutablePointer<Bool>
        let want: UnsafeMutablePointer<UInt32>
        var generation: UInt32 = 0
        let n: Int

        public init(capacity: Int) {
            n = max(1, capacity)
            heap = SearchScratch(capacity: n)
            start = .allocate(capacity: n); end = .allocate(capacity: n); length = .allocate(capacity: n)
            entered = .allocate(capacity: n)
            want = .allocate(capacity: n)
            want.initialize(repeating: 0, count: n)
        }

        deinit { start.deallocate(); end.deallocate(); length.deallocate(); entered.deallocate(); want.deallocate() }
    }

    public init(graph: RoadGraph, table: TravelTimeTable, scratch: Scratch? = nil) {
        self.graph = graph
        self.table = table
        self.scratch = scratch ?? Scratch(capacity: graph.arcCount)
    }

    /// Seconds of travel and centimetres of a cell's route.
    public struct Cell: Sendable, Equatable {
        public var seconds: Double
        public var lengthCm: Double
    }

    /// Marks the arcs of `ends` (arrivals also on their restriction copies); returns how many distinct arcs to settle.
    mutating func mark(_ ends: [[ArcPosition]], copies withCopies: Bool) -> Int {
        let s = scratch
        s.generation &+= 1
        if s.generation == 0 { s.want.update(repeating: 0, count: s.n); s.generation = 1 }
        var count = 0
        for positions in ends {
            for p in positions {
                for arc in withCopies ? copies(p.arc) : [p.arc] where s.want[arc.index] != s.generation {
                    s.want[arc.index] = s.generation
                    count += 1
                }
            }
        }
        return count
    }

    func copies(_ arc: ArcID) -> [ArcID] {
        let original = graph.arcOriginal[arc.index]
        return [original] + (graph.restrictionCopies[original] ?? [])
    }

    static func key(_ seconds: Double) -> UInt32 { UInt32(min(Double(UInt32.max - 1), max(0, (seconds * 1000).rounded()))) }

    static func better(_ c: Cell, than old: Cell?) -> Bool { old.map { c.seconds < $0.seconds } ?? true }

    /// Leaving `origin` at `departure` (seconds since 1970): the earliest arrival at each destination.
    public mutating func row(from origin: [ArcPosition], departure: Double, to destinations: [[ArcPosition]]) -> [Cell?] {
        var remaining = mark(destinations, copies: true)
        let s = scratch, heap = s.heap
        heap.reset()
        var cells = [Cell?](repeating: nil, count: destinations.count)
        var startArcs: Set<Int> = []
        for p in origin {
            let ms = table.traverseMs(p.arc.index, entry: departure, fraction: 1 - p.fraction, ignoringClosure: true)
            guard ms.isFinite, heap.relax(p.arc.index, key: Self.key(ms / 1000), parent: SearchScratch.noParent) else { continue }
            startArcs.insert(p.arc.index)
            s.entered[p.arc.index] = false
            s.start[p.arc.index] = -.infinity
            s.end[p.arc.index] = ms / 1000
            s.length[p.arc.index] = -Double(graph.lengthCm(of: p.arc)) * p.fraction
            // Destinations ahead on the origin's own road.
            for (j, positions) in destinations.enumerated() {
                for q in positions where graph.arcOriginal[q.arc.index] == graph.arcOriginal[p.arc.index] && q.fraction >= p.fraction {
                    let t = table.traverseMs(p.arc.index, entry: departure, fraction: q.fraction - p.fraction, ignoringClosure: true)
                    let c = Cell(seconds: t / 1000, lengthCm: Double(graph.lengthCm(of: q.arc)) * (q.fraction - p.fraction))
                    if t.isFinite && Self.better(c, than: cells[j]) { cells[j] = c }
                }
            }
        }
        // A route back onto the origin's own road (to a destination behind the origin on a one-way).
        var reentry: [Int: (time: Double, length: Double)] = [:]
        let rule = graph.hasRestrictedAccess
        while remaining > 0, let (u, _) = heap.popMin() {
            if s.want[u] == s.generation { remaining -= 1 }
            let tu = s.end[u], lu = s.length[u] + Double(graph.lengthCm(of: ArcID(u)))
            for t in graph.turns(from: ArcID(u)) {
                let v = graph.turnTarget[t].index
                var entered = false
                if rule {
                    guard let e = RestrictedPassage.step(graph, from: ArcID(u), to: ArcID(v), entered: s.entered[u], forward: true) else { continue }
                    entered = e
                }
                let entry = tu + Double(graph.turnDurationMs[t]) / 1000
                if startArcs.contains(v) {
                    if reentry[v].map({ entry < $0.time }) ?? true { reentry[v] = (entry, lu) }
                    continue
                }
                let ms = table.traverseMs(v, entry: departure + entry)
                guard ms.isFinite, heap.relax(v, key: RestrictedPassage.key(Self.key(entry + ms / 1000), entered: entered), parent: UInt32(u)) else { continue }
                s.entered[v] = entered
                s.start[v] = entry
                s.end[v] = entry + ms / 1000
                s.length[v] = lu
            }
        }
        for (j, positions) in destinations.enumerated() {
            for q in positions {
                for arc in copies(q.arc) {
                    let a = arc.index
                    let entered: (time: Double, length: Double)?
                    if startArcs.contains(a) { entered = reentry[a] } else { entered = heap.isSettled(a) ? (s.start[a], s.length[a]) : nil }
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
    /// origin, as seconds of travel (arrival less departure) with the route's length.
    public mutating func column(to destination: [ArcPosition], arrival: Double, from origins: [[ArcPosition]]) -> [Cell?] {
        var remaining = mark(origins, copies: false)
        let s = scratch, heap = s.heap
        heap.reset()
        var cells = [Cell?](repeating: nil, count: origins.count)
        var targetArcs: Set<Int> = []
        for q in destination {
            for arc in copies(q.arc) {
                guard let entry = table.latestEntry(arc.index, exit: arrival, fraction: q.fraction, ignoringClosure: true),
                      heap.relax(arc.index, key: Self.key(arrival - entry), parent: SearchScratch.noParent) else { continue }
                targetArcs.insert(arc.index)
                s.entered[arc.index] = false
                s.start[arc.index] = entry
                s.end[arc.index] = .infinity
                s.length[arc.index] = Double(graph.lengthCm(of: arc)) * q.fraction
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
        while remaining > 0, let (b, _) = heap.popMin() {
            if s.want[b] == s.generation { remaining -= 1 }
            let entryB = s.start[b], left = s.length[b]
            for i in graph.turns(into: ArcID(b)) {
                let t = Int(graph.turnReverseTurn[i])
                let a = graph.turnSource[t].index
                var entered = false
                if rule {
                    guard let e = RestrictedPassage.step(graph, from: ArcID(a), to: ArcID(b), entered: s.entered[b], forward: false,
                                                         endsRestricted: endsRestricted) else { continue }
                    entered = e
                }
                let leaveA = entryB - Double(graph.turnDurationMs[t]) / 1000
                if targetArcs.contains(a) {
                    if reexit[a].map({ leaveA > $0.time }) ?? true { reexit[a] = (leaveA, left) }
                    continue
                }
                guard let entryA = table.latestEntry(a, exit: leaveA),
                      heap.relax(a, key: RestrictedPassage.key(Self.key(arrival - entryA), entered: entered), parent: UInt32(b)) else { continue }
                s.entered[a] = entered
                s.start[a] = entryA
                s.end[a] = leaveA
                s.length[a] = left + Double(graph.lengthCm(of: ArcID(a)))
            }
        }
        for (i, positions) in origins.enumerated() {
            for p in positions {
                let a = p.arc.index
                let exited: (time: Double, length: Double)?
                if targetArcs.contains(a) { exited = reexit[a] } else {
                    exited = heap.isSettled(a) ? (s.end[a], s.length[a] - Double(graph.lengthCm(of: p.arc))) : nil
                }
                guard let exited, let d = table.latestEntry(a, exit: exited.time, fraction: 1 - p.fraction, ignoringClosure: true) else { continue }
                let c = Cell(seconds: arrival - d, lengthCm: exited.length + Double(graph.lengthCm(of: p.arc)) * (1 - p.fraction))
                if Self.better(c, than: cells[i]) { cells[i] = c }
            }
        }
        return cells
    }
}
