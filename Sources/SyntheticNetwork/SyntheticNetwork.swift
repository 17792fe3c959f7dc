#if canImport(Glibc)
import Glibc
#endif
public import OSMPBF
import GeoCore

/// Writes a synthetic but realistic road network as an `.osm.pbf`, for scale benchmarks that
/// OSRM and Wayfinder both import: towns of Zipf-distributed sizes (irregular residential grids
/// with arterials, one-ways, roundabouts and turn restrictions; see `TownBuilder`), rural
/// primary/secondary/tertiary roads with names, refs and `maxspeed` joining each town to its
/// nearest neighbours (and a spanning tree, so everything is connected), and dual-carriageway
/// motorways between the biggest towns with `motorway_link` ramps. About 87 % of the nodes are in
/// towns; rural node spacing is chosen so the total lands close to the requested count.
///
/// Memory: flat columns of about 30 bytes per node (5M nodes: about 0.2 GB), and the file is
/// written in blocks of 8,000 objects.
public enum SyntheticNetwork {
    public struct Options: Sendable {
        /// The number of OSM nodes to aim for (the result is within a few per cent).
        public var nodes: Int
        public var seed: UInt64
        /// Where the network's centre lies (equirectangular projection around it).
        public var centerLatitude = 46.0
        public var centerLongitude = 2.5

        public init(nodes: Int, seed: UInt64 = 1) {
            self.nodes = nodes
            self.seed = seed
        }
    }

    public struct Summary: Sendable {
        public var nodes: Int
        public var ways: Int
        public var restrictions: Int
        public var towns: Int
        public var motorwayTowns: Int
        public var motorwaySegments: Int
        public var ruralRoads: Int
        public var roundabouts: Int
        public var trafficSignals: Int
        public var townNodes: Int
        public var ruralNodeSpacingMeters: Double
        public var regionSideKilometers: Double
        public var fileBytes: Int
    }

