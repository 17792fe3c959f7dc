#if canImport(Glibc)
import Glibc
#endif
import GeoCore

/// What the generator decides about a town before building it.
struct TownPlan {
    var name: String
    var width: Int
    var height: Int
    var spacingMeters: Double
    /// Rotation of the grid, radians.
    var angle: Double
    var center: PlanePoint
    /// The class of the two arterials through the centre (primary for the biggest towns).
    var mainClass: RoadClass

    /// Half the diagonal of the grid: nothing of the town lies farther from its centre.
    var radiusMeters: Double {
        0.5 * spacingMeters * (Double(width * width + height * height)).squareRoot()
    }
}

/// A built town: where roads from outside may join it.
struct BuiltTown {
    /// The ends of the two central arterials, east, north, west and south in the grid's frame.
    var gates: [(node: Int32, position: PlanePoint)]
    var roundabouts = 0
    var restrictions = 0
}

/// Builds one town: a jittered grid clipped to an irregular outline, with missing links and
/// holes, cul-de-sacs, arterial lines (the central row and column, and in big towns every 8–12th line) that
/// carry names, `maxspeed=50` and traffic signals where they cross, residential streets (10 %
/// one-way, 25 % `maxspeed=30`), a few roundabouts (closed `junction=roundabout` ways replacing
/// an intersection) and `no_left_turn` / `only_straight_on` restrictions at some crossings.
enum TownBuilder {
    // Arms of an intersection, counter-clockwise in the grid's frame.
    static let east = 0, north = 1, west = 2, south = 3

