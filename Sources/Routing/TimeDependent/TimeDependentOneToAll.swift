public import RoadNetwork

/// Time-dependent one-to-all: every arc reachable from a start leaving at a given moment within a
/// time limit (forward), or every arc from which one can still reach a target by a given moment
/// (backward, the exact inverse of the travel-time model). Plain label-setting Dijkstra on the
/// turn-expanded graph, exact under FIFO; it stops as soon as the limit is passed, so it touches
/// only what the reach covers.
///
/// The result names, per arc, the milliseconds spent (after departure, or before arrival) at its
/// start and at its end; an arc whose start lies within the limit and whose end does not is the
/// partly reached edge at the rim.
public struct TimeDependentOneToAll {
    public let graph: RoadGraph
    public let table: TravelTimeTable
    let scratch: TimeDependentScratch

    public init(graph: RoadGraph, table: TravelTimeTable, scratch: TimeDependentScratch? = nil) {
        self.graph = graph
        self.table = table
        self.scratch = scratch ?? TimeDependentScratch(capacity: graph.arcCount)
    }

    /// A part of an arc reached (`from`…`to`), with the budget spent (ms, or a sweep's measure) at each end of it.
    public struct Piece: Sendable, Equatable {
        public var arc: ArcID
        public var from: Double
        public var to: Double
        public var startMs: UInt32
        public var endMs: UInt32
        public init(arc: ArcID, from: Double, to: Double, startMs: UInt32, endMs: UInt32) {
            self.arc = arc
            self.from = from
            self.to = to
            self.startMs = startMs
            self.endMs = endMs
        }
    }

    @inline(__always)
    func drive(_ arc: Int, entry: Double, fraction: Double = 1, endpoint: Bool = false) -> UInt32 {
        let ms = table.traverseMs(arc, entry: entry, fraction: fraction, ignoringClosure: endpoint)
        return ms.isFinite ? UInt32(min(Double(UInt32.max / 2), ms.rounded())) : UInt32.max
    }

    /// Leaving `sources` at `departure` (seconds since 1970): every arc entered within `limitMs`.
    public mutating func forward(from sources: [ArcPosition], departure: Double, limitMs: UInt32) -> [Piece] {
        let s = scratch.heap, entryMs = scratch.extras  // labels: ms at each arc's end
        s.reset()
        var touched: [Int32] = []
        var pieces: [Piece] = []
        for source in sources {
            let a = source.arc.index
            let t = drive(a, entry: departure, fraction: 1 - source.fraction, endpoint: true)
            guard t != UInt32.max else { continue }
            pieces.append(Piece(arc: source.arc, from: source.fraction, to: 1, startMs: 0, endMs: t))
            if !s.isReached(a) { touched.append(Int32(a)) }
            if s.push(a, key: t, label: t, parent: LabelHeap.noParent) { entryMs[a] = UInt32.max }
        }
        let turnFirstOut = graph.turnFirstOut, turnTarget = graph.turnTarget, turnDuration = graph.turnDurationMs
        let rule = graph.hasRestrictedAccess
        while let (u, keyU) = s.popMin() {
            let du = s.label(u), entered = keyU != du
            if du > limitMs {
                if !rule || entered { break }
                continue
            }
            for t in Int(turnFirstOut[u])..<Int(turnFirstOut[u + 1]) {
                let v = turnTarget[t].index
                let entry = du &+ turnDuration[t]
                guard entry <= limitMs else { continue }
                var enteredV = false
                if rule {
                    guard let e = RestrictedPassage.step(graph, from: ArcID(u), to: ArcID(v), entered: entered, forward: true) else { continue }
                    enteredV = e
                }
                let travel = drive(v, entry: departure + Double(entry) / 1000)
                guard travel != UInt32.max, !s.isSettled(v) else { continue }
                if !s.isReached(v) { touched.append(Int32(v)) }
                let exit = Metric.add(entry, travel)
                if s.push(v, key: RestrictedPassage.key(exit, entered: enteredV), label: exit, parent: UInt32(u)) { entryMs[v] = entry }
            }
        }
        for a32 in touched {
            let a = Int(a32)
            guard entryMs[a] != UInt32.max, entryMs[a] <= limitMs, s.isReached(a) else { continue }
            pieces.append(Piece(arc: ArcID(a), from: 0, to: 1, startMs: entryMs[a], endMs: s.label(a)))
        }
        return pieces
    }

    /// Arriving at `targets` by `arrival` (seconds since 1970): every arc from which the targets can
    /// be reached in time, left at most `limitMs` before the arrival.
    public mutating func backward(to targets: [ArcPosition], arrival: Double, limitMs: UInt32) -> [Piece] {
        let s = scratch.heap, endMs = scratch.extras  // labels: ms before the arrival at each arc's start
        s.reset()
        var touched: [Int32] = []
        var pieces: [Piece] = []
        func before(_ time: Double) -> UInt32 { UInt32(min(Double(UInt32.max / 2), max(0, ((arrival - time) * 1000).rounded()))) }
        for target in targets {
            let original = graph.arcOriginal[target.arc.index]
            for arc in [original] + (graph.restrictionCopies[original] ?? []) {
                guard let entry = table.latestEntry(arc.index, exit: arrival, fraction: target.fraction, ignoringClosure: true) else { continue }
                let label = before(entry)
                if arc == target.arc { pieces.append(Piece(arc: arc, from: 0, to: target.fraction, startMs: label, endMs: 0)) }
                if !s.isReached(arc.index) { touched.append(Int32(arc.index)) }
                if s.push(arc.index, key: label, label: label, parent: LabelHeap.noParent) { endMs[arc.index] = UInt32.max }
            }
        }
        let rule = graph.hasRestrictedAccess
        let endsRestricted = rule && targets.contains { Metric.restricted(graph, $0.arc) }
        while let (b, keyB) = s.popMin() {
            let lb = s.label(b), entered = keyB != lb
            if lb > limitMs {
                if !rule || entered { break }
                continue
            }
            let entryB = arrival - Double(lb) / 1000
            for i in graph.turns(into: ArcID(b)) {
                let t = Int(graph.turnReverseTurn[i])
                let a = graph.turnSource[t].index
                var enteredA = false
                if rule {
                    guard let e = RestrictedPassage.step(graph, from: ArcID(a), to: ArcID(b), entered: entered, forward: false,
                                                         endsRestricted: endsRestricted) else { continue }
                    enteredA = e
                }
                let leaveA = entryB - Double(graph.turnDurationMs[t]) / 1000
                let end = before(leaveA)
                guard end <= limitMs, !s.isSettled(a), let entryA = table.latestEntry(a, exit: leaveA) else { continue }
                let label = before(entryA)
                if !s.isReached(a) { touched.append(Int32(a)) }
                if s.push(a, key: RestrictedPassage.key(label, entered: enteredA), label: label, parent: UInt32(b)) { endMs[a] = end }
            }
        }
        for a32 in touched {
            let a = Int(a32)
            guard endMs[a] != UInt32.max, endMs[a] <= limitMs, s.isReached(a) else { continue }
            pieces.append(Piece(arc: ArcID(a), from: 0, to: 1, startMs: s.label(a), endMs: endMs[a]))
        }
        return pieces
    }
}