    public static func write(_ options: Options, to path: String) throws(PBFError) -> Summary {
        var rng = SplitMix64(seed: options.seed)
        var net = NetworkColumns()
        let target = max(2_000, options.nodes)

        // Town sizes: Zipf with exponent 0.85, 87 % of the nodes. A grid of w × h intersections
        // yields about 1.62 · w · h nodes (outline, missing links and shape nodes included).
        let townCount = max(3, target / 6_000)
        let weights = (1...townCount).map { pow(Double($0), -0.85) }
        let scale = Double(target) * 0.87 / weights.reduce(0, +)
        var plans: [TownPlan] = []
        for (rank, weight) in weights.enumerated() {
            let intersections = max(9, scale * weight / 1.62)
            let aspect = rng.uniform(0.75, 1.33)
            let width = max(3, Int((intersections * aspect).squareRoot().rounded()))
            let height = max(3, Int((intersections / Double(width)).rounded()))
            let mainClass: RoadClass = Double(rank) < max(1, Double(townCount) * 0.15) ? .primary
                : Double(rank) < Double(townCount) * 0.5 ? .secondary : .tertiary
            plans.append(TownPlan(name: NameMaker.town(&rng), width: width, height: height, spacingMeters: rng.uniform(85, 125),
                                  angle: rng.uniform(-0.45, 0.45), center: PlanePoint(x: 0, y: 0), mainClass: mainClass))
        }

        // Place towns, biggest first, so that towns cover about a fifth of a square region.
        let footprint = plans.reduce(0.0) { $0 + Double($1.width * $1.height) * $1.spacingMeters * $1.spacingMeters }
        var side = (footprint / 0.2).squareRoot()
        for k in plans.indices {
            let r = plans[k].radiusMeters
            var attempts = 0
            while true {
                side = max(side, 2 * r + 2_000)
                let half = side / 2 - r
                let p = PlanePoint(x: rng.uniform(-half, half), y: rng.uniform(-half, half))
                if !(0..<k).contains(where: { plans[$0].center.distance(to: p) < plans[$0].radiusMeters + r + 1_500 }) {
                    plans[k].center = p
                    break
                }
                attempts += 1
                if attempts % 200 == 0 { side *= 1.05 }
            }
        }

        var towns: [BuiltTown] = []
        var roundabouts = 0
        for plan in plans {
            let town = TownBuilder.build(plan, into: &net, rng: &rng)
            roundabouts += town.roundabouts
            towns.append(town)
        }
        let townNodes = net.nodeCount
        let restrictions = net.restrictions.count

        // Rural roads: each town to its 3 nearest, plus a spanning tree.
        let centers = plans.map(\.center)
        var ruralPairs = Set<Int>()
        for a in plans.indices {
            let nearest = plans.indices.filter { $0 != a }.sorted {
                centers[a].distance(to: centers[$0]) - plans[$0].radiusMeters < centers[a].distance(to: centers[$1]) - plans[$1].radiusMeters
            }
            for b in nearest.prefix(3) { ruralPairs.insert(min(a, b) * townCount + max(a, b)) }
        }
        for (a, b) in spanningTree(centers.indices.map { $0 }, centers) { ruralPairs.insert(min(a, b) * townCount + max(a, b)) }
        let rural = ruralPairs.sorted().map { ($0 / townCount, $0 % townCount) }

        // Motorways between the biggest towns (already sorted by size): a spanning tree plus each
        // town's second-nearest motorway neighbour (the nearest is in the tree already), so the
        // motorway network has loops; a junction ("hub") outside each town.
        let motorwayCount = townCount >= 3 ? max(3, townCount / 6) : 0
        var motorwayPairs = Set<Int>()
        let motorwayTowns = Array(0..<motorwayCount)
        for (a, b) in spanningTree(motorwayTowns, centers) { motorwayPairs.insert(min(a, b) * townCount + max(a, b)) }
        for a in motorwayTowns {
            let byDistance = motorwayTowns.filter { $0 != a }.sorted { centers[a].distance(to: centers[$0]) < centers[a].distance(to: centers[$1]) }
            if byDistance.count >= 2 { motorwayPairs.insert(min(a, byDistance[1]) * townCount + max(a, byDistance[1])) }
        }
        let motorways = motorwayPairs.sorted().map { ($0 / townCount, $0 % townCount) }
        var hubs: [Int: PlanePoint] = [:]
        var hubGates: [Int: Int] = [:]
        for a in motorwayTowns {
            let neighbours = motorways.compactMap { $0.0 == a ? $0.1 : $0.1 == a ? $0.0 : nil }
            guard !neighbours.isEmpty else { continue }
            var direction = neighbours.reduce(PlanePoint(x: 0, y: 0)) { sum, b in
                let d = centers[b] - centers[a]
                return sum + d * (1 / max(d.length, 1))
            }
            if direction.length < 0.3, let b = neighbours.min(by: { centers[a].distance(to: centers[$0]) < centers[a].distance(to: centers[$1]) }) {
                direction = centers[b] - centers[a]
            }
            direction = direction * (1 / max(direction.length, 1e-9))
            hubs[a] = centers[a] + direction * (plans[a].radiusMeters + 2_000)
            hubGates[a] = gate(of: towns[a], center: centers[a], toward: hubs[a]!)
        }

        // Rural node spacing so that the total comes out near the target.
        func gatePoint(_ a: Int, toward b: Int) -> (node: Int32, position: PlanePoint) {
            towns[a].gates[gate(of: towns[a], center: centers[a], toward: centers[b])]
        }
        var ruralLength = 0.0
        for (a, b) in rural { ruralLength += gatePoint(a, toward: b).position.distance(to: gatePoint(b, toward: a).position) * 1.04 }
        for (a, b) in motorways { ruralLength += 2 * hubs[a]!.distance(to: hubs[b]!) * 1.02 / 1.5 }
        let linkSpacing = 60.0
        var linkNodes = 0.0
        for (a, hub) in hubs { linkNodes += 2 * towns[a].gates[hubGates[a]!].position.distance(to: hub) / linkSpacing }
        let budget = Double(target - net.nodeCount) - linkNodes
        let spacing = min(5_000, max(15, ruralLength / max(budget, 1)))

        // Rural roads between town gates.
        var refCounters: [RoadClass: Int] = [:]
        for (a, b) in rural {
            let roadClass = min(plans[a].mainClass, plans[b].mainClass)
            let from = gatePoint(a, toward: b), to = gatePoint(b, toward: a)
            let points = curve(from: from.position, to: to.position, spacing: spacing, wiggle: 0.06, rng: &rng)
            let refs = [from.node] + points.map { net.addNode($0) } + [to.node]
            refCounters[roadClass, default: 0] += 1
            let prefix = roadClass == .primary ? "N" : roadClass == .secondary ? "D" : "C"
            var attributes = NetworkColumns.WayAttributes(roadClass: roadClass, ref: net.intern("\(prefix) \(refCounters[roadClass]!)"))
            if rng.chance(0.5) { attributes.name = net.intern("\(plans[a].name)–\(plans[b].name) Road") }
            switch roadClass {
            case .primary: attributes.maxspeedKmh = rng.chance(0.7) ? 90 : 80
            case .secondary: attributes.maxspeedKmh = 80
            default: attributes.maxspeedKmh = rng.chance(0.5) ? 70 : 0
            }
            net.addChain(refs, attributes, minNodes: 8, maxNodes: 40, rng: &rng)
        }

        // Motorways: two one-way carriageways 15 m either side of a gently curving centre line,
        // meeting at the hubs; ramps from each hub to the town gate facing it.
        var hubNodes: [Int: Int32] = [:]
        for a in hubs.keys.sorted() { hubNodes[a] = net.addNode(hubs[a]!) }
        for (n, (a, b)) in motorways.enumerated() {
            guard let hubA = hubs[a], let hubB = hubs[b], let hubNodeA = hubNodes[a], let hubNodeB = hubNodes[b] else { continue }
            let centre = curve(from: hubA, to: hubB, spacing: spacing * 1.5, wiggle: 0.03, rng: &rng)
            let normal = (hubB - hubA).rightNormal
            let forward = [hubNodeA] + centre.map { net.addNode($0 + normal * 15) } + [hubNodeB]
            let backward = [hubNodeB] + centre.reversed().map { net.addNode($0 - normal * 15) } + [hubNodeA]
            var attributes = NetworkColumns.WayAttributes(roadClass: .motorway, ref: net.intern("A \(n + 1)"))
            attributes.oneway = true
            attributes.maxspeedKmh = 130
            net.addChain(forward, attributes, minNodes: 10, maxNodes: 50, rng: &rng)
            net.addChain(backward, attributes, minNodes: 10, maxNodes: 50, rng: &rng)
        }
        for a in hubs.keys.sorted() {
            let gateNode = towns[a].gates[hubGates[a]!]
            let hubID = hubNodes[a]!
            let hubPosition = net.position(hubID)
            var attributes = NetworkColumns.WayAttributes(roadClass: .motorwayLink)
            attributes.oneway = true
            let normalOut = (hubPosition - gateNode.position).rightNormal
            let out = straight(from: gateNode.position, to: hubPosition, spacing: linkSpacing).map { net.addNode($0 + normalOut * 20) }
            net.addWay([gateNode.node] + out + [hubID], attributes)
            let back = straight(from: hubPosition, to: gateNode.position, spacing: linkSpacing).map { net.addNode($0 - normalOut * 20) }
            net.addWay([hubID] + back + [gateNode.node], attributes)
        }

        let bytes = try net.write(to: path, centerLatitude: options.centerLatitude, centerLongitude: options.centerLongitude)
        return Summary(nodes: net.nodeCount, ways: net.wayCount, restrictions: restrictions, towns: townCount,
                       motorwayTowns: hubs.count, motorwaySegments: motorways.count, ruralRoads: rural.count,
                       roundabouts: roundabouts, trafficSignals: net.signals.count, townNodes: townNodes,
                       ruralNodeSpacingMeters: spacing, regionSideKilometers: side / 1000, fileBytes: bytes)
    }

