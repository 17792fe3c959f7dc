public import RoadNetwork
import GeoCore
import Dispatch
import Foundation
import Parallelism

/// A nested-dissection order of the turn-expanded graph's nodes (arcs), the metric-independent
/// first phase of a Customizable Contraction Hierarchy (Dibbelt, Strasser, Wagner 2016).
///
/// Why dissect the road graph and not the turn graph: a balanced *edge* cut of the road graph
/// (intersections and road stretches) yields a vertex separator of the turn graph for free — the
/// arcs of the cut edges — because a turn joins two arcs only at a shared intersection, and no
/// intersection lies on both sides of an edge cut. The road graph has about half as many nodes
/// as the turn graph, so the flow computations are cheaper, and turn restrictions cost nothing
/// extra (restriction copies travel with their original arc).
///
/// Cuts come from inertial flow (Schild & Sommer 2015): project intersections on four
/// directions, take the first and last quarter as source and sink, and find a minimum edge cut
/// by unit-capacity max flow; the smallest of the four cuts wins. Sides are dissected recursively
/// and the top levels run in parallel on both cores.
public enum NestedDissection {
    /// Subgraphs with at most this many road nodes are ordered without further cuts.
    static let leafNodes = 2

    /// Whether `order` gives the same answer for both graphs: it reads only their nodes' positions,
    /// their edges' ends and arcs, and each arc's edge, so graphs equal in those share one order (an
    /// import reuses the car's for a taxi graph that differs only in speeds and access).
    public static func sameInput(_ a: RoadGraph, _ b: RoadGraph) -> Bool {
        func same<T>(_ x: UnsafeBufferPointer<T>, _ y: UnsafeBufferPointer<T>) -> Bool {
            guard x.count == y.count else { return false }
            guard let p = x.baseAddress, let q = y.baseAddress else { return true }
            return memcmp(p, q, x.count * MemoryLayout<T>.stride) == 0
        }
        return same(a.nodeCoordinates, b.nodeCoordinates) && same(a.edgeTail, b.edgeTail) && same(a.edgeHead, b.edgeHead)
            && same(a.edgeArcs, b.edgeArcs) && same(a.arcEdge, b.arcEdge)
    }

    /// `order[rank] = arc`: lower ranks are contracted first, separators come last.
    public static func order(_ graph: RoadGraph) -> [ArcID] {
        let n = graph.nodeCount
        // Incident edges per road node, only edges with at least one arc.
        var firstEdge = [Int32](repeating: 0, count: n + 1)
        var usable = [Bool](repeating: false, count: graph.edgeCount)
        for e in 0..<graph.edgeCount where !graph.edgeArcs[2 * e].isNone || !graph.edgeArcs[2 * e + 1].isNone {
            usable[e] = true
            firstEdge[graph.edgeTail[e].index + 1] += 1
            firstEdge[graph.edgeHead[e].index + 1] += 1
        }
        for i in 0..<n { firstEdge[i + 1] += firstEdge[i] }
        var fill = firstEdge
        var incident = [Int32](repeating: 0, count: Int(firstEdge[n]))
        for e in 0..<graph.edgeCount where usable[e] {
            let t = graph.edgeTail[e].index, h = graph.edgeHead[e].index
            incident[Int(fill[t])] = Int32(e); fill[t] += 1
            incident[Int(fill[h])] = Int32(e); fill[h] += 1
        }
        fill = []
        usable = []
        // Arcs per edge (CSR), restriction copies included.
        var arcFirst = [UInt32](repeating: 0, count: graph.edgeCount + 1)
        for a in 0..<graph.arcCount { arcFirst[graph.edge(of: ArcID(a)).index + 1] += 1 }
        for e in 0..<graph.edgeCount { arcFirst[e + 1] += arcFirst[e] }
        var arcFill = arcFirst
        var arcList = [ArcID](repeating: .none, count: graph.arcCount)
        for a in 0..<graph.arcCount {
            let e = graph.edge(of: ArcID(a)).index
            arcList[Int(arcFill[e])] = ArcID(a)
            arcFill[e] += 1
        }
        arcFill = []
        // Planar positions for the inertial projections.
        let cosLat = Geodesy.cosine(ofLatitude: graph.nodeCoordinates.isEmpty ? 0 : graph.nodeCoordinates[0].latitude)
        var x = [Float](repeating: 0, count: n), y = [Float](repeating: 0, count: n)
        for v in 0..<n {
            x[v] = Float(Double(graph.nodeCoordinates[v].longitudeE7) * cosLat * 1e-7)
            y[v] = Float(Double(graph.nodeCoordinates[v].latitudeE7) * 1e-7)
        }
        let scratch = Scratch(nodeCount: n)
        let context = Context(graph: graph, firstEdge: firstEdge, incident: incident, arcFirst: arcFirst, arcList: arcList,
                              x: x, y: y, scratch: scratch)
        let allNodes = (0..<n).map { Int32($0) }.filter { firstEdge[Int($0) + 1] > firstEdge[Int($0)] }
        let result = OrderBuffer(count: graph.arcCount)
        context.dissect(nodes: allNodes, rankStart: 0, into: result, parallelDepth: Parallelism.threads >= 2 ? 2 : 0)
        let order = Array(result.storage.prefix(graph.arcCount))
        precondition(!order.contains(.none), "every arc gets a rank")
        return order
    }

