import GeoCore

/// Node positions and way node lists kept by the builder: only what the places need.
/// Node ids are a sorted array searched by bisection; ways are flat columns.
struct OSMGeometry {
    private(set) var nodeIDs: [Int64] = []
    private(set) var nodeCoordinates: [Coordinate] = []
    private(set) var nodePresent: [Bool] = []

    private(set) var wayOSMIDs: [Int64] = []
    private(set) var wayRefOffsets: [Int] = [0]
    private(set) var wayRefs: [Int64] = []

    var wayCount: Int { wayOSMIDs.count }

    /// Keeps a way's node list; returns its dense index.
    mutating func addWay(osmID: Int64, refs: ArraySlice<Int64>) -> Int32 {
        wayOSMIDs.append(osmID)
        wayRefs.append(contentsOf: refs)
        wayRefOffsets.append(wayRefs.count)
        return Int32(wayOSMIDs.count - 1)
    }

    func refs(ofWay w: Int32) -> ArraySlice<Int64> {
        wayRefs[wayRefOffsets[Int(w)]..<wayRefOffsets[Int(w) + 1]]
    }

    /// Freezes the set of wanted nodes (every node of a kept way plus `extra`) before the node pass.
    mutating func prepareNodeTable(extra: [Int64]) {
        var ids = wayRefs + extra
        ids.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(ids.count)
        for id in ids where unique.last != id { unique.append(id) }
        nodeIDs = unique
        nodeCoordinates = Array(repeating: Coordinate(latitudeE7: 0, longitudeE7: 0), count: unique.count)
        nodePresent = Array(repeating: false, count: unique.count)
    }

    /// First index ≥ `from` whose id is ≥ `id` (galloping from `from`, then bisection).
    func lowerBound(_ id: Int64, from: Int) -> Int {
        var lo = from, step = 1, hi = from
        while hi < nodeIDs.count && nodeIDs[hi] < id {
            lo = hi + 1
            hi += step
            step *= 2
        }
        hi = min(hi, nodeIDs.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if nodeIDs[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Index of `id` in the node table.
    func nodeIndex(_ id: Int64) -> Int? {
        let i = lowerBound(id, from: 0)
        return i < nodeIDs.count && nodeIDs[i] == id ? i : nil
    }

    mutating func setNode(at index: Int, _ coordinate: Coordinate) {
        nodeCoordinates[index] = coordinate
        nodePresent[index] = true
    }

    func coordinate(ofNode id: Int64) -> Coordinate? {
        guard let i = nodeIndex(id), nodePresent[i] else { return nil }
        return nodeCoordinates[i]
    }

    /// The positions of a way's nodes that the extract contains (clipped extracts lose some).
    func coordinates(ofWay w: Int32) -> [Coordinate] {
        var out: [Coordinate] = []
        let refs = refs(ofWay: w)
        out.reserveCapacity(refs.count)
        for id in refs { if let c = coordinate(ofNode: id) { out.append(c) } }
        return out
    }

    /// True when the way's first and last node are the same (a ring).
    func isClosed(_ w: Int32) -> Bool {
        let refs = refs(ofWay: w)
        return refs.count >= 4 && refs.first == refs.last
    }
}
