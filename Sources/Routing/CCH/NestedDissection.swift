public import RoadNetwork
import GeoCore
import Dispatch

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
        // Arcs per edge, restriction copies included.
        var arcsOfEdge = [[ArcID]](repeating: [], count: graph.edgeCount)
        for a in 0..<graph.arcCount { arcsOfEdge[graph.edge(of: ArcID(a)).index].append(ArcID(a)) }
        // Planar positions for the inertial projections.
        let cosLat = Geodesy.cosine(ofLatitude: graph.nodeCoordinates.isEmpty ? 0 : graph.nodeCoordinates[0].latitude)
        var x = [Float](repeating: 0, count: n), y = [Float](repeating: 0, count: n)
        for v in 0..<n {
            x[v] = Float(Double(graph.nodeCoordinates[v].longitudeE7) * cosLat * 1e-7)
            y[v] = Float(Double(graph.nodeCoordinates[v].latitudeE7) * 1e-7)
        }
        let context = Context(graph: graph, firstEdge: firstEdge, incident: incident, arcsOfEdge: arcsOfEdge, x: x, y: y)
        let allNodes = (0..<n).map { Int32($0) }.filter { firstEdge[Int($0) + 1] > firstEdge[Int($0)] }
        var order = [ArcID](repeating: .none, count: graph.arcCount)
        let result = OrderBuffer(count: graph.arcCount)
        context.dissect(nodes: allNodes, rankStart: 0, into: result, parallelDepth: 2)
        for r in 0..<graph.arcCount { order[r] = result.storage[r] }
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

    struct Context: @unchecked Sendable {
        let graph: RoadGraph
        let firstEdge: [Int32]
        let incident: [Int32]
        let arcsOfEdge: [[ArcID]]
        let x: [Float], y: [Float]

        func otherEnd(_ e: Int, _ v: Int) -> Int {
            let t = graph.edgeTail[e].index
            return t == v ? graph.edgeHead[e].index : t
        }

        /// Orders the arcs of edges inside `nodes` into ranks starting at `rankStart`.
        func dissect(nodes: [Int32], rankStart: Int, into out: OrderBuffer, parallelDepth: Int) {
            var local = LocalGraph(nodes: nodes, context: self)
            if nodes.count <= NestedDissection.leafNodes || local.edgeCount == 0 {
                var r = rankStart
                for e in local.edges { for a in arcsOfEdge[Int(e)] { out.storage[r] = a; r += 1 } }
                return
            }
            // Split disconnected parts first: no separator needed between them.
            let components = local.components()
            var parts: [[Int32]]
            var separatorEdges: [Int32] = []
            if components.count > 1 {
                parts = components.map { $0.map { nodes[Int($0)] } }
            } else {
                let (side, cut) = local.inertialFlowCut()
                separatorEdges = cut
                var a: [Int32] = [], b: [Int32] = []
                for (i, v) in nodes.enumerated() { if side[i] { a.append(v) } else { b.append(v) } }
                parts = [a, b]
            }
            // Rank ranges: parts in order, then the separator's arcs on top.
            let cutSet = Set(separatorEdges)
            var partRanges: [Int] = []
            var r = rankStart
            for part in parts {
                partRanges.append(r)
                r += arcCount(inside: part, excluding: cutSet)
            }
            for e in separatorEdges { for a in arcsOfEdge[Int(e)] { out.storage[r] = a; r += 1 } }
            if parallelDepth > 0 && parts.count == 2 && parts.allSatisfy({ $0.count > 2000 }) {
                let context = self
                let fixedParts = parts, fixedRanges = partRanges
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    context.dissect(nodes: fixedParts[i], rankStart: fixedRanges[i], into: out, parallelDepth: parallelDepth - 1)
                }
            } else {
                for (i, part) in parts.enumerated() {
                    dissect(nodes: part, rankStart: partRanges[i], into: out, parallelDepth: parallelDepth)
                }
            }
        }

        /// Arcs of edges with both ends in `nodes` (cut edges excluded).
        func arcCount(inside nodes: [Int32], excluding cut: Set<Int32>) -> Int {
            var inside = Set<Int32>(minimumCapacity: nodes.count)
            for v in nodes { inside.insert(v) }
            var count = 0
            for v in nodes {
                let vi = Int(v)
                for i in Int(firstEdge[vi])..<Int(firstEdge[vi + 1]) {
                    let e = Int(incident[i])
                    let w = otherEnd(e, vi)
                    // Count each edge once, from its lower end (loops are impossible).
                    guard w > vi || w == vi, inside.contains(Int32(w)), !cut.contains(Int32(e)) else { continue }
                    count += arcsOfEdge[e].count
                }
            }
            return count
        }
    }
}
