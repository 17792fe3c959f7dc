public import RoadNetwork
public import Routing

/// The routes between the candidates of consecutive fixes, on the turn-expanded graph (so
/// one-ways, turn restrictions and forbidden U-turns hold): the route chosen by `metric` (as
/// OSRM and GraphHopper do, the fastest one on free-flow times), measured in centimetres of road.
///
/// A hop is one search from a source position to all the positions of the next fix (`aim` sets
/// them once per fix), each target with its own length bound (the matcher derives it from the
/// best score the target already has), stopping as soon as every target is settled or out of
/// reach. A short hop, the usual case between fixes a few seconds apart, touches a few dozen
/// arcs. A hop whose bound is long (sparse sampling, gaps) asks the customized hierarchy
/// instead, whose cost does not grow with the distance.
public final class TransitionRouter: @unchecked Sendable {
    public let graph: RoadGraph
    public let metric: Metric
    let hierarchy: CCHMetric?
    let scratch: SearchScratch
    /// Length (cm) of the path to each arc that the current search reached.
    let reachedCm: UnsafeMutablePointer<UInt32>
    let cchScratch: CCHScratch?
    /// Length bounds (cm) beyond which the hierarchy answers instead of the bounded search.
    public var hierarchyAboveCm: UInt32 = 150_000
    /// What turning around on the spot, in the middle of a road, costs in `metric`'s units …
    public let turnAroundKey: UInt32
    /// … and in centimetres added to the route's length (nil: routes never turn around mid-road).
    public var turnAroundCm: UInt32?
    /// Searches run and arcs settled since creation (for benchmarks).
    public private(set) var searches = 0, hierarchySearches = 0, settledArcs = 0
    let table = TargetTable()

    public init(graph: RoadGraph, metric: Metric, hierarchy: CCHMetric?, turnAroundKey: UInt32) {
        self.graph = graph
        self.metric = metric
        self.hierarchy = hierarchy
        self.turnAroundKey = turnAroundKey
        scratch = SearchScratch(capacity: graph.arcCount)
        reachedCm = .allocate(capacity: max(1, graph.arcCount))
        cchScratch = hierarchy.map { CCHScratch(nodeCount: $0.structure.nodeCount) }
    }

    deinit { reachedCm.deallocate() }

    /// Sentinel of `lengths` for a target with no route within its bound.
    public static let unreached = UInt32.max

    /// A route between two positions: its arcs (the first is the source's arc, or its twin when
    /// the route starts by turning around).
    public struct Path: Sendable {
        public var arcs: [ArcID]
        public var turnsAround: Bool
    }

    /// Sets the targets of the next `lengths` calls (the positions of one fix).
    public func aim(at targets: [ArcPosition]) {
        let t = table
        t.reserve(targets.count)
        t.targets = targets
        t.clearIndex()
        for (j, p) in targets.enumerated() {
            let original = graph.arcOriginal[p.arc.index]
            t.targetArc[j] = original
            t.excess[j] = metric.remaining(p)
            t.targetCm[j] = partCm(p.arc, p.fraction)
            t.insert(original, j)
        }
    }

    /// For each target `aim` set, the length in cm of the route `metric` picks from `source` to
    /// it (a turn-around's `cm` included), or `unreached` when that is longer than `maxCm[j]` (a
    /// target with bound 0 is not wanted).
    public func lengths(from source: ArcPosition, maxCm: [UInt32], into out: inout [UInt32]) {
        let n = table.targets.count
        out.removeAll(keepingCapacity: true)
        let bound = maxCm.max() ?? 0
        guard bound > 0 else { out.append(contentsOf: repeatElement(Self.unreached, count: n)); return }
        if bound > hierarchyAboveCm, let found = hierarchical(from: source, to: table.targets) {
            for (f, m) in zip(found, maxCm) { out.append(f.flatMap { $0.cm <= m ? $0.cm : nil } ?? Self.unreached) }
            return
        }
        search(from: source, maxCm: maxCm)
        for j in 0..<n { out.append(table.cm[j]) }
    }

