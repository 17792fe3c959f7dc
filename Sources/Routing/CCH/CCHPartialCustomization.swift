import Dispatch
public import RoadNetwork

/// Partial customization: after some turns took new weights, only the nodes whose upward arcs
/// can have moved are recomputed, each as a full customization recomputes it (its arcs from
/// their input turns, then every lower triangle), so the work per node is the same tight loop.
///
/// A node is recomputed when one of its input turns changed or an arc of one of its lower
/// triangles did; a recomputed node whose weights all stayed the same marks nothing, so
/// propagation stops there. Nodes go in increasing rank, as in a full customization, and on the
/// same two threads: the plan's elimination subtrees on either thread, then the
/// separators. A node marks only its ancestors (its upward neighbours), which are on its own
/// thread or in the separator, so each thread keeps its own marks. Each lower triangle's arc is
/// found through a table made once per hierarchy (no search per lower neighbour).
///
/// Going level by level of the elimination tree instead (every level's nodes independent) was
/// measured slower on Porto: it jumps across the whole hierarchy at every level, and the cache
/// misses cost more than the rank order's locality.
extension CCHMetric {
    /// Brings the weights up to date after the turns in `changed` took new weights (`turnWeight`
    /// holds every turn's weight, old and new). Returns how many nodes were recomputed.
    /// Writes in place: the caller makes sure no query reads this metric meanwhile.
    @discardableResult
    public func customize(changed: some Sequence<Int>, turnWeight: [UInt32], graph: RoadGraph) -> Int {
        ownWeights(keeping: true)
        let s = structure, n = s.nodeCount
        let marks = (PartialMarks(nodeCount: n), PartialMarks(nodeCount: n))
        for t in changed where s.turnArc[t] != UInt32.max {
            let v = Int(min(s.rank[graph.turnSource[t].index], s.rank[graph.turnTarget[t].index]))
            marks.0.mark(v)
            marks.1.mark(v)
        }
        let split = parallelPlan.flatMap { $0.threads.count == 2 ? $0 : nil }
        let workers = (0..<(split == nil ? 1 : 2)).map { _ in PartialWorker(nodeCount: n) }
        let tables = plan.partialTables(for: s)
        withExtendedLifetime(tables) {
            turnWeight.withUnsafeBufferPointer { turnWeight in
                let context = PartialWorker.Context(structure: s, tables: tables, turnWeight: turnWeight, up: up, down: down)
                guard let split else {
                    workers[0].run(0..<n, marks: marks.0, context)
                    return
                }
                DispatchQueue.concurrentPerform(iterations: 2) { t in
                    for range in split.threads[t] { workers[t].run(range, marks: t == 0 ? marks.0 : marks.1, context) }
                }
                marks.0.merge(marks.1)
                for range in split.sequential { workers[0].run(range, marks: marks.0, context) }
            }
        }
        return workers.reduce(0) { $0 + $1.recomputed }
    }

    /// What partial customization looks up per node, in rank order, made once per hierarchy.
    final class PartialTables: @unchecked Sendable {
        /// For each arc listed by its higher end (`DownwardArcs`), its place in the upward lists.
        let downArc: UnsafeBufferPointer<UInt32>
        /// Each node's input turns (`inputTurn[inputFirst[v]..<inputFirst[v + 1]]`) with their
        /// `turnArc` codes: gathered from the arc-ordered turn columns, they cost a cache miss each.
        let inputFirst: UnsafeBufferPointer<UInt32>, inputTurn: UnsafeBufferPointer<UInt32>, inputCode: UnsafeBufferPointer<UInt32>

        deinit {
            for p in [downArc, inputFirst, inputTurn, inputCode] { p.deallocate() }
        }

        private static func copy(_ a: [UInt32]) -> UnsafeBufferPointer<UInt32> {
            let p = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: a.count)
            _ = p.initialize(from: a)
            return UnsafeBufferPointer(p)
        }

        init(_ s: CCHStructure) {
            // The downward lists hold each node's lower neighbours in increasing order, which is
            // the order a pass over the upward lists meets them in.
            var fill = Array(s.downward.firstIn.dropLast())
            var downArc = [UInt32](repeating: 0, count: s.arcCount)
            for u in 0..<s.nodeCount {
                for k in Int(s.upFirstOut[u])..<Int(s.upFirstOut[u + 1]) {
                    let h = Int(s.upHead[k])
                    downArc[Int(fill[h])] = UInt32(k)
                    fill[h] += 1
                }
            }
            self.downArc = Self.copy(downArc)
            // A turn's CCH arc belongs to its lower end: the first node of the arc's upward list.
            var lowerOf = [UInt32](repeating: 0, count: s.arcCount)
            for v in 0..<s.nodeCount { for k in Int(s.upFirstOut[v])..<Int(s.upFirstOut[v + 1]) { lowerOf[k] = UInt32(v) } }
            var first = [UInt32](repeating: 0, count: s.nodeCount + 1)
            for code in s.turnArc where code != UInt32.max { first[Int(lowerOf[Int(code >> 1)]) + 1] += 1 }
            for v in 0..<s.nodeCount { first[v + 1] += first[v] }
            var next = Array(first.dropLast())
            var turn = [UInt32](repeating: 0, count: Int(first[s.nodeCount])), codes = turn
            for (t, code) in s.turnArc.enumerated() where code != UInt32.max {
                let v = Int(lowerOf[Int(code >> 1)])
                turn[Int(next[v])] = UInt32(t)
                codes[Int(next[v])] = code
                next[v] += 1
            }
            (inputFirst, inputTurn, inputCode) = (Self.copy(first), Self.copy(turn), Self.copy(codes))
        }
    }
}

