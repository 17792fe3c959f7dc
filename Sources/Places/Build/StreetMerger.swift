import GeoCore

/// Interned strings: each distinct value stored once, referred to by a small number.
struct StringTable {
    private(set) var values: [String] = [""]
    private var index: [String: UInt32] = ["": 0]

    mutating func intern(_ s: String) -> UInt32 {
        if let i = index[s] { return i }
        let i = UInt32(values.count)
        values.append(s)
        index[s] = i
        return i
    }

    subscript(_ i: UInt32) -> String { values[Int(i)] }
}

/// The named highway ways of an extract as compact columns (a way index into `OSMGeometry` and
/// interned names), grouped by name only when streets are built, one name at a time.
struct StreetWayTable {
    private(set) var strings = StringTable()
    private(set) var way: [Int32] = []
    private var name: [UInt32] = []
    private var key: [UInt32] = []
    private var others: [UInt32] = []
    private var highway: [UInt32] = []
    private var road: [Int64] = []
    private var postcode: [UInt32] = []

    var count: Int { way.count }

    mutating func add(way w: Int32, name n: String, others o: [String: String], highway h: String, road r: RoadAttributes, postcode p: String?) {
        way.append(w)
        name.append(strings.intern(n))
        key.append(strings.intern(n.lowercased()))
        others.append(strings.intern(o.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }.joined(separator: "\n")))
        highway.append(strings.intern(h))
        road.append(r.code)
        postcode.append(strings.intern(p ?? ""))
    }

    /// Calls `body` with the ways of each name (case-insensitive), names in order.
    func forEachName(_ geometry: OSMGeometry, _ body: ([StreetWay]) throws -> Void) rethrows {
        let order = way.indices.sorted { (strings[key[$0]], $0) < (strings[key[$1]], $1) }
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && key[order[end]] == key[order[start]] { end += 1 }
            let ways = order[start..<end].compactMap { i -> StreetWay? in
                let points = geometry.coordinates(ofWay: way[i])
                guard !points.isEmpty else { return nil }
                var named: [String: String] = [:]
                for line in strings[others[i]].split(separator: "\n") {
                    let kv = line.split(separator: "\t", maxSplits: 1)
                    if kv.count == 2 { named[String(kv[0])] = String(kv[1]) }
                }
                return StreetWay(osmID: geometry.wayOSMIDs[Int(way[i])], name: strings[name[i]], otherNames: named,
                                 highway: strings[highway[i]], road: RoadAttributes(code: road[i]),
                                 postcode: postcode[i] == 0 ? nil : strings[postcode[i]],
                                 nodeIDs: Array(geometry.refs(ofWay: way[i])), points: points)
            }
            if !ways.isEmpty { try body(ways) }
            start = end
        }
    }
}

/// One named highway way with its geometry, as the merger takes it.
struct StreetWay {
    var osmID: Int64
    var name: String
    var otherNames: [String: String]
    var highway: String
    var road: RoadAttributes
    /// The way's own `addr:postcode` or `postal_code`.
    var postcode: String?
    var nodeIDs: [Int64]
    var points: [Coordinate]
}

/// A street as search shows it: every way of one name in one area.
struct MergedStreet {
    var name: String
    var otherNames: [String: String]
    var highway: String
    /// The longest member way, which stands for the street in OSM references.
    var osmID: Int64
    var position: Coordinate
    var extent: BoundingBox
    var lengthMeters: Double
    /// The postcode its ways carry (the most common), when they do.
    var postcode: String?
    /// The member ways' lines with their road class and speed limit.
    var lines: [(points: [Coordinate], road: RoadAttributes)]
}

/// Merges same-named ways that touch or lie within `mergeDistanceMeters` of each other.
enum StreetMerger {
    /// The streets of ways that all have one name (as `StreetWayTable.forEachName` hands them).
    static func merge(sameName ways: [StreetWay], mergeDistanceMeters: Double = 200) -> [MergedStreet] {
        clusters(ways, mergeDistanceMeters).map { street($0, ways) }
    }

    private static func clusters(_ ways: [StreetWay], _ distance: Double) -> [[Int]] {
        var parent = Array(0..<ways.count)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        func union(_ a: Int, _ b: Int) {
            let ra = find(a), rb = find(b)
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        var firstWayOfNode: [Int64: Int] = [:]
        for (m, w) in ways.enumerated() {
            for id in w.nodeIDs {
                if let other = firstWayOfNode[id] { union(m, other) } else { firstWayOfNode[id] = m }
            }
        }
        let boxes = ways.map { PolygonGeometry.bounds($0.points) }
        let expanded = boxes.map { $0.expanded(byMeters: distance) }
        // Bucket by the centre on a coarse grid so that big groups ("Main Street" across a country) stay near-linear.
        let grid = SpatialGrid(boxes.map(\.center), cellMeters: 2_000)
        for m in 0..<ways.count {
            let reach = max(2_000, Geodesy.distanceMeters(boxes[m].southWest, boxes[m].northEast)) + distance
            for (other, _) in grid.within(boxes[m].center, meters: reach) where Int(other) > m {
                if expanded[m].intersects(boxes[Int(other)]) { union(m, Int(other)) }
            }
        }
        var byRoot: [Int: [Int]] = [:]
        for m in 0..<ways.count { byRoot[find(m), default: []].append(m) }
        return byRoot.keys.sorted().map { byRoot[$0]! }
    }

    private static func street(_ cluster: [Int], _ ways: [StreetWay]) -> MergedStreet {
        var extent = BoundingBox.empty
        var lines: [(points: [Coordinate], road: RoadAttributes)] = []
        var longest = (index: cluster[0], length: -1.0, mid: ways[cluster[0]].points[0])
        var total = 0.0
        var nameCounts: [String: Int] = [:], postcodes: [String: Int] = [:]
        var others: [String: String] = [:]
        var highway = ways[cluster[0]].highway
        for i in cluster {
            let w = ways[i]
            for p in w.points { extent.formUnion(p) }
            lines.append((w.points, w.road))
            let (mid, length) = PolygonGeometry.midpoint(ofLine: w.points) ?? (w.points[0], 0)
            total += length
            if length > longest.length { longest = (i, length, mid) }
            nameCounts[w.name, default: 0] += 1
            if let p = w.postcode { postcodes[p, default: 0] += 1 }
            for (k, v) in w.otherNames where others[k] == nil { others[k] = v }
            if TagClassifier.highwayRank(w.highway) > TagClassifier.highwayRank(highway) { highway = w.highway }
        }
        let name = nameCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
        return MergedStreet(name: name, otherNames: others, highway: highway, osmID: ways[longest.index].osmID,
                            position: longest.mid, extent: extent, lengthMeters: total,
                            postcode: postcodes.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key, lines: lines)
    }
}
