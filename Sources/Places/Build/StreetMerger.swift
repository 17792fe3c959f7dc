import GeoCore

/// One named highway way with its geometry, as the merger takes it.
struct StreetWay {
    var osmID: Int64
    var name: String
    var otherNames: [String: String]
    var highway: String
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
    var segments: [(Coordinate, Coordinate)]
}

/// Merges same-named ways that touch or lie within `mergeDistanceMeters` of each other.
enum StreetMerger {
    static func merge(_ ways: [StreetWay], mergeDistanceMeters: Double = 200) -> [MergedStreet] {
        var groups: [String: [Int]] = [:]
        for (i, w) in ways.enumerated() where !w.points.isEmpty { groups[w.name.lowercased(), default: []].append(i) }
        var streets: [MergedStreet] = []
        for key in groups.keys.sorted() {
            let members = groups[key]!
            for cluster in clusters(members, ways, mergeDistanceMeters) {
                streets.append(street(cluster, ways))
            }
        }
        return streets
    }

    private static func clusters(_ members: [Int], _ ways: [StreetWay], _ distance: Double) -> [[Int]] {
        var parent = Array(0..<members.count)
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
        for (m, w) in members.enumerated() {
            for id in ways[w].nodeIDs {
                if let other = firstWayOfNode[id] { union(m, other) } else { firstWayOfNode[id] = m }
            }
        }
        let boxes = members.map { PolygonGeometry.bounds(ways[$0].points) }
        let expanded = boxes.map { $0.expanded(byMeters: distance) }
        // Bucket by the centre on a coarse grid so that big groups ("Main Street" across a country) stay near-linear.
        var grid = SpatialGrid(cellMeters: 2_000, referenceLatitude: boxes[0].center.latitude)
        for b in boxes { grid.insert(b.center) }
        for m in 0..<members.count {
            let reach = max(2_000, Geodesy.distanceMeters(boxes[m].southWest, boxes[m].northEast)) + distance
            for (other, _) in grid.within(boxes[m].center, meters: reach) where Int(other) > m {
                if expanded[m].intersects(boxes[Int(other)]) { union(m, Int(other)) }
            }
        }
        var byRoot: [Int: [Int]] = [:]
        for m in 0..<members.count { byRoot[find(m), default: []].append(members[m]) }
        return byRoot.keys.sorted().map { byRoot[$0]! }
    }

    private static func street(_ cluster: [Int], _ ways: [StreetWay]) -> MergedStreet {
        var extent = BoundingBox.empty
        var segments: [(Coordinate, Coordinate)] = []
        var longest = (index: cluster[0], length: -1.0, mid: ways[cluster[0]].points[0])
        var total = 0.0
        var nameCounts: [String: Int] = [:]
        var others: [String: String] = [:]
        var highway = ways[cluster[0]].highway
        for i in cluster {
            let w = ways[i]
            for p in w.points { extent.formUnion(p) }
            for j in 1..<max(1, w.points.count) { segments.append((w.points[j - 1], w.points[j])) }
            let (mid, length) = PolygonGeometry.midpoint(ofLine: w.points) ?? (w.points[0], 0)
            total += length
            if length > longest.length { longest = (i, length, mid) }
            nameCounts[w.name, default: 0] += 1
            for (k, v) in w.otherNames where others[k] == nil { others[k] = v }
            if TagClassifier.highwayRank(w.highway) > TagClassifier.highwayRank(highway) { highway = w.highway }
        }
        let name = nameCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
        return MergedStreet(name: name, otherNames: others, highway: highway, osmID: ways[longest.index].osmID,
                            position: longest.mid, extent: extent, lengthMeters: total, segments: segments)
    }
}
