import GeoCore
import RoadNetwork

/// The roads at one node as a driver arriving on `arriving` sees them: each road's bearing and
/// turn angle, whether it may be entered from here, and which one the route takes.
struct Intersection {
    struct Road {
        /// The arc leaving the node along this road, `.none` when it is one-way towards the node.
        var leaving: ArcID
        /// An arc of this road (leaving, or arriving when it cannot be left by) for its name and class.
        var anyArc: ArcID
        /// Compass bearing from the node along the road.
        var bearing: Double
        /// Degrees from the arriving direction (+ right, − left, ±180 back).
        var angle: Double
        var entryAllowed: Bool
        var deviation: Double { abs(angle) }
    }

    let node: NodeID
    let arriving: ArcID
    /// Every road at the node, the one arrived on included, in clockwise bearing order.
    let roads: [Road]
    /// Index in `roads` of the road arrived on, and of the one the route takes.
    let inIndex: Int
    let outIndex: Int

    var taken: Road { roads[outIndex] }
    /// The roads other than the one arrived on and the one taken.
    var others: [Road] { roads.indices.filter { $0 != inIndex && $0 != outIndex }.map { roads[$0] } }
    /// Roads a driver could take instead of the route's one (U-turns aside).
    var alternatives: [Road] { others.filter(\.entryAllowed) }
    var isJunction: Bool { roads.count > 2 }

    /// The view at the head of `arriving`, the route leaving on `leaving`.
    init(arriving: ArcID, leaving: ArcID, facts: RoadFacts) {
        let g = facts.graph
        let node = g.head(of: arriving)
        self.node = node
        self.arriving = arriving
        // The arcs at the node, found through the turn table (the graph keeps no node adjacency):
        // what can be entered from arcs arriving here, and what arrives at what leaves.
        var arrivingArcs: Set<ArcID> = [arriving]
        var leavingArcs: Set<ArcID> = [leaving]
        var frontier: [ArcID] = [arriving]
        var leavingFrontier: [ArcID] = [leaving]
        var rounds = 0
        while (!frontier.isEmpty || !leavingFrontier.isEmpty) && rounds < 8 {
            rounds += 1
            var nextLeaving: [ArcID] = []
            for x in frontier {
                var found = g.turns(from: x).map { g.arcOriginal[g.turnTarget[$0].index] }
                let twin = g.twin(of: x)
                if !twin.isNone { found.append(twin) }
                for y in found where g.tail(of: y) == node && leavingArcs.insert(y).inserted { nextLeaving.append(y) }
            }
            leavingFrontier += nextLeaving
            var nextArriving: [ArcID] = []
            for y in leavingFrontier {
                var found = g.turns(into: y).map { g.arcOriginal[g.turnSource[Int(g.turnReverseTurn[$0])].index] }
                let twin = g.twin(of: y)
                if !twin.isNone { found.append(twin) }
                for x in found where g.head(of: x) == node && arrivingArcs.insert(x).inserted { nextArriving.append(x) }
            }
            frontier = nextArriving
            leavingFrontier = []
        }
        let allowed = Set(g.turns(from: arriving).map { g.arcOriginal[g.turnTarget[$0].index] })
        let arrivalBearing = facts.arriveBearing(arriving)
        // One road per edge.
        var byEdge: [EdgeID: Road] = [:]
        for y in leavingArcs {
            let bearing = facts.departBearing(y)
            byEdge[g.edge(of: y)] = Road(leaving: y, anyArc: y, bearing: bearing,
                                        angle: Geodesy.turnAngle(from: arrivalBearing, to: bearing), entryAllowed: allowed.contains(y))
        }
        for x in arrivingArcs where byEdge[g.edge(of: x)] == nil {
            let bearing = (facts.arriveBearing(x) + 180).truncatingRemainder(dividingBy: 360)
            byEdge[g.edge(of: x)] = Road(leaving: .none, anyArc: x, bearing: bearing,
                                        angle: Geodesy.turnAngle(from: arrivalBearing, to: bearing), entryAllowed: false)
        }
        let inEdge = g.edge(of: arriving)
        if var back = byEdge[inEdge] {
            // The road arrived on lies straight behind, whatever its shape says.
            back.angle = 180
            back.bearing = (arrivalBearing + 180).truncatingRemainder(dividingBy: 360)
            byEdge[inEdge] = back
        } else {
            byEdge[inEdge] = Road(leaving: .none, anyArc: arriving, bearing: (arrivalBearing + 180).truncatingRemainder(dividingBy: 360),
                                  angle: 180, entryAllowed: false)
        }
        let sorted = byEdge.sorted { $0.value.bearing != $1.value.bearing ? $0.value.bearing < $1.value.bearing : $0.key < $1.key }
        roads = sorted.map(\.value)
        inIndex = sorted.firstIndex { $0.key == inEdge }!
        outIndex = sorted.firstIndex { $0.key == g.edge(of: leaving) } ?? inIndex
    }

    /// Compass bearings as OSRM writes them (integers 0–359).
    var bearings: [Int] { roads.map { Int($0.bearing.rounded()) % 360 } }

    func summary(location: Coordinate, lanes: [Lane]) -> IntersectionSummary {
        IntersectionSummary(location: location, bearings: bearings, entry: roads.map(\.entryAllowed),
                            inIndex: inIndex, outIndex: outIndex, lanes: lanes)
    }
}
