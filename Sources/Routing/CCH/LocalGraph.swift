import RoadNetwork

/// One subproblem of the nested dissection: an induced subgraph of the road graph with local
/// node numbers, in CSR form, plus the max-flow machinery for inertial-flow cuts.
struct LocalGraph {
    let nodes: [Int32]
    /// Global edge ids of the subgraph's edges, and the local index of each edge's first end.
    private(set) var edges: [Int32] = []
    private var edgeStart: [Int32] = []
    var firstOut: [Int32]
    var head: [Int32] = []
    /// Local edge index of each adjacency entry (both directions share one edge).
    var edgeOf: [Int32] = []
    /// The adjacency entry running the other way along the same edge.
    var reverseEntry: [Int32] = []
    let x: [Float], y: [Float]

    var edgeCount: Int { edges.count }

    /// The subgraph induced by `nodes`; `id` marks them in the context's shared scratch (unique
    /// among subproblems alive at the same time).
    init(nodes: [Int32], context: NestedDissection.Context, id: Int32) {
        self.nodes = nodes
        let owner = context.scratch.owner, localIndex = context.scratch.localIndex
        for (i, v) in nodes.enumerated() {
            owner[Int(v)] = id
            localIndex[Int(v)] = Int32(i)
        }
        firstOut = [Int32](repeating: 0, count: nodes.count + 1)
        var lx = [Float](), ly = [Float]()
        lx.reserveCapacity(nodes.count)
        ly.reserveCapacity(nodes.count)
        var edgeEnd: [Int32] = []
        for (i, v) in nodes.enumerated() {
            let vi = Int(v)
            lx.append(context.x[vi])
            ly.append(context.y[vi])
            for k in Int(context.firstEdge[vi])..<Int(context.firstEdge[vi + 1]) {
                let e = Int(context.incident[k])
                let w = context.otherEnd(e, vi)
                guard w > vi, owner[w] == id else { continue }
                edges.append(Int32(e))
                edgeStart.append(Int32(i))
                edgeEnd.append(localIndex[w])
                firstOut[i + 1] += 1
                firstOut[Int(localIndex[w]) + 1] += 1
            }
        }
        x = lx
        y = ly
        for i in 0..<nodes.count { firstOut[i + 1] += firstOut[i] }
        var fill = firstOut
        head = [Int32](repeating: 0, count: edges.count * 2)
        edgeOf = [Int32](repeating: 0, count: edges.count * 2)
        reverseEntry = [Int32](repeating: 0, count: edges.count * 2)
        for e in 0..<edges.count {
            let u = Int(edgeStart[e]), w = Int(edgeEnd[e])
            let iu = Int(fill[u]), iw = Int(fill[w])
            head[iu] = Int32(w); edgeOf[iu] = Int32(e); fill[u] += 1
            head[iw] = Int32(u); edgeOf[iw] = Int32(e); fill[w] += 1
            reverseEntry[iu] = Int32(iw)
            reverseEntry[iw] = Int32(iu)
        }
    }

    /// The local index of edge `k`'s lower-numbered end.
    func firstEnd(of k: Int) -> Int { Int(edgeStart[k]) }

    /// Connected components as lists of local node indices.
    func components() -> [[Int32]] {
        var seen = [Bool](repeating: false, count: nodes.count)
        var result: [[Int32]] = []
        var stack: [Int32] = []
        for s in 0..<nodes.count where !seen[s] {
            var component: [Int32] = []
            stack.append(Int32(s))
            seen[s] = true
            while let v = stack.popLast() {
                component.append(v)
                for i in Int(firstOut[Int(v)])..<Int(firstOut[Int(v) + 1]) {
                    let w = Int(head[i])
                    if !seen[w] { seen[w] = true; stack.append(Int32(w)) }
                }
            }
            result.append(component)
        }
        return result
    }

    /// The smallest of four inertial-flow cuts: `side[i]` is true on the source side; the global
    /// ids of the cut edges.
    func inertialFlowCut() -> (side: [Bool], cut: [Int32]) {
        let directions: [(Float, Float)] = [(1, 0), (0, 1), (0.7071, 0.7071), (0.7071, -0.7071)]
        var best: (side: [Bool], cut: [Int32], balance: Int)?
        let n = nodes.count
        let terminals = max(1, n / 4)
        for (dx, dy) in directions {
            var byProjection = Array(0..<n)
            let projection = (0..<n).map { x[$0] * dx + y[$0] * dy }
            byProjection.sort { projection[$0] < projection[$1] }
            var role = [Int8](repeating: 0, count: n)  // 1 source, -1 sink
            for i in 0..<terminals { role[byProjection[i]] = 1; role[byProjection[n - 1 - i]] = -1 }
            let limit = best.map { $0.cut.count } ?? Int.max
            guard let (side, cut) = minimumCut(role: role, limit: limit) else { continue }
            let sourceSide = side.reduce(0) { $0 + ($1 ? 1 : 0) }
            let balance = min(sourceSide, n - sourceSide)
            if best == nil || cut.count < best!.cut.count || (cut.count == best!.cut.count && balance > best!.balance) {
                best = (side, cut, balance)
            }
        }
        // A cut always exists (sources and sinks are disjoint), so `best` is set.
        return (best!.side, best!.cut)
    }