    /// The gate of `town` facing `point`.
    static func gate(of town: BuiltTown, center: PlanePoint, toward point: PlanePoint) -> Int {
        let d = point - center
        var best = 0, bestScore = -Double.infinity
        for (g, gate) in town.gates.enumerated() {
            let v = gate.position - center
            let score = (v.x * d.x + v.y * d.y) / max(v.length, 1)
            if score > bestScore { bestScore = score; best = g }
        }
        return best
    }

    /// Prim's minimum spanning tree over `members` by centre distance (O(n²); n ≤ a few thousand).
    static func spanningTree(_ members: [Int], _ centers: [PlanePoint]) -> [(Int, Int)] {
        guard members.count > 1 else { return [] }
        var inTree = [Bool](repeating: false, count: members.count)
        var best = [Double](repeating: .infinity, count: members.count)
        var parent = [Int](repeating: -1, count: members.count)
        var edges: [(Int, Int)] = []
        best[0] = 0
        for _ in 0..<members.count {
            var u = -1
            for v in members.indices where !inTree[v] && (u < 0 || best[v] < best[u]) { u = v }
            inTree[u] = true
            if parent[u] >= 0 { edges.append((members[parent[u]], members[u])) }
            for v in members.indices where !inTree[v] {
                let d = centers[members[u]].distance(to: centers[members[v]])
                if d < best[v] { best[v] = d; parent[v] = u }
            }
        }
        return edges
    }

    /// Intermediate points of a gently curving road from `a` to `b`, about `spacing` apart.
    static func curve(from a: PlanePoint, to b: PlanePoint, spacing: Double, wiggle: Double, rng: inout SplitMix64) -> [PlanePoint] {
        let d = a.distance(to: b)
        let count = max(1, Int((d / spacing).rounded()) - 1)
        let bow = rng.uniform(-wiggle, wiggle) * d, ripple = rng.uniform(-wiggle, wiggle) * d / 3
        let normal = (b - a).rightNormal
        return (1...count).map { n in
            let f = Double(n) / Double(count + 1)
            let offset = bow * sin(.pi * f) + ripple * sin(3 * .pi * f) + rng.uniform(-0.1, 0.1) * min(spacing, 200)
            return a + (b - a) * f + normal * offset
        }
    }

    static func straight(from a: PlanePoint, to b: PlanePoint, spacing: Double) -> [PlanePoint] {
        let count = max(1, Int((a.distance(to: b) / spacing).rounded()) - 1)
        return (1...count).map { a + (b - a) * (Double($0) / Double(count + 1)) }
    }
}
