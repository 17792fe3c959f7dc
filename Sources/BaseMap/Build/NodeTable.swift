/// Coordinates of the nodes the kept ways need, looked up by OSM node ID.
///
/// IDs are a sorted array searched with a cursor: PBF files list nodes in ID order, so a pass over
/// the nodes mostly advances the cursor and only falls back to binary search when the order breaks.
struct NodeTable {
    private(set) var ids: [Int64]
    private(set) var points: [MercatorPoint]
    private(set) var found: [Bool]
    private var cursor = 0

    init(neededIDs: [Int64]) {
        var sorted = neededIDs
        sorted.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(sorted.count)
        for id in sorted where unique.last != id { unique.append(id) }
        ids = unique
        points = [MercatorPoint](repeating: MercatorPoint(x: 0, y: 0), count: unique.count)
        found = [Bool](repeating: false, count: unique.count)
    }

    /// Records the node's position if it is needed.
    mutating func offer(id: Int64, point: @autoclosure () -> MercatorPoint) {
        guard let i = slot(of: id) else { return }
        points[i] = point()
        found[i] = true
    }

    private mutating func slot(of id: Int64) -> Int? {
        while cursor < ids.count && ids[cursor] < id { cursor += 1 }
        if cursor < ids.count && ids[cursor] == id { return cursor }
        if cursor > 0 && ids[cursor - 1] >= id {
            cursor = lowerBound(id)
            return cursor < ids.count && ids[cursor] == id ? cursor : nil
        }
        return nil
    }

    private func lowerBound(_ id: Int64) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func point(of id: Int64) -> MercatorPoint? {
        let i = lowerBound(id)
        return i < ids.count && ids[i] == id && found[i] ? points[i] : nil
    }

    /// The positions of `refs`, skipping nodes the extract does not contain.
    func points(of refs: some Sequence<Int64>) -> [MercatorPoint] {
        var result: [MercatorPoint] = []
        for id in refs {
            if let p = point(of: id) { result.append(p) }
        }
        return result
    }
}
