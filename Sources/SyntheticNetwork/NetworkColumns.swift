#if canImport(Glibc)
import Glibc
#endif
import OSMPBF
import GeoCore

/// The generated network in flat columns (about 30 bytes per node, 5 per way reference), written
/// out as an `.osm.pbf` in blocks of `PBFWriter.objectsPerBlock` objects.
///
/// Node, way and relation IDs are dense and start at 1, in creation order, so the file is sorted
/// type-then-ID as OSRM and osmium expect without any sorting.
struct NetworkColumns {
    struct WayAttributes {
        var roadClass: RoadClass
        var name: Int32 = -1
        var ref: Int32 = -1
        var maxspeedKmh: UInt16 = 0
        var oneway = false
        var roundabout = false
    }

    enum RestrictionKind: UInt8 {
        case noLeftTurn, onlyStraightOn
        var tag: String { self == .noLeftTurn ? "no_left_turn" : "only_straight_on" }
    }

    private(set) var xMeters: [Double] = []
    private(set) var yMeters: [Double] = []
    /// Nodes tagged `highway=traffic_signals`, ascending.
    private(set) var signals: [Int32] = []

    private(set) var wayRefs: [Int32] = []
    private(set) var wayRefEnd: [Int] = []
    private(set) var ways: [WayAttributes] = []
    private(set) var restrictions: [(from: Int32, via: Int32, to: Int32, kind: RestrictionKind)] = []

    private(set) var strings: [String] = []
    private var stringIndex: [String: Int32] = [:]

    var nodeCount: Int { xMeters.count }
    var wayCount: Int { ways.count }

    func position(_ node: Int32) -> PlanePoint { PlanePoint(x: xMeters[Int(node) - 1], y: yMeters[Int(node) - 1]) }

    mutating func addNode(_ p: PlanePoint, signals signal: Bool = false) -> Int32 {
        xMeters.append(p.x)
        yMeters.append(p.y)
        let id = Int32(xMeters.count)
        if signal { signals.append(id) }
        return id
    }

    mutating func intern(_ s: String) -> Int32 {
        if let i = stringIndex[s] { return i }
        let i = Int32(strings.count)
        strings.append(s)
        stringIndex[s] = i
        return i
    }

    @discardableResult
    mutating func addWay(_ refs: [Int32], _ attributes: WayAttributes) -> Int32 {
        precondition(refs.count >= 2, "a way needs two nodes")
        wayRefs.append(contentsOf: refs)
        wayRefEnd.append(wayRefs.count)
        ways.append(attributes)
        return Int32(ways.count)
    }

    /// Adds `refs` as consecutive ways of `minNodes...maxNodes` nodes each (sharing end nodes).
    mutating func addChain(_ refs: [Int32], _ attributes: WayAttributes, minNodes: Int, maxNodes: Int, rng: inout SplitMix64) {
        var start = 0
        while start < refs.count - 1 {
            let length = minNodes + rng.below(maxNodes - minNodes + 1)
            var end = min(refs.count - 1, start + length - 1)
            if refs.count - 1 - end < 2 { end = refs.count - 1 }   // no 1-segment stubs at the end
            addWay(Array(refs[start...end]), attributes)
            start = end
        }
    }

    mutating func addRestriction(from: Int32, via: Int32, to: Int32, kind: RestrictionKind) {
        restrictions.append((from, via, to, kind))
    }

    /// Writes the `.osm.pbf`: nodes (dense), then ways, then relations, 8,000 objects a block.
    /// Returns the file size in bytes.
    func write(to path: String, centerLatitude: Double, centerLongitude: Double) throws(PBFError) -> Int {
        let metersPerDegreeLatitude = 111_319.49
        let metersPerDegreeLongitude = metersPerDegreeLatitude * cos(centerLatitude * .pi / 180)
        func latE7(_ y: Double) -> Int32 { Int32(((centerLatitude + y / metersPerDegreeLatitude) * 1e7).rounded()) }
        func lonE7(_ x: Double) -> Int32 { Int32(((centerLongitude + x / metersPerDegreeLongitude) * 1e7).rounded()) }

        let minX = xMeters.min() ?? 0, maxX = xMeters.max() ?? 0, minY = yMeters.min() ?? 0, maxY = yMeters.max() ?? 0
        let writer = try PBFWriter(path: path, boundingBox: (latE7(minY), lonE7(minX), latE7(maxY), lonE7(maxX)),
                                   writingProgram: "wayfinder generate")
        let perBlock = PBFWriter.objectsPerBlock
        var builder = OSMBlockBuilder()
        var inBlock = 0
        func flushIfFull(force: Bool = false) throws(PBFError) {
            if inBlock >= perBlock || (force && inBlock > 0) {
                try writer.write(builder.block)
                builder = OSMBlockBuilder()
                inBlock = 0
            }
        }

        var nextSignal = 0
        for i in 0..<nodeCount {
            let id = Int32(i + 1)
            var tags = Tags()
            if nextSignal < signals.count && signals[nextSignal] == id {
                tags = ["highway": "traffic_signals"]
                nextSignal += 1
            }
            builder.addNode(id: Int64(id), latitudeE7: latE7(yMeters[i]), longitudeE7: lonE7(xMeters[i]), tags: tags)
            inBlock += 1
            try flushIfFull()
        }
        try flushIfFull(force: true)

        var refStart = 0
        for (w, a) in ways.enumerated() {
            let refs = wayRefs[refStart..<wayRefEnd[w]].map { Int64($0) }
            refStart = wayRefEnd[w]
            var tags = Tags([("highway", a.roadClass.highway)])
            if a.name >= 0 { tags.pairs.append(("name", strings[Int(a.name)])) }
            if a.ref >= 0 { tags.pairs.append(("ref", strings[Int(a.ref)])) }
            if a.maxspeedKmh > 0 { tags.pairs.append(("maxspeed", String(a.maxspeedKmh))) }
            if a.roundabout { tags.pairs.append(("junction", "roundabout")) }
            if a.oneway { tags.pairs.append(("oneway", "yes")) }
            builder.addWay(id: Int64(w + 1), refs: refs, tags: tags)
            inBlock += 1
            try flushIfFull()
        }
        try flushIfFull(force: true)

        for (r, restriction) in restrictions.enumerated() {
            builder.addRelation(id: Int64(r + 1),
                                members: [(.way, Int64(restriction.from), "from"), (.node, Int64(restriction.via), "via"),
                                          (.way, Int64(restriction.to), "to")],
                                tags: Tags([("type", "restriction"), ("restriction", restriction.kind.tag)]))
            inBlock += 1
            try flushIfFull()
        }
        try flushIfFull(force: true)
        try writer.finish()

        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }
}