    /// The route from `source` to `target` that `lengths` measured, nil when none is within `maxCm`.
    /// (It aims at `target`: call `aim` again before more `lengths`.)
    public func path(from source: ArcPosition, to target: ArcPosition, maxCm: UInt32) -> Path? {
        if maxCm > hierarchyAboveCm, let found = hierarchical(from: source, to: [target]) {
            return found[0].flatMap { $0.cm <= maxCm ? $0.path : nil }
        }
        aim(at: [target])
        search(from: source, maxCm: [maxCm])
        let t = table
        guard t.cm[0] != Self.unreached else { return nil }
        var arcs = [t.entered[0]]
        var u = Int(t.from[0])
        while u >= 0 {
            arcs.append(ArcID(u))
            let p = scratch.parentOf(u)
            u = p == SearchScratch.noParent ? -1 : Int(p)
        }
        arcs.reverse()
        return Path(arcs: arcs, turnsAround: arcs[0] != source.arc)
    }

    /// Centimetres of `arc` up to `fraction` of it.
    @inline(__always) func partCm(_ arc: ArcID, _ fraction: Double) -> UInt32 {
        UInt32((Double(graph.lengthCm(of: arc)) * max(0, fraction)).rounded())
    }

    /// The positions a route from `source` may start at: the source itself, and the same point
    /// on the twin arc after turning around (with that key and length already spent).
    func starts(_ source: ArcPosition) -> [(position: ArcPosition, key: UInt32, cm: UInt32)] {
        var out = [(source, UInt32(0), UInt32(0))]
        let twin = graph.twin(of: source.arc)
        if let cm = turnAroundCm, !twin.isNone { out.append((ArcPosition(arc: twin, fraction: 1 - source.fraction), turnAroundKey, cm)) }
        return out
    }

    /// The bounded one-to-many search. A target is met when a turn enters its arc (the part of
    /// the arc beyond the target taken off); a target is settled once the smallest key left
    /// reaches its best key, and the search stops when every target is settled or no reached arc
    /// is within the largest bound still open.
    private func search(from source: ArcPosition, maxCm: [UInt32]) {
        let t = table
        let n = t.targets.count
        let key = t.key, cm = t.cm, from = t.from, entered = t.entered, open = t.open
        let targetArc = t.targetArc, excess = t.excess, targetCm = t.targetCm
        let originals = graph.arcOriginal
        let starts = starts(source)
        var limit: UInt32 = 0, openCount = 0
        for j in 0..<n {
            key[j] = .max; cm[j] = Self.unreached; from[j] = -1; entered[j] = .none
            open[j] = maxCm[j] > 0
            guard open[j] else { continue }
            // Further along a start arc: staying on it is the shortest way there (for the source's
            // own arc also the fastest, so nothing is left to search).
            let f = t.targets[j].fraction
            for (k, start) in starts.enumerated() where targetArc[j] == originals[start.position.arc.index] && f >= start.position.fraction {
                let c = start.cm &+ partCm(start.position.arc, f - start.position.fraction)
                let w = start.key &+ UInt32((Double(metric.arcWeight[start.position.arc.index]) * (f - start.position.fraction)).rounded())
                if c <= maxCm[j] && w < key[j] { key[j] = w; cm[j] = c; entered[j] = start.position.arc }
                if k == 0 { open[j] = false }
            }
            if open[j] { limit = max(limit, maxCm[j]); openCount += 1 }
        }
        guard openCount > 0 else { return }
        let s = scratch
        s.reset()
        var settled = 0
        let reached = reachedCm
        for start in starts {
            let arcCm = graph.lengthCm(of: start.position.arc)
            let c = start.cm &+ (arcCm - min(arcCm, partCm(start.position.arc, start.position.fraction)))
            if s.relax(start.position.arc.index, key: start.key &+ metric.remaining(start.position), parent: SearchScratch.noParent) { reached[start.position.arc.index] = c }
        }
        let firstOut = graph.turnFirstOut, turnTarget = graph.turnTarget
        let lengths = graph.edgeLengthCm, arcEdge = graph.arcEdge
        // The smallest best key of an open target: until the search reaches it, none closes.
        var nextClose = UInt32.max
        metric.turnWeight.withUnsafeBufferPointer { weight in
            while let (u, du) = s.popMin() {
                settled += 1
                if du >= nextClose {
                    // Targets whose best key is reached cannot improve.
                    limit = 0; nextClose = .max; openCount = 0
                    for j in 0..<n where open[j] {
                        if du >= key[j] { open[j] = false; continue }
                        limit = max(limit, maxCm[j]); nextClose = min(nextClose, key[j]); openCount += 1
                    }
                    if openCount == 0 { break }
                }
                let cu = reached[u]
                for e in Int(firstOut[u])..<Int(firstOut[u + 1]) {
                    let w = weight[e]
                    if w == Metric.infinite { continue }
                    let v = turnTarget[e].index
                    let nd = Metric.add(du, w)
                    let j = t.index(of: originals[v])
                    if j >= 0 && open[j] {
                        let k = nd - excess[j], c = cu &+ targetCm[j]
                        if c <= maxCm[j] && k < key[j] {
                            key[j] = k; cm[j] = c; from[j] = Int32(u); entered[j] = ArcID(v)
                            nextClose = min(nextClose, k)
                        }
                    }
                    let cv = cu &+ lengths[Int(arcEdge[v] >> 1)]
                    if cv <= limit, s.relax(v, key: nd, parent: UInt32(u)) { reached[v] = cv }
                }
            }
        }
        searches &+= 1
        settledArcs &+= settled
    }