    /// Shared output, written by disjoint rank ranges from concurrent tasks.
    final class OrderBuffer: @unchecked Sendable {
        let storage: UnsafeMutableBufferPointer<ArcID>
        init(count: Int) {
            storage = .allocate(capacity: max(1, count))
            storage.initialize(repeating: .none)
        }
        deinit { storage.deallocate() }
    }

    /// Per road node: which subproblem it belongs to now and its index there. Subproblems that run
    /// at the same time hold disjoint nodes, so they share these arrays instead of each keeping a
    /// dictionary.
    final class Scratch: @unchecked Sendable {
        let owner: UnsafeMutableBufferPointer<Int32>
        let localIndex: UnsafeMutableBufferPointer<Int32>
        private let lock = NSLock()
        private var lastID: Int32 = 0

        init(nodeCount: Int) {
            owner = .allocate(capacity: max(1, nodeCount))
            owner.initialize(repeating: -1)
            localIndex = .allocate(capacity: max(1, nodeCount))
            localIndex.initialize(repeating: 0)
        }

        deinit { owner.deallocate(); localIndex.deallocate() }

        func nextID() -> Int32 {
            lock.lock()
            defer { lock.unlock() }
            lastID += 1
            return lastID
        }
    }

    struct Context: @unchecked Sendable {
        let graph: RoadGraph
        let firstEdge: [Int32]
        let incident: [Int32]
        let arcFirst: [UInt32]
        let arcList: [ArcID]
        let x: [Float], y: [Float]
        let scratch: Scratch

        func otherEnd(_ e: Int, _ v: Int) -> Int {
            let t = graph.edgeTail[e].index
            return t == v ? graph.edgeHead[e].index : t
        }

        func arcs(of e: Int32) -> ArraySlice<ArcID> { arcList[Int(arcFirst[Int(e)])..<Int(arcFirst[Int(e) + 1])] }

        /// How one subproblem splits: its parts (global node ids), the arcs inside each part, and
        /// the separator's edges; nil for a leaf, whose arcs are ranked at once.
        struct Split {
            var parts: [[Int32]]
            var partArcs: [Int]
            var separatorEdges: [Int32]
        }

        /// Builds the subproblem's local graph, ranks a leaf at once, or finds its split; the local
        /// graph is gone before the caller recurses, so only one level's graph is held at a time.
        func split(nodes: [Int32], rankStart: Int, into out: OrderBuffer) -> Split? {
            let local = LocalGraph(nodes: nodes, context: self, id: scratch.nextID())
            if nodes.count <= NestedDissection.leafNodes || local.edgeCount == 0 {
                var r = rankStart
                for e in local.edges { for a in arcs(of: e) { out.storage[r] = a; r += 1 } }
                return nil
            }
            // Split disconnected parts first: no separator needed between them.
            var partOf = [Int32](repeating: 0, count: nodes.count)
            var partCount = 0
            var separatorEdges: [Int32] = []
            let components = local.components()
            if components.count > 1 {
                for (c, component) in components.enumerated() { for i in component { partOf[Int(i)] = Int32(c) } }
                partCount = components.count
            } else {
                let (side, cut) = local.inertialFlowCut()
                separatorEdges = cut
                for i in 0..<nodes.count { partOf[i] = side[i] ? 0 : 1 }
                partCount = 2
            }
            var parts = [[Int32]](repeating: [], count: partCount)
            for (i, v) in nodes.enumerated() { parts[Int(partOf[i])].append(v) }
            // Every edge that is not cut has both ends in one part.
            var partArcs = [Int](repeating: 0, count: partCount)
            for (k, e) in local.edges.enumerated() {
                partArcs[Int(partOf[local.firstEnd(of: k)])] += arcs(of: e).count
            }
            for e in separatorEdges {
                let count = arcs(of: e).count
                // Counted above at its lower-numbered end.
                let low = min(graph.edgeTail[Int(e)].index, graph.edgeHead[Int(e)].index)
                partArcs[Int(partOf[Int(scratch.localIndex[low])])] -= count
            }
            return Split(parts: parts, partArcs: partArcs, separatorEdges: separatorEdges)
        }

        /// Orders the arcs of edges inside `nodes` into ranks starting at `rankStart`.
        func dissect(nodes: [Int32], rankStart: Int, into out: OrderBuffer, parallelDepth: Int) {
            guard let split = split(nodes: nodes, rankStart: rankStart, into: out) else { return }
            // Rank ranges: parts in order, then the separator's arcs on top.
            var partRanges: [Int] = []
            var r = rankStart
            for count in split.partArcs {
                partRanges.append(r)
                r += count
            }
            for e in split.separatorEdges { for a in arcs(of: e) { out.storage[r] = a; r += 1 } }
            let parts = split.parts
            if parallelDepth > 0 && parts.count == 2 && parts.allSatisfy({ $0.count > 2000 }) {
                let context = self, ranges = partRanges
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    context.dissect(nodes: parts[i], rankStart: ranges[i], into: out, parallelDepth: parallelDepth - 1)
                }
            } else {
                for (i, part) in parts.enumerated() {
                    dissect(nodes: part, rankStart: partRanges[i], into: out, parallelDepth: parallelDepth)
                }
            }
        }
    }
}