    static func build(_ plan: TownPlan, into net: inout NetworkColumns, rng: inout SplitMix64) -> BuiltTown {
        let w = plan.width, h = plan.height
        let cw = w / 2, ch = h / 2
        func index(_ i: Int, _ j: Int) -> Int { j * w + i }

        // Arterial lines.
        var rowClass = [RoadClass?](repeating: nil, count: h)
        var colClass = [RoadClass?](repeating: nil, count: w)
        rowClass[ch] = plan.mainClass
        colClass[cw] = plan.mainClass
        let minor: RoadClass = plan.mainClass == .primary ? .secondary : .tertiary
        let every = 8 + rng.below(5)
        if w >= 2 * every { for i in stride(from: cw % every, to: w, by: every) where i != cw && i > 0 && i < w - 1 { colClass[i] = minor } }
        if h >= 2 * every { for j in stride(from: ch % every, to: h, by: every) where j != ch && j > 0 && j < h - 1 { rowClass[j] = minor } }

        // An irregular outline, with a few holes (parks, rail yards) off the arterials.
        let phase1 = rng.uniform(0, 2 * .pi), phase2 = rng.uniform(0, 2 * .pi), phase3 = rng.uniform(0, 2 * .pi)
        var exists = [Bool](repeating: false, count: w * h)
        for j in 0..<h {
            for i in 0..<w {
                let u = (Double(i) - Double(w - 1) / 2) / (Double(w) / 2)
                let v = (Double(j) - Double(h - 1) / 2) / (Double(h) / 2)
                let theta = atan2(v, u)
                let limit = 0.84 + 0.10 * sin(2 * theta + phase1) + 0.07 * sin(3 * theta + phase2) + 0.04 * sin(5 * theta + phase3)
                var keep = (u * u + v * v).squareRoot() <= limit || (w <= 4 && h <= 4)
                if keep && rowClass[j] == nil && colClass[i] == nil && rng.chance(0.02) { keep = false }
                exists[index(i, j)] = keep
            }
        }

        // Links. Arterials are complete. Residential streets run one way through (10 % of their
        // blocks missing) and are joined the other way in a staggered, brick-like pattern, so most
        // crossings are T-junctions; the cells between arterials reach them at few points (55 % of
        // the streets that would meet an arterial end short of it), as neighbourhoods do. With the
        // cul-de-sacs added below this gives about Porto's and Milan's mix of intersections
        // (OSM: 11–17 % dead ends, 70–75 % T-junctions, 8–17 % four-way), not a uniform grid's.
        let throughRows = rng.chance(0.5)
        func keepProbability(along throughDirection: Bool, _ i: Int, _ j: Int, access: Bool) -> Double {
            if access { return 0.45 }
            if throughDirection { return 0.9 }
            return (i + j) % 2 == 0 ? 0.92 : 0.12
        }
        var eastEdge = [Bool](repeating: false, count: w * h)
        var northEdge = [Bool](repeating: false, count: w * h)
        for j in 0..<h {
            for i in 0..<w where exists[index(i, j)] {
                if i + 1 < w && exists[index(i + 1, j)] {
                    let access = colClass[i] != nil || colClass[i + 1] != nil
                    eastEdge[index(i, j)] = rowClass[j] != nil || rng.chance(keepProbability(along: throughRows, i, j, access: access))
                }
                if j + 1 < h && exists[index(i, j + 1)] {
                    let access = rowClass[j] != nil || rowClass[j + 1] != nil
                    northEdge[index(i, j)] = colClass[i] != nil || rng.chance(keepProbability(along: !throughRows, i, j, access: access))
                }
            }
        }
        func hasArm(_ k: Int, _ arm: Int) -> Bool {
            switch arm {
            case east: return eastEdge[k]
            case north: return northEdge[k]
            case west: return k % w > 0 && eastEdge[k - 1]
            default: return k >= w && northEdge[k - w]
            }
        }
        // Keep the component of the centre only (no islands cut off by missing links).
        var reached = [Bool](repeating: false, count: w * h)
        var stack = [index(cw, ch)]
        reached[index(cw, ch)] = true
        while let k = stack.popLast() {
            for (arm, next) in [(east, k + 1), (north, k + w), (west, k - 1), (south, k - w)] where hasArm(k, arm) && !reached[next] {
                reached[next] = true
                stack.append(next)
            }
        }
        for k in 0..<(w * h) where exists[k] && !reached[k] {
            exists[k] = false
            eastEdge[k] = false
            northEdge[k] = false
            if k % w > 0 { eastEdge[k - 1] = false }
            if k >= w { northEdge[k - w] = false }
        }

        // Gates: the ends of the central arterials.
        var i = cw
        while eastEdge[index(i, ch)] { i += 1 }
        let gateEast = index(i, ch)
        i = cw
        while i > 0 && eastEdge[index(i - 1, ch)] { i -= 1 }
        let gateWest = index(i, ch)
        var j = ch
        while northEdge[index(cw, j)] { j += 1 }
        let gateNorth = index(cw, j)
        j = ch
        while j > 0 && northEdge[index(cw, j - 1)] { j -= 1 }
        let gateSouth = index(cw, j)
        let gateSet: Set<Int> = [gateEast, gateNorth, gateWest, gateSouth]

        // Roundabouts and restrictions at four-way crossings (1 = roundabout, 2 = restriction).
        var site = [UInt8](repeating: 0, count: w * h)
        var fourWay: [Int] = [], arterialFourWay: [Int] = []
        for k in 0..<(w * h) where exists[k] && !gateSet.contains(k) && (0..<4).allSatisfy({ hasArm(k, $0) }) {
            fourWay.append(k)
            if rowClass[k / w] != nil || colClass[k % w] != nil { arterialFourWay.append(k) }
        }
        func nearSite(_ k: Int, _ kind: UInt8, within r: Int) -> Bool {
            let ki = k % w, kj = k / w
            for dj in -r...r {
                for di in -r...r {
                    let ii = ki + di, jj = kj + dj
                    if ii >= 0 && ii < w && jj >= 0 && jj < h && site[index(ii, jj)] == kind { return true }
                }
            }
            return false
        }
        var roundaboutSites: [Int] = []
        let roundaboutTarget = w * h >= 36 ? max(1, w * h / 1500) : 0
        var attempts = 0
        while roundaboutSites.count < roundaboutTarget && !fourWay.isEmpty && attempts < roundaboutTarget * 8 {
            attempts += 1
            let pool = !arterialFourWay.isEmpty && rng.chance(0.7) ? arterialFourWay : fourWay
            let k = pool[rng.below(pool.count)]
            if nearSite(k, 1, within: 2) { continue }
            site[k] = 1
            roundaboutSites.append(k)
        }
        var restrictionSites: [Int] = []
        let restrictionTarget = w * h / 250 + (w * h >= 16 ? 1 : 0)
        attempts = 0
        while restrictionSites.count < restrictionTarget && !fourWay.isEmpty && attempts < restrictionTarget * 8 {
            attempts += 1
            let k = fourWay[rng.below(fourWay.count)]
            if site[k] != 0 || nearSite(k, 1, within: 1) { continue }
            site[k] = 2
            restrictionSites.append(k)
        }

        // Nodes: intersections (jittered less across an arterial), or a ring for a roundabout.
        let s = plan.spacingMeters
        func place(_ local: PlanePoint) -> PlanePoint { plan.center + local.rotated(by: plan.angle) }
        var nodeID = [Int32](repeating: 0, count: w * h)
        var ring: [Int: [Int32]] = [:]
        let ringRadius = min(22, 0.2 * s)
        for j in 0..<h {
            for i in 0..<w where exists[index(i, j)] {
                let jx = rng.uniform(-1, 1) * s * (colClass[i] != nil ? 0.03 : 0.16)
                let jy = rng.uniform(-1, 1) * s * (rowClass[j] != nil ? 0.03 : 0.16)
                let local = PlanePoint(x: (Double(i) - Double(w - 1) / 2) * s + jx, y: (Double(j) - Double(h - 1) / 2) * s + jy)
                let k = index(i, j)
                if site[k] == 1 {
                    ring[k] = (0..<8).map { n in
                        let a = Double(n) * .pi / 4
                        return net.addNode(place(local + PlanePoint(x: cos(a), y: sin(a)) * ringRadius))
                    }
                } else {
                    nodeID[k] = net.addNode(place(local), signals: rowClass[j] != nil && colClass[i] != nil)
                }
            }
        }
        func ref(_ k: Int, arm: Int) -> Int32 { ring[k].map { $0[arm * 2] } ?? nodeID[k] }

        // Streets: each grid line becomes ways of a few blocks, broken at roundabouts and
        // restriction sites (whose from/to ways must end at the via node).
        var armWay: [Int: Int32] = [:]
        let mainStreet = net.intern("Main Street"), highStreet = net.intern("High Street")
        func walk(count: Int, at: (Int) -> Int, edge: (Int) -> Bool, forwardArm: Int, backArm: Int,
                  roadClass: RoadClass?, name: Int32) {
            var refs: [Int32] = []
            var startK = 0, edges = 0, target = 1
            func flush(endK: Int) {
                defer { refs = [] }
                guard refs.count >= 2 else { return }
                var attributes = NetworkColumns.WayAttributes(roadClass: roadClass ?? .residential, name: name)
                if roadClass != nil {
                    attributes.maxspeedKmh = 50
                } else if rng.chance(0.25) {
                    attributes.maxspeedKmh = 30
                }
                var wayRefs = refs
                if roadClass == nil && site[startK] != 2 && site[endK] != 2 && rng.chance(0.10) {
                    attributes.oneway = true
                    if rng.chance(0.5) { wayRefs.reverse() }
                }
                let way = net.addWay(wayRefs, attributes)
                if site[startK] == 2 { armWay[startK * 4 + forwardArm] = way }
                if site[endK] == 2 { armWay[endK * 4 + backArm] = way }
            }
            for step in 0..<(count - 1) {
                let a = at(step), b = at(step + 1)
                guard edge(step) else {
                    if !refs.isEmpty { flush(endK: a) }
                    continue
                }
                if refs.isEmpty {
                    refs = [ref(a, arm: forwardArm)]
                    startK = a
                    edges = 0
                    target = roadClass == nil ? 1 + rng.below(5) : 4 + rng.below(9)
                }
                let endRef = ref(b, arm: backArm)
                let from = net.position(refs[refs.count - 1]), to = net.position(endRef)
                let shape = roadClass == nil ? [0, 0, 1, 1, 1, 1, 2, 2, 2, 3][rng.below(10)] : rng.below(4)
                if shape > 0 {
                    let normal = (to - from).rightNormal
                    let spurAt = roadClass == nil && rng.chance(0.12) ? 1 + rng.below(shape) : 0
                    for n in 1...shape {
                        let f = Double(n) / Double(shape + 1)
                        let node = net.addNode(from + (to - from) * f + normal * (rng.uniform(-0.05, 0.05) * s))
                        refs.append(node)
                        if n == spurAt {
                            // A cul-de-sac into the block, 25–40 % of a block deep.
                            let direction = normal * (rng.chance(0.5) ? 1.0 : -1.0)
                            let depth = rng.uniform(0.25, 0.4) * s, count = 1 + rng.below(2)
                            let start = net.position(node)
                            let spur = (1...count).map { k in
                                net.addNode(start + direction * (depth * Double(k) / Double(count)) + (to - from) * (rng.uniform(-0.03, 0.03)))
                            }
                            net.addWay([node] + spur, NetworkColumns.WayAttributes(roadClass: .residential,
                                                                                   name: net.intern(NameMaker.street(rng.below(400), kind: "Close"))))
                        }
                    }
                }
                refs.append(endRef)
                edges += 1
                if site[b] != 0 || edges >= target { flush(endK: b) }
            }
            if !refs.isEmpty { flush(endK: at(count - 1)) }
        }
        for j in 0..<h {
            let name = j == ch ? mainStreet : net.intern(rowClass[j] != nil ? NameMaker.street(j, kind: "Boulevard") : NameMaker.street(j, kind: "Street"))
            walk(count: w, at: { index($0, j) }, edge: { eastEdge[index($0, j)] }, forwardArm: east, backArm: west,
                 roadClass: rowClass[j], name: name)
        }
        for i in 0..<w {
            let name = i == cw ? highStreet : net.intern(colClass[i] != nil ? NameMaker.street(i, kind: "Parkway") : NameMaker.street(i, kind: "Avenue"))
            walk(count: h, at: { index(i, $0) }, edge: { northEdge[index(i, $0)] }, forwardArm: north, backArm: south,
                 roadClass: colClass[i], name: name)
        }

        var built = BuiltTown(gates: [gateEast, gateNorth, gateWest, gateSouth].map { (nodeID[$0], net.position(nodeID[$0])) })
        for k in roundaboutSites {
            let nodes = ring[k]!
            let roadClass = max(rowClass[k / w] ?? .residential, colClass[k % w] ?? .residential)
            var attributes = NetworkColumns.WayAttributes(roadClass: roadClass)
            attributes.roundabout = true
            net.addWay(nodes + [nodes[0]], attributes)
            built.roundabouts += 1
        }
        for k in restrictionSites {
            let fromArm = rng.below(4)
            let kind: NetworkColumns.RestrictionKind = rng.chance(0.7) ? .noLeftTurn : .onlyStraightOn
            // Arriving from arm a heads towards (a + 2) % 4; its left is (a + 3) % 4.
            let toArm = kind == .noLeftTurn ? (fromArm + 3) % 4 : (fromArm + 2) % 4
            guard let from = armWay[k * 4 + fromArm], let to = armWay[k * 4 + toArm] else { continue }
            net.addRestriction(from: from, via: nodeID[k], to: to, kind: kind)
            built.restrictions += 1
        }
        return built
    }
}