/// One bit per node: to be recomputed. Each thread has its own, so no word is written by two.
private final class PartialMarks: @unchecked Sendable {
    let bits: UnsafeMutablePointer<UInt64>
    let words: Int

    init(nodeCount: Int) {
        words = (nodeCount + 64) / 64
        bits = .allocate(capacity: words)
        bits.initialize(repeating: 0, count: words)
    }

    deinit { bits.deallocate() }

    @inline(__always)
    func mark(_ v: Int) { bits[v >> 6] |= 1 << UInt64(v & 63) }

    /// Adds the other thread's marks (its own nodes' are spent; the separators' are wanted).
    func merge(_ other: PartialMarks) {
        for w in 0..<words { bits[w] |= other.bits[w] }
    }
}

/// One thread's scratch for partial customization.
private final class PartialWorker: @unchecked Sendable {
    /// Plain pointers only: the two threads read them for every node, and reference-counted
    /// values there would have both bump the same counters.
    struct Context: @unchecked Sendable {
        let firstOut: UnsafeBufferPointer<UInt32>, head: UnsafeBufferPointer<UInt32>
        let downFirstIn: UnsafeBufferPointer<UInt32>, downTail: UnsafeBufferPointer<UInt32>
        let downArc: UnsafeBufferPointer<UInt32>
        let inputFirst: UnsafeBufferPointer<UInt32>, inputTurn: UnsafeBufferPointer<UInt32>, inputCode: UnsafeBufferPointer<UInt32>
        let turnWeight: UnsafeBufferPointer<UInt32>
        let up: UnsafeMutableBufferPointer<UInt32>, down: UnsafeMutableBufferPointer<UInt32>

        /// The caller keeps `tables` alive while the context is in use.
        init(structure s: CCHStructure, tables: CCHMetric.PartialTables, turnWeight: UnsafeBufferPointer<UInt32>,
             up: UnsafeMutableBufferPointer<UInt32>, down: UnsafeMutableBufferPointer<UInt32>) {
            (firstOut, head, downFirstIn, downTail) = (s.upFirstOut, s.upHead, s.downward.firstIn, s.downward.tail)
            (downArc, inputFirst, inputTurn, inputCode) = (tables.downArc, tables.inputFirst, tables.inputTurn, tables.inputCode)
            (self.turnWeight, self.up, self.down) = (turnWeight, up, down)
        }
    }

    /// The current node's new weights, by head.
    let workUp: UnsafeMutablePointer<UInt32>, workDown: UnsafeMutablePointer<UInt32>
    var recomputed = 0
    private var changed: [Bool] = []

    init(nodeCount: Int) {
        workUp = .allocate(capacity: max(1, nodeCount))
        workDown = .allocate(capacity: max(1, nodeCount))
    }

    deinit { workUp.deallocate(); workDown.deallocate() }

    /// Recomputes the marked nodes of `nodes`, in increasing rank.
    func run(_ nodes: Range<Int>, marks: PartialMarks, _ c: Context) {
        let bits = marks.bits
        var v = nodes.lowerBound
        while v < nodes.upperBound {
            // Marks only ever go to higher nodes, so the word is read afresh each time.
            let word = bits[v >> 6] >> UInt64(v & 63)
            if word == 0 { v = (v | 63) + 1; continue }
            v += word.trailingZeroBitCount
            guard v < nodes.upperBound else { break }
            recompute(v, marks: marks, c)
            v += 1
        }
    }

    /// Recomputes node v's upward arcs and marks the nodes whose arcs a changed one can move.
    private func recompute(_ v: Int, marks: PartialMarks, _ c: Context) {
        let firstOut = c.firstOut, head = c.head, up = c.up, down = c.down
        let begin = Int(firstOut[v]), end = Int(firstOut[v + 1])
        guard begin < end else { return }
        recomputed += 1
        for k in begin..<end {
            workUp[Int(head[k])] = CCHMetric.infinity
            workDown[Int(head[k])] = CCHMetric.infinity
        }
        // The inputs: the turns that lie on this node's upward arcs.
        for i in Int(c.inputFirst[v])..<Int(c.inputFirst[v + 1]) {
            let code = c.inputCode[i], y = Int(head[Int(code >> 1)]), w = c.turnWeight[Int(c.inputTurn[i])]
            if code & 1 == 0 { workUp[y] = min(workUp[y], w) } else { workDown[y] = min(workDown[y], w) }
        }
        for i in Int(c.downFirstIn[v])..<Int(c.downFirstIn[v + 1]) {
            let u = Int(c.downTail[i]), uv = Int(c.downArc[i])
            let vToU = down[uv], uToV = up[uv]
            // u's upward arcs above v follow its arc to v (the lists are sorted).
            let uEnd = Int(firstOut[u + 1])
            var k = uv + 1
            while k < uEnd {
                let y = Int(head[k])
                workUp[y] = min(workUp[y], vToU &+ up[k])
                workDown[y] = min(workDown[y], down[k] &+ uToV)
                k += 1
            }
        }
        let degree = end - begin
        changed.removeAll(keepingCapacity: true)
        changed.append(contentsOf: repeatElement(false, count: degree))
        var lastChanged = -1
        for k in begin..<end {
            let y = Int(head[k])
            guard up[k] != workUp[y] || down[k] != workDown[y] else { continue }
            up[k] = workUp[y]
            down[k] = workDown[y]
            changed[k - begin] = true
            lastChanged = k - begin
        }
        guard lastChanged >= 0 else { return }
        // v–y and v–z (y < z, both upward neighbours of v) are the lower arcs of the triangle
        // {v, y, z}, whose third arc y–z belongs to y: y is recomputed when either changed.
        for p in 0..<degree where p < lastChanged || (changed[p] && p < degree - 1) {
            marks.mark(Int(head[begin + p]))
        }
    }
}