    /// Lengths and routes by the hierarchy; nil without one.
    private func hierarchical(from source: ArcPosition, to targets: [ArcPosition]) -> [(cm: UInt32, path: Path)?]? {
        guard let hierarchy, let cchScratch else { return nil }
        hierarchySearches += 1
        let starts = starts(source)
        var search = CCHLegSearch(graph: graph, metric: metric, cch: hierarchy, scratch: cchScratch)
        let solution = search.solve(LegProblem(sources: starts.map { .init(position: $0.position, cost: $0.key) }, targets: targets))
        return zip(solution.paths, targets).map { path, target in
            guard let path, let first = path.arcs.first else { return nil }
            let start = starts[path.source]
            var cm = start.cm
            if path.arcs.count == 1 {
                cm &+= partCm(first, target.fraction - start.position.fraction)
            } else {
                cm &+= partCm(first, 1 - start.position.fraction) &+ partCm(path.arcs[path.arcs.count - 1], target.fraction)
                for arc in path.arcs.dropFirst().dropLast() { cm &+= graph.lengthCm(of: arc) }
            }
            return (cm, Path(arcs: path.arcs, turnsAround: path.source == 1))
        }
    }
}

/// The targets of one fix and what the last search found for each, kept between searches: the
/// best key, the length (`unreached` when none), the arc the route turned into the target's arc
/// from (-1 when it stays on a start arc) and the arc it entered; plus a small open-addressing
/// index from original arcs to targets, so a relaxed turn finds its target in one probe.
final class TargetTable {
    private(set) var capacity = 0
    var targets: [ArcPosition] = []
    private(set) var key = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private(set) var cm = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private(set) var from = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var entered = UnsafeMutablePointer<ArcID>.allocate(capacity: 1)
    private(set) var open = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    private(set) var targetArc = UnsafeMutablePointer<ArcID>.allocate(capacity: 1)
    private(set) var excess = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private(set) var targetCm = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private(set) var slotArc = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private(set) var slotTarget = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var mask = 0

    func reserve(_ n: Int) {
        guard n > capacity else { return }
        release()
        capacity = max(32, n)
        key = .allocate(capacity: capacity); cm = .allocate(capacity: capacity); from = .allocate(capacity: capacity)
        entered = .allocate(capacity: capacity); open = .allocate(capacity: capacity); targetArc = .allocate(capacity: capacity)
        excess = .allocate(capacity: capacity); targetCm = .allocate(capacity: capacity)
        var slots = 1
        while slots < 4 * capacity { slots <<= 1 }
        mask = slots - 1
        slotArc = .allocate(capacity: slots); slotTarget = .allocate(capacity: slots)
    }

    func clearIndex() { slotArc.update(repeating: .max, count: mask + 1) }

    @inline(__always) func slot(_ arc: ArcID) -> Int { Int((arc.rawValue &* 0x9E37_79B1) >> 7) & mask }

    func insert(_ arc: ArcID, _ j: Int) {
        var i = slot(arc)
        while slotArc[i] != .max && slotArc[i] != arc.rawValue { i = (i + 1) & mask }
        slotArc[i] = arc.rawValue
        slotTarget[i] = Int32(j)
    }

    /// The target on original arc `arc`, or -1.
    @inline(__always) func index(of arc: ArcID) -> Int {
        var i = slot(arc)
        while true {
            let a = slotArc[i]
            if a == arc.rawValue { return Int(slotTarget[i]) }
            if a == .max { return -1 }
            i = (i + 1) & mask
        }
    }

    private func release() {
        key.deallocate(); cm.deallocate(); from.deallocate(); entered.deallocate(); open.deallocate()
        targetArc.deallocate(); excess.deallocate(); targetCm.deallocate(); slotArc.deallocate(); slotTarget.deallocate()
    }

    deinit { release() }
}