    /// Unit-capacity max flow from the sources to the sinks (Dinic: a BFS builds the levels of the
    /// residual graph, then depth-first searches along them find a blocking flow, so one BFS serves
    /// many augmenting paths); nil when the flow exceeds `limit` (another direction already found a
    /// smaller cut). The sources act as one node and the sinks as another: searches start from the
    /// entries leaving the sources and end at the first sink, never walking inside either set.
    ///
    /// The source side returned is what the sources reach in the final residual graph, the same
    /// for every maximum flow, so the cut does not depend on how the flow was found.
    func minimumCut(role: [Int8], limit: Int) -> (side: [Bool], cut: [Int32])? {
        let n = nodes.count
        // flow[i] on adjacency entry i: +1 when one unit goes along it (the reverse entry then holds -1).
        var flow = [Int8](repeating: 0, count: head.count)
        var boundary: [Int32] = []
        for v in 0..<n where role[v] == 1 {
            for i in Int(firstOut[v])..<Int(firstOut[v + 1]) where role[Int(head[i])] != 1 { boundary.append(Int32(i)) }
        }
        var level = [Int32](repeating: -1, count: n)
        var queue = [Int32](repeating: 0, count: n)
        var current = [Int32](repeating: 0, count: n)
        var path: [Int32] = []
        var total = 0
        while true {
            // Levels of the residual graph from the sources, up to the first level with a sink.
            for v in 0..<n { level[v] = -1 }
            var qHead = 0, qTail = 0
            var sinkLevel = Int32.max
            for b in boundary where flow[Int(b)] < 1 {
                let w = Int(head[Int(b)])
                if level[w] < 0 { level[w] = 1; queue[qTail] = Int32(w); qTail += 1 }
            }
            while qHead < qTail {
                let v = Int(queue[qHead]); qHead += 1
                if role[v] == -1 { sinkLevel = min(sinkLevel, level[v]); continue }
                if level[v] >= sinkLevel { continue }
                for i in Int(firstOut[v])..<Int(firstOut[v + 1]) where flow[i] < 1 {
                    let w = Int(head[i])
                    guard level[w] < 0, role[w] != 1 else { continue }
                    level[w] = level[v] + 1
                    queue[qTail] = Int32(w); qTail += 1
                }
            }
            if sinkLevel == Int32.max {
                // No augmenting path left: the source side of a minimum cut.
                let side = (0..<n).map { role[$0] == 1 || level[$0] >= 0 }
                var cut: [Int32] = []
                for v in 0..<n where side[v] {
                    for i in Int(firstOut[v])..<Int(firstOut[v + 1]) where !side[Int(head[i])] {
                        cut.append(edges[Int(edgeOf[i])])
                    }
                }
                return (side, cut)
            }
            // A blocking flow along the levels: each boundary entry carries at most one unit.
            for v in 0..<n { current[v] = firstOut[v] }
            for b in boundary where flow[Int(b)] < 1 && level[Int(head[Int(b)])] == 1 {
                path.removeAll(keepingCapacity: true)
                path.append(b)
                var v = Int(head[Int(b)])
                while true {
                    if role[v] == -1 {
                        for i in path {
                            flow[Int(i)] += 1
                            flow[Int(reverseEntry[Int(i)])] -= 1
                        }
                        total += 1
                        if total > limit { return nil }
                        break
                    }
                    // The next entry one level further on, if any; a node with none is pruned.
                    var next: Int32 = -1
                    if level[v] < sinkLevel {
                        while current[v] < firstOut[v + 1] {
                            let i = Int(current[v])
                            let w = Int(head[i])
                            if flow[i] < 1 && level[w] == level[v] + 1 && role[w] != 1 { next = Int32(i); break }
                            current[v] += 1
                        }
                    }
                    if next >= 0 {
                        path.append(next)
                        v = Int(head[Int(next)])
                        continue
                    }
                    level[v] = -1
                    path.removeLast()
                    if path.isEmpty { break }
                    v = Int(head[Int(path[path.count - 1])])
                }
            }
        }
    }
}
